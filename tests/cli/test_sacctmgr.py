"""``fscli sacctmgr``: each verb and entity, abbreviations, bad input and the commit question.

The golden transcript (test_sacctmgr_transcript.py) holds real sacctmgr's answers for
the common calls; these tests cover the rest of the grammar, with sacctmgr's messages
and exit codes, and check that a refused command leaves the store as it was.
"""

from __future__ import annotations

import pytest

from tests.backends import BACKEND
from tests.conftest import DATA, Fscli

GOLDEN = DATA / "golden" / "slurm-22.05" / "sacctmgr_messages"


def build_sm(fscli) -> None:
    """A cluster c1 with phys (chem, bio under it), users alice/bob in chem, carol in bio
    and chem (default bio), QOS high."""
    fscli.ok("cluster", "add", "c1")
    fscli.ok("qos", "add", "high", "priority=5")
    for words in (
        ["add", "acc", "phys", "pa=root", "f=30", "maxw=2:00:00"],
        ["create", "account", "chem,bio", "parent=phys"],
        ["add", "user", "alice,bob", "account=chem"],
        ["add", "user", "carol", "account=bio,chem", "defaultaccount=bio"],
    ):
        fscli.ok("sacctmgr", "-i", *words)


@pytest.fixture
def sm(fscli, template) -> Fscli:
    """The store :func:`build_sm` leaves, copied from its template."""
    return template(fscli, build_sm)


def state(fscli: Fscli) -> str:
    """Everything the store holds for the cluster (to check a refused command)."""
    return (
        fscli.ok("--cluster", "c1", "export").stdout
        + fscli.ok("sacctmgr", "-P", "show", "user").stdout
    )


def refused(fscli: Fscli, *args: str, stderr: str, stdout: str = "", input=None) -> None:
    before = state(fscli)
    result = fscli("sacctmgr", *args, input=input)
    assert (result.exit_code, result.stdout, result.stderr) == (1, stdout, stderr)
    assert state(fscli) == before


# -- options and verbs ------------------------------------------------------------------


def test_version_help_and_bad_options(fscli):
    assert fscli.ok("sacctmgr", "-V").stdout == "slurm 22.05.8 (fscli sacctmgr)\n"
    assert fscli.ok("sacctmgr", "--help").stdout.startswith("sacctmgr [<OPTION>] [<COMMAND>]\n")
    bad = fscli("sacctmgr", "-x", "show", "assoc")
    assert (bad.exit_code, bad.stderr) == (
        1,
        "sacctmgr: invalid option -- 'x'\nTry \"sacctmgr --help\" for more information\n",
    )
    long = fscli("sacctmgr", "--bogus")
    assert long.stderr.startswith("sacctmgr: unrecognized option '--bogus'\n")


def test_unknown_keyword_and_entities(sm):
    refused(sm, "frobnicate", stderr="invalid keyword: frobnicate\n")
    refused(
        sm,
        "-i",
        "add",
        "bogus",
        stderr=(
            'No valid entity in add command\nInput line must include "Account", "Cluster", '
            '"Coordinator", "Federation", "QOS", "Resource", or "User"\n'
        ),
    )
    refused(
        sm,
        "-i",
        "modify",
        stderr=(
            'No valid entity in modify command\nInput line must include "Account", "Cluster", '
            '"Federation", "Job", "QOS", "Resource" or "User"\n'
        ),
    )
    refused(
        sm,
        "-i",
        "remove",
        "x",
        stderr=(
            'No valid entity in delete command\nInput line must include "Account", "Cluster", '
            '"Coordinator", "Federation", "QOS", "Resource", or "User"\n'
        ),
    )


def test_what_fscli_does_not_keep_is_said_clearly(sm):
    refused(
        sm,
        "archive",
        "dump",
        stderr=(
            " fscli sacctmgr does not archive: fscli keeps no job records, rollups or daemon to "
            "act on (use 'fscli export' to save the store)\n"
        ),
    )
    refused(
        sm,
        "show",
        "problem",
        stderr=(
            " fscli sacctmgr cannot list problem: fscli keeps no problem records (use the native "
            "'fscli' commands for clusters and jobs)\n"
        ),
    )
    events = sm("sacctmgr", "-P", "show", "event")
    assert (events.exit_code, events.stdout, events.stderr) == (
        0,
        "Cluster|NodeName|TimeStart|TimeEnd|State|Reason|User\n",
        " fscli keeps no events (node and cluster state changes): nothing to list\n",
    )
    wckeys = sm("sacctmgr", "-n", "list", "wckeys")
    assert (wckeys.exit_code, wckeys.stdout) == (0, "")
    refused(
        sm,
        "-i",
        "add",
        "user",
        "dan",
        "account=chem",
        "wckeys=w1",
        stderr=" fscli keeps no WCKeys: leave out them (DefaultWCKey=, WCKeys=)\n",
    )


