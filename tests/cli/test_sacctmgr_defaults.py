"""``fscli sacctmgr`` and users' default accounts (slurmdbd's ``is_def``), as real sacctmgr
22.05.8 answered the same calls on a live slurmdbd (the expected text is its): which
associations ``show assoc onlydefaults`` lists, ``DefaultAccount='(null)'`` and the order
of partition lines in ``dump``, ``modify user ... set defaultaccount=`` to an account the
user lacks, beside other settings, and ``create user`` naming a new default."""

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


def run(fscli: Fscli, *words: str):
    result = fscli("sacctmgr", *words)
    return result.exit_code, result.stdout, result.stderr


def defaults(fscli: Fscli) -> str:
    return fscli.ok(
        "sacctmgr", "show", "assoc", "onlydefaults", "format=user,account,partition", "-P"
    ).stdout


@pytest.fixture
def partitions(live) -> Fscli:
    live.ok("sacctmgr", "-i", "add", "account", "astro,ml")
    live.ok("sacctmgr", "-i", "add", "user", "chen", "account=astro,ml")
    live.ok("sacctmgr", "-i", "add", "user", "dana", "account=ml", "partition=p1")
    live.ok("sacctmgr", "-i", "add", "user", "dana", "account=ml", "partition=p2")
    live.ok(
        "sacctmgr", "-i", "add", "user", "dana", "account=astro", "defaultaccount=astro",
        "partition=p3",
    )  # fmt: skip
    return live


def test_onlydefaults_lists_the_flagged_associations(partitions):
    # dana's p1 and p2 associations lost the flag when astro became her default
    assert defaults(partitions) == (
        "User|Account|Partition\nchen|astro|\ndana|astro|p3\nroot|root|\n"
    )


def test_a_user_whose_default_association_goes_keeps_no_default(partitions, tmp_path):
    assert run(partitions, "-i", "delete", "user", "where", "name=chen", "account=ml") == (
        0,
        " Deleting user associations...\n  C = live       A = ml         U = chen     \n",
        "",
    )
    partitions.ok("sacctmgr", "-i", "add", "user", "chen", "account=ml")
    deleted = (
        " Deleting user associations...\n"
        "  C = live       A = astro      U = dana      P = p3\n"
        "  C = live       A = astro      U = chen     \n"
    )
    assert run(partitions, "-i", "delete", "user", "where", "account=astro") == (0, deleted, "")
    assert partitions.ok("sacctmgr", "show", "user", "-P").stdout == (
        "User|Def Acct|Admin\nchen||None\ndana||None\nroot|root|Administrator\n"
    )
    assert defaults(partitions) == "User|Account|Partition\nroot|root|\n"
    path = tmp_path / "x.cfg"
    partitions.ok("sacctmgr", "-i", "dump", "live", f"file={path}")
    lines = [line for line in path.read_text().splitlines() if not line.startswith("#")]
    assert lines == [
        "Cluster - 'live':Fairshare=1:QOS='normal'",
        "Parent - 'root'",
        "User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1",
        "Account - 'astro':Description='astro':Organization='astro':Fairshare=1",
        "Account - 'ml':Description='ml':Organization='ml':Fairshare=1",
        "Parent - 'ml'",
        "User - 'chen':DefaultAccount='(null)':Fairshare=1",
        "User - 'dana':Partition='p2':DefaultAccount='(null)':Fairshare=1",
        "User - 'dana':Partition='p1':DefaultAccount='(null)':Fairshare=1",
    ]
    assert run(partitions, "-i", "modify", "user", "where", "name=chen", "set", "defaultaccount=astro") == (
        1,
        " Can't modify because these users aren't associated with new default account "
        "'astro'...\n  U = chen C = live\n",
        "",
    )  # fmt: skip
    assert run(
        partitions, "-i", "modify", "user", "where", "name=chen", "set", "defaultaccount=ml",
        "maxjobs=3",
    ) == (
        0,
        " Modified users...\n  chen\n Modified user associations...\n"
        "  C = live       A = ml                   U = chen     \n",
        "",
    )  # fmt: skip
    assert partitions.ok("sacctmgr", "show", "user", "-P").stdout == (
        "User|Def Acct|Admin\nchen|ml|None\ndana||None\nroot|root|Administrator\n"
    )


def test_dump_lists_a_users_partitions_newest_first(partitions, tmp_path):
    partitions.ok("sacctmgr", "-i", "add", "user", "dana", "account=astro", "partition=p0")
    path = tmp_path / "x.cfg"
    partitions.ok("sacctmgr", "-i", "dump", "live", f"file={path}")
    text = path.read_text()
    assert (
        "Parent - 'astro'\n"
        "User - 'chen':DefaultAccount='astro':Fairshare=1\n"
        "User - 'dana':Partition='p0':DefaultAccount='astro':Fairshare=1\n"
        "User - 'dana':Partition='p3':DefaultAccount='astro':Fairshare=1\n"
        "Parent - 'ml'\n"
        "User - 'chen':DefaultAccount='astro':Fairshare=1\n"
        "User - 'dana':Partition='p2':DefaultAccount='astro':Fairshare=1\n"
        "User - 'dana':Partition='p1':DefaultAccount='astro':Fairshare=1\n"
    ) in text


