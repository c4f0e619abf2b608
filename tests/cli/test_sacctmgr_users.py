"""``fscli sacctmgr`` users, accounts, coordinators and their messages, as real sacctmgr
22.05.8 answered the same calls (observed on a live slurmdbd; the expected text is its)."""

from __future__ import annotations

import pytest

from tests.conftest import Fscli


def build_live(fscli) -> None:
    """A fresh cluster named live, as ``sacctmgr add cluster live`` makes it."""
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")


@pytest.fixture
def live(fscli, template) -> Fscli:
    """The store :func:`build_live` leaves, copied from its template."""
    return template(fscli, build_live)


def run(fscli: Fscli, *words: str, input=None):
    result = fscli("sacctmgr", *words, input=input)
    return result.exit_code, result.stdout, result.stderr


def users(fscli: Fscli) -> str:
    return fscli.ok("sacctmgr", "-nP", "show", "user").stdout


ACCOUNT_HEAD = (
    " Adding Account(s)\n  {0}\n Settings\n  Description     = Account Name\n"
    "  Organization    = Parent/Account Name\n Associations\n  A = {0:<10} C = live      \n"
    " Settings\n"
)


def test_add_settings_lines_clear_tres_as_none_and_memory_exact(live):
    code, out, err = run(
        live,
        "-i",
        "add",
        "account",
        "phys",
        "GrpTRES=cpu=-1,mem=1500M",
        "MaxTRES=mem=2048M,node=-1",
        "grpjobsaccrue=-1",
    )
    assert (code, err) == (0, "")
    assert out == ACCOUNT_HEAD.format("phys") + (
        "  GrpJobsAccrue            = None\n"
        "  GrpTRES       = cpu=NONE,mem=1500M\n"
        "  MaxTRES       = mem=2G,node=NONE\n"
        "  Parent        = root\n"
    )


def test_add_settings_qos_as_given_sorted_and_default_qos_cleared(live):
    live.ok("sacctmgr", "-i", "add", "qos", "high")
    live.ok("sacctmgr", "-i", "add", "qos", "low")
    _, out, _ = run(live, "-i", "add", "account", "a3", "qos=normal,low,high", "defaultqos=-1")
    assert out.endswith(
        "  Parent        = root\n  QOS           = high,low,normal\n  DefQOS        = (null)\n"
    )
    _, out, _ = run(live, "-i", "add", "account", "a4", "qos+=normal,low,high")
    assert out.endswith("  QOS           = +high,+low,+normal\n")
    _, out, _ = run(live, "-i", "add", "account", "a5", "qos-=normal", "qos+=low")
    assert out.endswith("  QOS           = +low,-normal\n")


def test_qos_words_share_one_list(live):
    # a second word naming the same QOS adds nothing: "empty qos list", the word unknown
    assert run(live, "-i", "add", "account", "chem", "qos=normal", "qos=normal") == (
        1,
        "",
        "sacctmgr: error: You gave me an empty qos list\n"
        " Unknown option: qos=normal\n Use keyword 'where' to modify condition\n",
    )
    assert run(live, "-i", "add", "account", "chem", "qos=+normal,high") == (
        1,
        "",
        "sacctmgr: error: You gave a bad qos 'high'. Valid QOS's are normal\n"
        " Unknown option: qos=+normal,high\n Use keyword 'where' to modify condition\n",
    )


def test_add_user_default_is_the_alphabetically_first_account(live):
    live.ok("sacctmgr", "-i", "add", "account", "bio,nucl,cosmo,zeta,alpha")
    live.ok("sacctmgr", "-i", "add", "user", "carl", "account=nucl,cosmo")
    live.ok("sacctmgr", "-i", "add", "user", "dana", "account=zeta,alpha,nucl")
    live.ok("sacctmgr", "-i", "add", "user", "frank", "account=zeta,alpha", "defaultaccount=bio")
    assert users(live) == (
        "carl|cosmo|None\ndana|alpha|None\nfrank|bio|None\nroot|root|Administrator\n"
    )
    # DefaultAccount= switches an existing user only with a new association there
    live.ok("sacctmgr", "-i", "add", "user", "carl", "account=bio")
    assert run(live, "-i", "create", "user", "carl", "defaultaccount=bio") == (
        1,
        " Nothing new added.\n",
        "",
    )
    assert users(live).startswith("carl|cosmo|None\n")
    live.ok("sacctmgr", "-i", "create", "user", "name=carl", "defaultaccount=zeta")
    assert users(live).startswith("carl|zeta|None\n")