def test_readonly_refuses_changes(sm):
    refused(
        sm, "-r", "-i", "add", "account", "x", stderr="Can't run this command in readonly mode.\n"
    )


def test_interactive_mode_reads_commands_from_stdin(sm):
    result = sm("sacctmgr", input="-P show assoc format=acc,u user=bob\nbogus\nexit\nshow qos\n")
    # options are not read inside interactive mode: "-P" is not a command
    assert result.exit_code == 1
    assert result.stderr == "invalid keyword: -P\ninvalid keyword: bogus\n"
    result = sm("sacctmgr", "-P", input="show assoc format=acc,u user=bob\n")
    assert (result.exit_code, result.stdout) == (0, "Account|User\nchem|bob\n")


# -- add ----------------------------------------------------------------------------------


def test_add_account_abbreviations_and_limits(sm):
    result = sm.ok(
        "sacctmgr",
        "-i",
        "add",
        "acc",
        "geo",
        "pa=phys",
        "grpj=4",
        "maxs=9",
        "GrpTRES=cpu=8,mem=2G",
        "qos=normal,high",
        "defaultq=high",
        "d=Geo Sciences",
    )
    assert result.stdout == (
        " Adding Account(s)\n  geo\n Settings\n  Description     = geo sciences\n"
        "  Organization    = Parent/Account Name\n Associations\n  A = geo        C = c1        \n"
        " Settings\n  GrpJobs       = 4\n  GrpTRES       = cpu=8,mem=2G\n  MaxSubmitJobs = 9\n"
        "  Parent        = phys\n  QOS           = high,normal\n  DefQOS        = high\n"
    )
    shown = sm.ok(
        "sacctmgr",
        "-P",
        "show",
        "assoc",
        "acc=geo",
        "format=acc,parentn,grpj,grptres,maxs,maxw,qos,defaultqos",
    ).stdout
    assert shown == (
        "Account|ParentName|GrpJobs|GrpTRES|MaxSubmit|MaxWall|QOS|Def QOS\n"
        "geo|phys|4|cpu=8,mem=2G|9|02:00:00|high,normal|high\n"
    )


def test_add_account_refusals(sm):
    refused(
        sm,
        "-i",
        "add",
        "account",
        "x",
        "bogus=1",
        stderr=(" Unknown option: bogus=1\n Use keyword 'where' to modify condition\n"),
    )
    refused(
        sm,
        "-i",
        "add",
        "account",
        "x",
        "grpt=cpu=8",
        stderr=(  # GrpTRES needs 7 letters
            " Unknown option: grpt=cpu=8\n Use keyword 'where' to modify condition\n"
        ),
    )
    refused(
        sm,
        "-i",
        "add",
        "account",
        "x",
        "parent=nope",
        stderr=(
            " Parent account 'nope' doesn't exist on cluster c1\n        Contact your admin to add "
            "this account.\n No associations created.\n"
        ),
    )
    refused(sm, "-i", "add", "account", "chem", stdout=" Nothing new added.\n", stderr="")
    refused(sm, "-i", "add", "account", "parent=phys", stderr=" Need name of account to add.\n")
    refused(
        sm,
        "-i",
        "add",
        "account",
        "x",
        "GrpTRES=gpu=1",
        stderr=(
            "sacctmgr: error: slurmdb_format_tres_str: no TRES known by type gpu\n"
            " Unknown option: GrpTRES=gpu=1\n Use keyword 'where' to modify condition\n"
        ),
    )
    refused(
        sm,
        "-i",
        "add",
        "account",
        "x",
        "MaxJobs=lots",
        stderr=(
            "sacctmgr: error: Invalid value for MaxJobs (lots)\n"
            " Unknown option: MaxJobs=lots\n Use keyword 'where' to modify condition\n"
        ),
    )
    refused(
        sm,
        "-i",
        "add",
        "account",
        "x",
        "qos=nope",
        stderr=(
            "sacctmgr: error: You gave a bad qos 'nope'. Valid QOS's are normal,high\n"
            " Unknown option: qos=nope\n Use keyword 'where' to modify condition\n"
        ),
    )
    refused(
        sm,
        "-i",
        "add",
        "account",
        "x",
        "cluster=c9",
        stderr=(
            " This cluster 'c9' doesn't exist.\n        Contact your admin to add it to accounting.\n"
        ),
    )


