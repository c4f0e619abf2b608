"""``format=`` fields of ``fscli sacctmgr`` listings, as sacctmgr 22.05.8 printed them live.

Each expected text was printed by the real sacctmgr on a fresh cluster ``live``
(``tests/live/slurm up``) for the same command line.
"""

from __future__ import annotations

import pytest

from tests.conftest import Fscli

ZERO_FIELDS = (
    "Account,Cluster,Partition,Share,Priority,GrpJobs,GrpJobsAccrue,GrpSubmit,GrpTRES,"
    "GrpTRESMins,GrpTRESRunMins,GrpWall,GrpCPUs,GrpMem,GrpNodes,GrpCPUMins,GrpCPURunMins,"
    "MaxJobs,MaxJobsAccrue,MaxSubmit,MaxTRES,MaxTRESPerNode,MaxTRESMins,MaxTRESRunMinsPU,"
    "MaxWall,MaxCPUs,MaxNodes,MaxCPUMins,MaxCPURunMinsPU,QOS,DefaultQOS,ID,LFT,RGT,ParentID,"
    "ParentName,MinPrioThres"
)


def build_live(fscli) -> None:
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")


@pytest.fixture
def live(fscli, template) -> Fscli:
    """The store :func:`build_live` leaves, copied from its template."""
    return template(fscli, build_live)


def test_a_new_cluster_has_roots_user_association(live):
    out = live.ok("sacctmgr", "-P", "show", "assoc", "format=Cluster,Account,User,Share,QOS")
    assert out.stdout == (
        "Cluster|Account|User|Share|QOS\nlive|root||1|normal\nlive|root|root|1|normal\n"
    )
    users = live.ok("sacctmgr", "-P", "show", "user")
    assert users.stdout == "User|Def Acct|Admin\nroot|root|Administrator\n"


def test_association_fields_of_a_user_listed_without_associations(live):
    """sacctmgr prints the zeroed record it never filled: 0, 00:00:00 or nothing."""
    out = live.ok("sacctmgr", "-P", "show", "user", f"format=User,{ZERO_FIELDS}")
    assert out.stdout.splitlines()[1] == (
        "root||||0||0|0|0||||00:00:00|0|0|0|0|0|0|0|0|||||00:00:00|0|0|0|0|||0|0|0|0||0"
    )


def test_a_field_named_twice_is_one_column(live):
    out = live.ok("sacctmgr", "-P", "show", "account", f"format=Account,{ZERO_FIELDS}")
    assert out.stdout.splitlines()[1] == (
        "root|||0||0|0|0||||00:00:00|0|0|0|0|0|0|0|0|||||00:00:00|0|0|0|0|||0|0|0|0||0"
    )
    out = live.ok("sacctmgr", "-P", "show", "user", "format=user,User%5,USER")
    assert out.stdout == "User|User\nroot|root\n"


def test_an_unknown_field_is_named_in_lower_case(live):
    result = live("sacctmgr", "show", "assoc", "format=Account,XyZ%5")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", "Unknown field 'xyz'\n")


def test_add_user_puts_the_default_account_last_and_a_cleared_share_is_none(live):
    live.ok("sacctmgr", "-i", "add", "account", "a,b,c")
    out = live.ok("sacctmgr", "-i", "add", "user", "bob", "account=a,b,c", "defaultaccount=a")
    assert out.stdout == (
        " Adding User(s)\n  bob\n Settings =\n  Default Account = a\n Associations =\n"
        "  U = bob       A = b          C = live      \n"
        "  U = bob       A = c          C = live      \n"
        "  U = bob       A = a          C = live      \n"
        " Non Default Settings\n"
    )
    out = live.ok("sacctmgr", "-i", "add", "user", "alice", "account=c,b", "fairshare=-1")
    assert out.stdout.endswith(" Non Default Settings\n  Fairshare     = NONE\n")
    shares = live.ok("sacctmgr", "-P", "show", "assoc", "user=alice", "format=Account,Share")
    assert shares.stdout == "Account|Share\nb|1\nc|1\n"


def test_numbers_and_times_wider_than_their_column_are_printed_whole(live):
    live.ok(
        "sacctmgr", "-i", "add", "account", "hep", "grpjobs=2000000000", "maxwall=100-00:00:00",
        "MaxTRES=cpu=2000000000",
    )  # fmt: skip
    live.ok("sacctmgr", "-i", "add", "account", "ml", "parent=hep", "maxsubmit=99999999")
    out = live.ok(
        "sacctmgr", "show", "assoc",
        "format=Account,GrpJobs,MaxWall%5,Share%3,MaxTRES%5,LFT%1,MaxSubmit%3",
    ).stdout  # fmt: skip
    assert out == (
        "   Account GrpJobs MaxWa Sha MaxTR L Max \n"
        "---------- ------- ----- --- ----- - --- \n"
        "      root                 1       1     \n"
        "      root                 1       6     \n"
        "       hep 2000000000 100-00:00:00   1 cpu=+ 2     \n"
        "        ml         100-00:00:00   1 cpu=+ 3 99999999 \n"
    )