def test_add_user_takes_a_partition_slurmctld_is_not_asked_about(live):
    live.ok("sacctmgr", "-i", "add", "account", "nucl,cosmo")
    assert run(live, "-i", "add", "user", "carl", "account=nucl,cosmo", "partition=nosuch") == (
        0,
        " Adding User(s)\n  carl\n Associations =\n"
        "  U = carl      A = nucl       C = live       P = nosuch    \n"
        "  U = carl      A = cosmo      C = live       P = nosuch    \n"
        " Non Default Settings\n",
        "",
    )


def test_add_user_missing_account_still_adds_the_rest_and_exits_1(live):
    live.ok("sacctmgr", "-i", "add", "account", "zeta,bio")
    assert run(live, "-i", "add", "user", "frank", "account=zeta,nucl", "defaultaccount=bio") == (
        1,
        " Adding User(s)\n  frank\n Settings =\n  Default Account = bio\n Associations =\n"
        "  U = frank     A = zeta       C = live      \n"
        "  U = frank     A = bio        C = live      \n"
        " Non Default Settings\n",
        " This account 'nucl' doesn't exist.\n        Contact your admin to add this account.\n",
    )
    assert users(live) == "frank|bio|None\nroot|root|Administrator\n"


def test_delete_user_by_account_takes_defaults_when_nothing_else_went_first(live):
    live.ok("sacctmgr", "-i", "add", "account", "astro,bio,nucl,zeta")
    live.ok("sacctmgr", "-i", "add", "user", "carl,dana", "account=astro")
    live.ok("sacctmgr", "-i", "add", "user", "carl,dana", "account=bio")
    live.ok("sacctmgr", "-i", "add", "user", "erin", "account=zeta,nucl")
    live.ok("sacctmgr", "-i", "add", "user", "frank", "account=nucl")
    assert run(live, "-i", "delete", "user", "where", "account=astro") == (
        0,
        " Deleting user associations...\n"
        "  C = live       A = astro      U = carl     \n"
        "  C = live       A = astro      U = dana     \n",
        "",
    )
    # ... and the users keep no default account; nucl is erin's and frank's default only
    assert run(live, "-i", "delete", "account", "nucl") == (
        0,
        " Deleting accounts...\n  nucl\n",
        "",
    )
    assert users(live) == (
        "carl||None\ndana||None\nerin||None\nfrank||None\nroot|root|Administrator\n"
    )
    # a user without a default gets the first of the accounts added to it
    live.ok("sacctmgr", "-i", "add", "user", "dana", "account=zeta,astro")
    assert users(live).startswith("carl||None\ndana|astro|None\n")


def test_delete_coordinator_says_the_request_first(live):
    live.ok("sacctmgr", "-i", "add", "account", "phys,nucl")
    live.ok("sacctmgr", "-i", "add", "user", "carl,dana", "account=nucl")
    live.ok("sacctmgr", "-i", "add", "coordinator", "account=phys,nucl", "names=carl,dana")
    assert run(live, "-i", "delete", "coordinator", "account=hep", "names=erin") == (
        1,
        "",
        " You specified a non-existent account 'hep'.\n"
        " You specified a non-existent user 'erin'.\n",
    )
    assert run(live, "-i", "delete", "coordinator", "names=carl", "account=phys") == (
        0,
        " Removing Coordinators with user name\n  carl\n From Account(s)\n  phys\n"
        " Removed Coordinators (sub accounts not listed)...\n  U = carl      A = phys      \n",
        "",
    )
    assert run(live, "-i", "delete", "coordinator", "account=nucl") == (
        0,
        " Removing all users from Accounts\n  nucl\n"
        " Removed Coordinators (sub accounts not listed)...\n"
        "  U = carl      A = nucl      \n  U = dana      A = nucl      \n",
        "",
    )
    assert run(live, "-i", "delete", "coordinator", "names=dana,dana") == (
        0,
        " Removing Coordinators with user name\n  dana\n From all accounts\n"
        " Removed Coordinators (sub accounts not listed)...\n  U = dana      A = phys      \n",
        "",
    )
    assert run(live, "-i", "delete", "coordinator", "partition=x") == (
        1,
        "",
        " You need to specify a user list or an account list here.\n",
    )
    assert run(live, "-i", "delete", "coordinator", "names=") == (
        1,
        "",
        " You specified a non-existent user ''.\n",
    )