def test_commit_question(sm):
    before = state(sm)
    result = sm("sacctmgr", "add", "account", "x", input="n\n")
    assert result.exit_code == 0
    assert result.stdout.endswith(
        "Would you like to commit changes? (You have 30 seconds to "
        "decide)\n(N/y): \n Changes Discarded\n"
    )
    assert state(sm) == before
    result = sm("sacctmgr", "add", "account", "x", input="what\n")  # one letter at a time
    assert result.stdout.endswith(
        "(N/y): \n" + "Y or N please\n(N/y): \n" * 4 + " Changes Discarded\n"
    )
    no_answer = sm("sacctmgr", "add", "account", "x", input="")
    assert no_answer.stdout.endswith("(N/y): timeout\n Changes Discarded\n")
    assert state(sm) == before
    sm.ok("sacctmgr", "add", "account", "x", input="Y\n")
    assert "x||" in sm.ok("sacctmgr", "-p", "-n", "show", "assoc", "format=acc,u").stdout


@pytest.fixture
def partitions(sm):
    sm.ok("partition", "add", "low")
    return sm


def test_add_user(partitions):
    sm = partitions
    result = sm.ok(
        "sacctmgr",
        "-i",
        "add",
        "user",
        "dan",
        "account=chem,bio",
        "part=low",
        "adminlevel=operator",
        "maxjobs=3",
    )
    assert result.stdout == (
        " Adding User(s)\n  dan\n Settings =\n  Admin Level     = Operator\n Associations =\n"
        "  U = dan       A = chem       C = c1         P = low       \n"
        "  U = dan       A = bio        C = c1         P = low       \n"
        " Non Default Settings\n  MaxJobs       = 3\n"
    )
    assert (
        sm.ok("sacctmgr", "-P", "show", "user", "dan").stdout
        == "User|Def Acct|Admin\ndan|bio|Operator\n"
    )  # no DefaultAccount=: slurmdbd makes the alphabetically first account the default


def test_add_user_refusals(partitions):
    sm = partitions
    refused(
        sm,
        "-i",
        "add",
        "user",
        "dan",
        "account=chem",
        "bogus=1",
        stderr=" Unknown option: bogus=1\n",
    )
    refused(sm, "-i", "add", "user", "dan", stderr=" Need name of account to add user to.\n")
    refused(sm, "-i", "add", "user", "account=chem", stderr=" Need name of user to add.\n")
    refused(
        sm,
        "-i",
        "add",
        "user",
        "dan",
        "account=nope",
        stderr=(
            " This account 'nope' doesn't exist.\n        Contact your admin to add this account.\n"
            " No associations or wckeys created.\n"
        ),
    )
    refused(
        sm, "-i", "add", "user", "alice", "account=chem", stdout=" Nothing new added.\n", stderr=""
    )


def test_add_user_to_one_more_account_prints_only_associations(sm):
    result = sm.ok("sacctmgr", "-i", "add", "user", "bob", "account=bio", "fairshare=2")
    assert result.stdout == (
        " Associations =\n  U = bob       A = bio        C = c1        \n"
        " Non Default Settings\n  Fairshare     = 2\n"
    )