def test_create_user_naming_a_new_default_switches_it(live):
    live.ok("sacctmgr", "-i", "add", "account", "bio,chem,phys")
    live.ok("sacctmgr", "-i", "add", "user", "kevin", "account=chem,bio")
    show = ("sacctmgr", "show", "user", "kevin", "-P")
    assert live.ok(*show).stdout == "User|Def Acct|Admin\nkevin|bio|None\n"
    # an association it has already: nothing is added, the default stays
    assert run(live, "-i", "create", "user", "name=kevin", "defaultaccount=chem") == (
        1,
        " Nothing new added.\n",
        "",
    )
    assert live.ok(*show).stdout == "User|Def Acct|Admin\nkevin|bio|None\n"
    assert run(live, "-i", "create", "user", "name=kevin", "defaultaccount=phys") == (
        0,
        " Associations =\n  U = kevin     A = phys       C = live      \n",
        "",
    )
    assert live.ok(*show).stdout == "User|Def Acct|Admin\nkevin|phys|None\n"
    assert defaults(live) == "User|Account|Partition\nkevin|phys|\nroot|root|\n"


FRANKS_CHEM = (
    "  C = live       A = chem                 U = frank     P = nosuchpart\n"
    "  C = live       A = chem                 U = frank     P = high\n"
)
"""frank's associations in chem, as a modify lists them."""


@pytest.fixture
def frank(live) -> Fscli:
    live.ok("sacctmgr", "-i", "add", "account", "hep,chem,cosmo")
    live.ok("sacctmgr", "-i", "add", "user", "frank", "account=chem", "partition=nosuchpart,high")
    return live


def test_a_default_the_user_lacks_is_refused_and_the_other_settings_made(frank):
    """``where ... account=hep`` with ``set defaultaccount=``: -i answers yes to "Did you
    mean DefaultAccounts?", so hep picks users by default account, which adds to name=."""
    assert run(
        frank, "-i", "modify", "user", "where", "name=frank", "account=hep", "set",
        "defaultaccount=hep", "maxwall=2-00:00:00", "MaxTRES=cpu=4",
    ) == (
        1,
        " Can't modify because these users aren't associated with new default account "
        "'hep'...\n  U = frank C = live\n Modified user associations...\n"
        + FRANKS_CHEM,
        "",
    )  # fmt: skip
    listed = frank.ok(
        "sacctmgr", "-nP", "show", "assoc", "user=frank", "format=partition,maxwall,maxtres"
    )
    assert listed.stdout == "nosuchpart|2-00:00:00|cpu=4\nhigh|2-00:00:00|cpu=4\n"


def test_an_unknown_admin_level_beside_a_default_is_not_set(frank):
    frank.ok("sacctmgr", "-i", "add", "user", "frank", "account=cosmo")
    assert run(
        frank, "-i", "modify", "user", "where", "name=frank", "set", "defaultaccount=cosmo",
        "maxsubmitjobs=100", "adminlevel=bogus", "maxjobs=5",
    ) == (
        0,
        " Modified users...\n  frank\n Modified user associations...\n"
        + FRANKS_CHEM
        + "  C = live       A = cosmo                U = frank    \n",
        "",
    )  # fmt: skip
    assert frank.ok("sacctmgr", "-nP", "show", "user", "frank").stdout == "frank|cosmo|None\n"


def test_show_user_reports_the_default_of_the_first_cluster(live):
    """slurmdbd's cluster list: the clusters in the order they were added, or as listed."""
    live.ok("sacctmgr", "-i", "add", "cluster", "hpc2")
    live.ok("sacctmgr", "-i", "add", "account", "astro", "cluster=live")
    live.ok("sacctmgr", "-i", "add", "account", "ml", "cluster=hpc2")
    live.ok("sacctmgr", "-i", "add", "user", "chen", "account=astro", "cluster=live")
    live.ok("sacctmgr", "-i", "add", "user", "chen", "account=ml", "cluster=hpc2")
    shown = {
        where: live.ok("sacctmgr", "show", "user", "-P", *where).stdout.splitlines()[1]
        for where in ((), ("cluster=hpc2",), ("cluster=HPC2,live",))
    }
    assert shown == {
        (): "chen|astro|None",
        ("cluster=hpc2",): "chen|ml|None",
        ("cluster=HPC2,live",): "chen|ml|None",
    }
    listed = live.ok(
        "sacctmgr", "show", "assoc", "onlydefaults", "format=cluster,user,account,partition", "-P"
    )
    assert listed.stdout == (
        "Cluster|User|Account|Partition\n"
        "hpc2|chen|ml|\nlive|chen|astro|\nhpc2|root|root|\nlive|root|root|\n"
    )