def test_modify_user_default_refused_still_sets_the_association_values(live):
    live.ok("sacctmgr", "-i", "add", "account", "phys,chem,bio,sw")
    live.ok("sacctmgr", "-i", "add", "user", "frank", "account=phys,chem")
    live.ok("sacctmgr", "-i", "add", "user", "erin", "account=bio", "partition=p1,p2")
    assert run(
        live, "-i", "modify", "user", "where", "name=nobody", "set", "defaultaccount=cosmo",
        "maxsubmitjobs=5",
    ) == (1, " Nothing modified\n Nothing modified\n", "")  # fmt: skip
    assert run(
        live, "-i", "modify", "user", "where", "name=frank,erin", "set", "defaultaccount=chem",
        "grpjobs=3",
    ) == (
        1,
        " Can't modify because these users aren't associated with new default account "
        "'chem'...\n  U = erin C = live\n"
        " Modified user associations...\n"
        "  C = live       A = phys                 U = frank    \n"
        "  C = live       A = chem                 U = frank    \n"
        "  C = live       A = bio                  U = erin      P = p1\n"
        "  C = live       A = bio                  U = erin      P = p2\n",
        "",
    )  # fmt: skip
    # the change is committed: the limits were set
    assert users(live) == "erin|bio|None\nfrank|chem|None\nroot|root|Administrator\n"
    assert live.ok("sacctmgr", "-nP", "show", "assoc", "user=frank,erin",
                   "format=user,part,grpjobs").stdout == (
        "erin|p1|3\nerin|p2|3\nfrank||3\nfrank||3\n"
    )  # fmt: skip


def test_modify_user_where_options_each_part_needs(live):
    live.ok("sacctmgr", "-i", "add", "account", "phys,chem")
    live.ok("sacctmgr", "-i", "add", "user", "bob", "account=phys,chem")
    problem = " There was a problem with your 'where' options.\n"
    # association values need users named (or association conditions) ...
    assert run(live, "-i", "modify", "user", "where", "adminlevel=none", "set", "maxjobs=2") == (
        1,
        "",
        problem,
    )
    # ... user values need a user condition
    assert run(
        live, "-i", "modify", "user", "where", "account=chem", "set", "adminlevel=admin"
    ) == (
        1,
        "",
        problem,
    )
    # account= with DefaultAccount= is taken (-i) as the users' default account: bob's is
    # chem, so he is picked, and every association of his gets the value
    assert run(
        live, "-i", "modify", "user", "where", "name=bob", "account=chem", "set",
        "defaultaccount=phys", "maxwall=60",
    ) == (
        0,
        " Modified users...\n  bob\n Modified user associations...\n"
        "  C = live       A = phys                 U = bob      \n"
        "  C = live       A = chem                 U = bob      \n",
        "",
    )  # fmt: skip


def test_delete_user_association_names_its_partition(live):
    live.ok("sacctmgr", "-i", "add", "account", "phys,chem")
    live.ok("sacctmgr", "-i", "add", "user", "bob", "account=phys,chem", "partition=p1,p2")
    assert run(live, "-i", "delete", "user", "bob", "account=chem", "partition=p2") == (
        0,
        " Deleting user associations...\n  C = live       A = chem       U = bob       P = p2\n",
        "",
    )


@pytest.fixture
def tree(live) -> Fscli:
    """phys > hep (> sub with MaxSubmitJobs=3, sub2), astro; bob in all four, carl in hep
    (MaxSubmitJobs=5), dana in sub2 partition p1."""
    for words in (
        ["add", "account", "phys"],
        ["add", "account", "hep,astro", "parent=phys"],
        ["add", "account", "sub", "parent=hep", "maxsubmitjobs=3"],
        ["add", "account", "sub2", "parent=hep"],
        ["add", "user", "bob", "account=hep,astro,sub,sub2"],
        ["add", "user", "carl", "account=hep", "maxsubmitjobs=5"],
        ["add", "user", "dana", "account=sub2", "partition=p1"],
    ):
        live.ok("sacctmgr", "-i", *words)
    return live