def test_coordinators(sm):
    result = sm.ok("sacctmgr", "-i", "add", "coord", "names=alice", "account=phys")
    assert result.stdout == (
        " Adding Coordinator User(s)\n  alice\n To Account(s) and all sub-accounts\n  phys\n"
    )
    assert (
        sm.ok("sacctmgr", "-P", "show", "user", "alice", "withcoord").stdout
        == "User|Def Acct|Admin|Coord Accounts\nalice|chem|None|bio,chem,phys\n"
    )
    refused(
        sm,
        "-i",
        "add",
        "coord",
        "names=zed",
        "account=phys",
        stderr=" You specified a non-existent user 'zed'.\n",
    )
    refused(
        sm,
        "-i",
        "add",
        "coord",
        "names=alice",
        stderr=" You need to specify an account list here.\n",
    )
    removed = sm.ok("sacctmgr", "-i", "delete", "coord", "names=alice")
    assert removed.stdout == (
        " Removing Coordinators with user name\n  alice\n From all accounts\n"
        " Removed Coordinators (sub accounts not listed)...\n  U = alice     A = phys      \n"
    )
    refused(
        sm,
        "-i",
        "delete",
        "coord",
        "names=alice",
        stdout=(
            " Removing Coordinators with user name\n  alice\n From all accounts\n Nothing removed\n"
        ),
        stderr="",
    )


def test_qos_add_modify_delete(sm):
    assert (
        sm.ok("sacctmgr", "-i", "add", "qos", "gold", "priority=7", "maxwall=1-0").stdout
        == " Adding QOS(s)\n  gold\n Settings\n  Description    = gold\n"
        "  MaxWall                  = 1-00:00:00\n  Priority                 = 7\n"
    )
    refused(sm, "-i", "add", "qos", "gold", stdout=" Nothing new added.\n", stderr="")
    assert (
        sm.ok("sacctmgr", "-i", "modify", "qos", "gold", "set", "priority=9").stdout
        == " Modified qos...\n  gold\n"
    )
    assert (
        sm.ok("sacctmgr", "-P", "show", "qos", "gold", "format=name,prio,maxwall").stdout
        == "Name|Priority|MaxWall\ngold|9|1-00:00:00\n"
    )
    refused(
        sm,
        "-i",
        "modify",
        "qos",
        "nope",
        "set",
        "priority=1",
        stdout=" Nothing modified\n",
        stderr="",
    )
    assert (
        sm.ok("sacctmgr", "-i", "delete", "qos", "gold").stdout == " Deleting QOS(s)...\n  gold\n"
    )
    refused(sm, "-i", "delete", "qos", "gold", stdout=" Nothing deleted\n", stderr="")


def test_cluster_add_and_show(sm):
    assert (
        sm.ok("sacctmgr", "-i", "add", "cluster", "c2").stdout
        == " Adding Cluster(s)\n  Name           = c2\n"
    )
    refused(
        sm,
        "-i",
        "add",
        "cluster",
        "c2",
        stdout=" This cluster c2 already exists.  Not adding.\n",
        stderr="",
    )
    assert sm.ok("sacctmgr", "show", "cluster", "format=cluster,share,qos").stdout == (
        "   Cluster     Share                  QOS \n"
        "---------- --------- -------------------- \n"
        "        c1         1               normal \n"
        "        c2         1               normal \n"
    )


# -- modify -------------------------------------------------------------------------------


def test_modify_account(sm):
    result = sm.ok(
        "sacctmgr",
        "-i",
        "modify",
        "account",
        "where",
        "name=chem,bio",
        "set",
        "maxjobs=7",
        "organization=Science",
    )
    assert result.stdout == (
        " Modified accounts...\n  bio\n  chem\n"
        " Modified account associations...\n"
        "  C = c1         A = chem of phys\n"
        "  C = c1         A = chem                 U = carol    \n"
        "  C = c1         A = chem                 U = alice    \n"
        "  C = c1         A = chem                 U = bob      \n"
        "  C = c1         A = bio of phys\n"
        "  C = c1         A = bio                  U = carol    \n"
    )  # the user associations that inherit MaxJobs are listed too, as sacctmgr 22.05.8
    assert (
        sm.ok("sacctmgr", "-P", "show", "account", "chem", "format=acc,org").stdout
        == "Account|Org\nchem|science\n"
    )
    assert (
        sm.ok("sacctmgr", "-P", "-n", "show", "assoc", "user=bob", "format=maxjobs").stdout == "7\n"
    )


def test_modify_refusals(sm):
    refused(
        sm,
        "-i",
        "modify",
        "account",
        "chem",
        "set",
        "bogus=1",
        stderr=(" Unknown option: bogus=1\n Use keyword 'where' to modify condition\n"),
    )
    refused(
        sm,
        "-i",
        "modify",
        "account",
        "where",
        "bogus=1",
        "set",
        "fairshare=1",
        stderr=(" Unknown condition: bogus=1\n Use keyword 'set' to modify value\n"),
    )
    refused(sm, "-i", "modify", "account", "chem", stderr=" You didn't give me anything to set\n")
    refused(
        sm,
        "-i",
        "modify",
        "account",
        "nope",
        "set",
        "fairshare=1",
        stdout=" Nothing modified\n",
        stderr="",
    )
    refused(
        sm,
        "-i",
        "modify",
        "account",
        "chem",
        "set",
        "name=x",
        stderr=" Can't modify the name of an account\n",
    )
    refused(
        sm,
        "-i",
        "modify",
        "user",
        "carol",
        "set",
        "defaultaccount=phys",
        stdout=(
            " Can't modify because these users aren't associated with new default account "
            "'phys'...\n  U = carol C = c1\n"
        ),
        stderr="",
    )


def test_modify_without_where_asks_first(sm):
    before = state(sm)
    result = sm("sacctmgr", "modify", "user", "set", "maxjobs=1", input="n\n")
    assert (result.exit_code, result.stdout) == (
        0,
        "You didn't set any conditions with 'WHERE'.\nAre you sure you want to continue? "
        "(You have 30 seconds to decide)\n(N/y): \nAborted\n",
    )
    assert state(sm) == before


def test_modify_user_associations_and_record(sm):
    result = sm.ok(
        "sacctmgr",
        "-i",
        "modify",
        "user",
        "carol",
        "set",
        "adminlevel=admin",
        "defaultaccount=chem",
        "qos+=high",
    )
    assert result.stdout == (
        " Modified users...\n  carol\n Modified user associations...\n"
        "  C = c1         A = chem                 U = carol    \n"
        "  C = c1         A = bio                  U = carol    \n"
    )
    assert sm.ok("sacctmgr", "show", "user", "carol").stdout == (
        "      User   Def Acct     Admin \n---------- ---------- --------- \n"
        "     carol       chem Administ+ \n"
    )


# -- delete -------------------------------------------------------------------------------


def test_delete_account_takes_its_subtree_and_keeps_bare_users(sm):
    assert (
        sm.ok("sacctmgr", "-i", "delete", "account", "chem").stdout
        == " Deleting accounts...\n  chem\n"
    )
    assert sm.ok("sacctmgr", "-P", "show", "user").stdout == (
        "User|Def Acct|Admin\nalice||None\nbob||None\ncarol|bio|None\n"
    )
    assert (
        sm.ok("sacctmgr", "-i", "delete", "user", "alice").stdout == " Deleting users...\n  alice\n"
    )
    refused(
        sm,
        "-i",
        "delete",
        "account",
        "root",
        stderr=(" You are not allowed to remove the root account.\n Use remove cluster instead.\n"),
    )
    refused(sm, "-i", "delete", "account", "nope", stdout=" Nothing deleted\n", stderr="")
    refused(
        sm, "-i", "delete", "account", stderr=(" No conditions given to remove, not executing.\n")
    )


def test_delete_user_association_and_default_guard(sm):
    # slurmdbd walks the associations it removes by user, default last: a default one is
    # refused only after some non-default one went by. carol loses only her default (bio):
    # let through, and she keeps no default account.
    assert sm.ok("sacctmgr", "-i", "delete", "user", "carol", "account=bio").stdout == (
        " Deleting user associations...\n  C = c1         A = bio        U = carol    \n"
    )
    assert sm.ok("sacctmgr", "-nP", "show", "user", "carol").stdout == "carol||None\n"
    assert sm.ok("sacctmgr", "-i", "delete", "user", "carol", "account=chem").stdout == (
        " Deleting user associations...\n  C = c1         A = chem       U = carol    \n"
        " Deleting users (No Associations)...\n  carol\n"
    )
    refused(sm, "-i", "delete", "user", "carol", stdout=" Nothing deleted\n", stderr="")