def test_modify_account_lists_the_associations_that_inherit_the_change(tree):
    assert run(
        tree, "-i", "modify", "account", "where", "parent=phys", "set", "maxsubmitjobs=40"
    ) == (
        0,
        " Modified account associations...\n"
        "  C = live       A = hep of phys\n"
        "  C = live       A = hep                  U = bob      \n"
        "  C = live       A = sub2                 U = dana      P = p1\n"
        "  C = live       A = sub2                 U = bob      \n"
        "  C = live       A = astro of phys\n"
        "  C = live       A = astro                U = bob      \n",
        "",
    )
    # a Grp limit is not inherited: the account alone; a TRES one reaches everyone
    assert run(tree, "-i", "modify", "account", "where", "name=hep", "set", "grpjobs=4") == (
        0,
        " Modified account associations...\n  C = live       A = hep of phys\n",
        "",
    )
    assert run(tree, "-i", "modify", "account", "where", "name=hep", "set", "maxtres=cpu=2") == (
        0,
        " Modified account associations...\n"
        "  C = live       A = hep of phys\n"
        "  C = live       A = hep                  U = carl     \n"
        "  C = live       A = hep                  U = bob      \n"
        "  C = live       A = sub2                 U = dana      P = p1\n"
        "  C = live       A = sub2                 U = bob      \n"
        "  C = live       A = sub                  U = bob      \n",
        "",
    )


def test_modify_account_parent_moves_as_slurmdbd_does(tree):
    nothing = (1, " Nothing modified\n", "")
    # already first under phys, or under itself: no change
    assert (
        run(tree, "-i", "modify", "account", "where", "name=hep", "set", "parent=phys") == nothing
    )
    assert run(tree, "-i", "modify", "account", "where", "name=hep", "set", "parent=hep") == nothing
    assert run(tree, "-i", "modify", "account", "where", "name=hep", "set", "parent=nosuch") == (
        1,
        "",
        " Parent Account nosuch doesn't exist.\n",
    )
    # under its own sub-account: sub first moves up to root, then phys under it
    assert run(tree, "-i", "modify", "account", "where", "name=phys", "set", "parent=sub") == (
        0,
        " Modified account associations...\n  C = live       A = phys of root\n",
        "",
    )
    assert tree.ok(
        "sacctmgr", "-nP", "show", "assoc", "format=account,user,parentname,maxsubmit"
    ).stdout == (
        "root|||\nroot|root||\nsub||root|3\nsub|bob||3\nphys||sub|3\nastro||phys|3\n"
        "astro|bob||3\nhep||phys|3\nhep|bob||3\nhep|carl||5\nsub2||hep|3\nsub2|bob||3\n"
        "sub2|dana||3\n"
    )


def test_account_and_user_listing_without_association_print_a_zeroed_record(live):
    live.ok("sacctmgr", "-i", "add", "account", "phys")
    fields = "format=Account,Share,Priority,GrpJobs,GrpWall,MaxJobs,MaxWall,QOS,LFT,ID"
    assert live.ok("sacctmgr", "-P", "show", "acc", fields).stdout == (
        "Account|Share|Priority|GrpJobs|GrpWall|MaxJobs|MaxWall|QOS|LFT|ID\n"
        "phys|0||0|00:00:00|0|00:00:00||0|0\n"
        "root|0||0|00:00:00|0|00:00:00||0|0\n"
    )
    assert live.ok("sacctmgr", "-nP", "show", "user", "format=user,share,maxsubmit").stdout == (
        "root|0|0\n"
    )


def test_unknown_format_field_is_named_lower_cased(live):
    assert run(live, "show", "assoc", "format=Acount%12") == (1, "", "Unknown field 'acount'\n")


def test_add_keeps_signed_qos_after_plain_one_modify_drops_them(live):
    # slurmdbd's add stores a list begun with a plain name as given, signed items and
    # all (shown sorted, signs kept); a modify's plain list is written over its +/- items
    live.sacctmgr_i(
        "add account ml",
        "add qos high",
        "add user erin account=ml qos=normal qos+=normal",
        "add user bob account=ml qos=high qos+=normal",
        "add user carl account=ml qos=high,normal qos-=high",
        "add user dana account=ml qos+=high qos=normal",
    )
    shown = ("sacctmgr", "-nP", "show", "assoc", "format=user,account,qos")
    assert live.ok(*shown).stdout == (
        "|root|normal\nroot|root|normal\n|ml|normal\nbob|ml|+normal,high\n"
        "carl|ml|-high,high,normal\ndana|ml|high,normal\nerin|ml|+normal,normal\n"
    )
    assert live.ok("sacctmgr", "-nP", "show", "user", "withassoc", "format=user,qos").stdout == (
        "bob|+normal,high\ncarl|-high,high,normal\ndana|high,normal\nerin|+normal,normal\n"
        "root|normal\n"
    )
    assert run(live, "-i", "modify", "user", "carl", "set", "qos=high", "qos+=normal") == (
        0,
        " Modified user associations...\n  C = live       A = ml                   U = carl     \n",
        "",
    )
    assert live.ok(*shown).stdout.splitlines()[4] == "carl|ml|high"