def test_delete_default_account_refused_after_another(sm):
    # as real sacctmgr 22.05 answered: dana loses zeta (not her default) and erin her
    # default zeta: erin's is refused; by account the same, in delete account's words
    sm.ok("sacctmgr", "-i", "add", "account", "zeta,nucl")
    sm.ok("sacctmgr", "-i", "add", "user", "dana", "account=nucl,zeta")
    sm.ok("sacctmgr", "-i", "add", "user", "erin", "account=zeta")
    refused(
        sm,
        "-i",
        "delete",
        "user",
        "where",
        "account=zeta,nucl",
        stderr=(
            " Error with request: You can not remove the default account of a user\n"
            "  C = c1              A = nucl       U = dana     \n"
            "  C = c1              A = zeta       U = erin     \n"
            " You must change the default account of these users or remove the users completely "
            "from the affected clusters to allow these changes.\n Changes Discarded\n"
        ),
    )
    refused(
        sm,
        "-i",
        "delete",
        "account",
        "zeta",
        stderr=(
            " Error with request: You can not remove the default account of a user\n"
            "  C = c1              A = zeta       U = erin     \n"
            " Please either remove the accounts listed above from list and resubmit,\n"
            " or change these users' default accounts to remove the account(s).\n"
            " Changes Discarded\n"
        ),
    )


def test_native_account_delete_still_refuses_a_subtree(sm):
    result = sm("account", "delete", "phys")
    assert result.exit_code == 1 and "use --recursive" in result.stderr


# -- show ---------------------------------------------------------------------------------


def test_show_assoc_tree_widths_and_filters(sm):
    assert sm.ok(
        "sacctmgr", "show", "assoc", "tree", "format=account%-12,user%6,share,maxwall"
    ).stdout == (
        "Account        User     Share     MaxWall \n"
        "------------ ------ --------- ----------- \n"
        "root                        1             \n"
        " phys                      30    02:00:00 \n"
        "  bio                       1    02:00:00 \n"
        "   bio        carol         1    02:00:00 \n"
        "  chem                      1    02:00:00 \n"
        "   chem       alice         1    02:00:00 \n"
        "   chem         bob         1    02:00:00 \n"
        "   chem       carol         1    02:00:00 \n"
    )
    assert (
        sm.ok(
            "sacctmgr", "-n", "-p", "show", "assoc", "user=carol", "onlydefaults", "format=acc,u"
        ).stdout
        == "bio|carol|\n"
    )
    assert (
        sm.ok(
            "sacctmgr",
            "-P",
            "show",
            "assoc",
            "where",
            "acc=phys",
            "withsub",
            "partition=",
            "format=acc,u",
        ).stdout
        == "Account|User\n"
    )
    assert sm.ok(
        "sacctmgr", "-P", "show", "assoc", "acct=phys", "withsubaccounts", "format=acc,u,lft,rgt"
    ).stdout == (
        "Account|User|LFT|RGT\nphys||2|15\nbio||11|14\nbio|carol|12|13\nchem||3|10\n"
        "chem|alice|6|7\nchem|bob|8|9\nchem|carol|4|5\n"
    )


def test_show_refusals(sm):
    refused(sm, "show", "assoc", "format=account,bogus", stderr="Unknown field 'bogus'\n")
    refused(sm, "show", "assoc", "bogus=1", stderr=" Unknown condition: bogus=1\n")


def test_show_account_and_user_listings(sm):
    assert sm.ok("sacctmgr", "show", "account").stdout == (
        "   Account                Descr                  Org \n"
        "---------- -------------------- -------------------- \n"
        "       bio                  bio                 phys \n"
        "      chem                 chem                 phys \n"
        "      phys                 phys                 phys \n"
        "      root default root account                 root \n"
    )
    assert sm.ok(
        "sacctmgr", "-P", "-s", "show", "user", "carol", "format=user,account,share,maxwall"
    ).stdout == ("User|Account|Share|MaxWall\ncarol|chem|1|02:00:00\ncarol|bio|1|02:00:00\n")


@pytest.mark.skipif(
    BACKEND != "sqlite",
    reason="slurmdbd's ids follow a fresh database; the server test database keeps its "
    "sequences from test to test (to do: ids relative to the store's first)",
)
def test_show_tres_and_transactions(sm):
    assert (
        sm.ok("sacctmgr", "-P", "show", "tres", "type=gres,cpu").stdout == "Type|Name|ID\ncpu||1\n"
    )
    history = sm.ok("sacctmgr", "-P", "-n", "show", "transaction", "format=action,where").stdout
    # slurmdbd's rows of the sacctmgr commands (the native cluster and QOS adds write none)
    assert history.splitlines()[:4] == [
        "Add Accounts|phys",
        "Add Associations|id_assoc=2",
        "Add Accounts|chem",
        "Add Accounts|bio",
    ]


# -- dump and load ------------------------------------------------------------------------


def test_dump_messages(sm, tmp_path, monkeypatch):
    refused(sm, "dump", stderr=" We need a cluster to dump.\n")
    refused(sm, "dump", "c9", stderr=" Cluster c9 doesn't exist.\n")
    monkeypatch.chdir(tmp_path)
    result = sm.ok("sacctmgr", "dump", "c1")
    assert result.stdout == " No filename given, using ./c1.cfg.\n"
    written = (tmp_path / "c1.cfg").read_text()
    assert result.stderr == "".join(
        f"sacctmgr: {line}\n" for line in written.splitlines() if not line.startswith("#")
    )
    assert written == sm.ok("dump", "file=-").stdout


def test_load_golden_dump_with_qos_delta(fscli, tmp_path):
    """The capture's own dump (QOS='-qhigh' on ruser1 in rich) loads, and the delta is
    applied over the inherited QOS list when shown, as sacctmgr shows it."""
    fscli.ok("cluster", "add", "oracle")
    for name in ("qlow", "qmed", "qhigh"):
        fscli.ok("qos", "add", name)
    result = fscli.ok("sacctmgr", "-i", "load", f"file={GOLDEN / 'roundtrip_dump.cfg'}")
    assert result.stdout.startswith("For cluster oracle\nAccounts\n")
    shown = fscli.ok(
        "sacctmgr",
        "-n",
        "-P",
        "show",
        "assoc",
        "user=ruser1",
        "format=acc,u,maxtres,qos,defaultqos",
    ).stdout
    assert shown == (
        "rich|ruser1|cpu=4|normal,qlow|qlow\nrichsub|ruser1|cpu=4|normal,qhigh,qlow|qlow\n"
    )
    again = fscli.ok("sacctmgr", "-i", "load", f"file={GOLDEN / 'roundtrip_dump.cfg'}")
    assert again.stdout == "For cluster oracle\n Nothing new added.\n"


def test_load_refusals(sm, tmp_path):
    refused(sm, "-i", "load", stderr=" No filename given, specify one with file=''\n")
    refused(
        sm,
        "-i",
        "load",
        str(tmp_path / "none.cfg"),
        stderr=f' Unable to read "{tmp_path / "none.cfg"}": No such file or directory\n',
    )
    bad = tmp_path / "bad.cfg"
    bad.write_text("Cluster - c1\nParent - root\nAccount - bad:Bogus=1\n")
    refused(
        sm,
        "-i",
        "load",
        f"file={bad}",
        stdout="For cluster c1\n",
        stderr=(
            " Unknown option: Bogus=1\n Problem with line(3)\n Problem with requests: Unspecified "
            "error\n"
        ),
    )


def test_load_clean_rebuilds_the_cluster_from_its_dump(sm, tmp_path):
    dump = tmp_path / "c1.cfg"
    sm.ok("sacctmgr", "-i", "dump", "c1", f"file={dump}")
    before = sm.ok("sacctmgr", "-P", "show", "assoc").stdout
    sm.ok("sacctmgr", "-i", "modify", "account", "chem", "set", "fairshare=9")
    result = sm.ok("sacctmgr", "-i", "load", "clean", f"file={dump}")
    lines = result.stdout.splitlines()
    assert lines[0] == "For cluster c1"
    assert lines[3].split() == ["root", "1", "normal"]
    assert [line for line in lines if line and not line.startswith((" ", "-"))][1:] == [
        "Account Associations",
        "User Associations",
    ]
    assert result.stderr.startswith("sacctmgr: Done adding cluster in usec=")
    assert sm.ok("sacctmgr", "-P", "show", "assoc").stdout == before


def test_cluster_changes_fscli_does_not_make_are_refused(sm):
    refused(
        sm,
        "-i",
        "modify",
        "cluster",
        "c1",
        stderr=(
            " fscli sacctmgr cannot modify cluster: fscli keeps no cluster records (use the "
            "native 'fscli' commands for clusters and jobs)\n"
        ),
    )


def test_load_skips_wckeys_naming_the_line(sm, tmp_path):
    path = tmp_path / "w.cfg"
    path.write_text(
        "Cluster - 'c1':Classification=Capability:Fairshare=1:QOS='normal'\n"
        "Parent - 'root'\n"
        "User - 'dan':DefaultAccount='root':DefaultWCKey='w1':WCKeys='w1,w2'"
        ":Fairshare=2\n"
    )
    result = sm.ok("sacctmgr", "-i", "load", f"file={path}")
    assert result.stderr.splitlines()[:3] == [
        "sacctmgr: line(1): skipped Classification=Capability: fscli keeps no WCKeys or "
        "cluster classification",
        "sacctmgr: line(3): skipped DefaultWCKey='w1': fscli keeps no WCKeys or cluster "
        "classification",
        "sacctmgr: line(3): skipped WCKeys='w1,w2': fscli keeps no WCKeys or cluster "
        "classification",
    ]
    assert (
        sm.ok("sacctmgr", "-n", "-P", "show", "assoc", "user=dan", "format=acc,share").stdout
        == "root|2\n"
    )


def test_a_bare_user_keeps_its_coordinator_rows(sm):
    sm.ok("sacctmgr", "-i", "add", "coord", "names=alice", "account=phys")
    sm.ok("sacctmgr", "-i", "delete", "account", "chem")  # alice's only association
    assert (
        sm.ok("sacctmgr", "-P", "show", "user", "alice", "withcoord").stdout
        == "User|Def Acct|Admin|Coord Accounts\nalice||None|bio,phys\n"
    )


def test_cluster_option_picks_the_cluster(sm):
    sm.ok("cluster", "add", "c2")
    sm.ok("sacctmgr", "-i", "-M", "c2", "add", "account", "geo")
    assert (
        sm.ok(
            "sacctmgr", "-n", "-P", "show", "assoc", "account=geo", "format=cluster,account"
        ).stdout
        == "c2|geo\n"
    )
    assert sm.ok("sacctmgr", "-n", "-P", "-Mc1", "show", "assoc", "account=geo").stdout == ""
    refused(
        sm,
        "-M",
        "c9",
        "show",
        "assoc",
        stderr=(
            " This cluster 'c9' doesn't exist.\n        Contact your admin to add it to accounting.\n"
        ),
    )


def test_a_name_the_store_cannot_hold_is_refused_before_anything_is_printed(sm):
    refused(
        sm,
        "-i",
        "add",
        "account",
        "a|b",
        stderr=(" invalid account name 'a|b': use letters, digits, '_', '.', '-'\n"),
    )


def test_a_modify_the_store_refuses_is_not_reported_as_made(sm):
    """The `` Modified ...`` list is printed once the change is made: a user's
    DefaultQOS falling out of the list the change sets prints sacctmgr's refusal alone
    (exit 0, as live), and the store is as it was. (A move of an account under itself
    is no change to sacctmgr: `` Nothing modified``.)"""
    refused(
        sm,
        "-i",
        "modify",
        "account",
        "where",
        "name=chem",
        "set",
        "parent=chem",
        stdout=" Nothing modified\n",
        stderr="",
    )
    sm.ok("sacctmgr", "-i", "modify", "user", "alice", "set", "qos=normal,high", "defaultqos=high")
    before = state(sm)
    result = sm("sacctmgr", "-i", "modify", "user", "alice", "set", "qos=normal")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "",
        " These associations don't have access to their default qos.\n"
        " Please give them access before they the default can be set to this.\n"
        "  DefQOS = high       C = c1         A = chem                 U = alice    \n",
    )
    assert state(sm) == before


def test_a_format_width_that_cannot_be_printed_is_one_error_or_the_default(sm):
    """``%N`` with digits of another script or a doubled sign is no width (the field's
    own, as ``%abc``); one wider than 10,000 columns is refused, not padded out of
    memory. Neither ends in an internal error."""
    default = sm.ok("sacctmgr", "-n", "show", "assoc", "format=account").stdout
    for width in ("abc", "²", "--5"):
        shown = sm.ok("sacctmgr", "-n", "show", "assoc", f"format=account%{width}").stdout
        assert shown == default, width
    refused(
        sm,
        "show",
        "assoc",
        "format=account%-99999999999",
        stderr="Invalid width '-99999999999' for field 'account': at most 10000\n",
    )
    refused(
        sm,
        "show",
        "qos",
        "format=name%10001",
        stderr="Invalid width '10001' for field 'name': at most 10000\n",
    )
    wide = sm.ok("sacctmgr", "-n", "show", "qos", "format=name%-10000").stdout
    assert sorted(wide.splitlines()) == [name.ljust(10000) + " " for name in ("high", "normal")]
