"""``sacctmgr modify account`` as real sacctmgr 22.05.8 answered the same calls on a live
slurmdbd (the expected text is its)."""

from __future__ import annotations

import pytest

from tests.backends import BACKEND
from tests.conftest import Fscli

ACCOUNT = " Modified account associations...\n  C = live       A = nucl of root\n"
EVERYONE = (
    ACCOUNT + "  C = live       A = nucl                 U = frank    \n"
    "  C = live       A = sub                  U = bob      \n"
)


def build_nucl(fscli) -> None:
    """nucl (MaxTRES node=2) with frank, and sub below it with bob."""
    fscli.sacctmgr_i(
        "add cluster live",
        "add account nucl MaxTRES=node=2",
        "add account sub parent=nucl",
        "add user frank account=nucl",
        "add user bob account=sub",
    )


@pytest.fixture
def nucl(fscli, template) -> Fscli:
    """The store :func:`build_nucl` leaves, copied from its template."""
    return template(fscli, build_nucl)


def modify(fscli: Fscli, *sets: str):
    result = fscli("sacctmgr", "-i", "modify", "account", "where", "name=nucl", "set", *sets)
    return result.exit_code, result.stdout, result.stderr


def test_a_max_tres_limit_reaches_below_only_when_it_changes_the_accounts_own(nucl):
    assert modify(nucl, "MaxTRES=node=2") == (0, ACCOUNT, "")
    assert modify(nucl, "MaxTRES=node=2,cpu=4") == (0, EVERYONE, "")
    assert modify(nucl, "MaxTRES=node=-1") == (0, EVERYONE, "")
    assert modify(nucl, "MaxTRES=node=-1") == (0, ACCOUNT, "")
    assert modify(nucl, "MaxTRESPerNode=cpu=2", "maxjobs=4") == (0, EVERYONE, "")
    assert modify(nucl, "MaxTRESPerNode=cpu=2") == (0, ACCOUNT, "")
    assert modify(nucl, "MaxTRES=mem=2G") == (0, EVERYONE, "")
    assert modify(nucl, "MaxTRES=mem=2048M") == (0, ACCOUNT, "")
    assert nucl.ok(
        "sacctmgr", "-nP", "show", "assoc", "format=Account,User,MaxTRES,MaxTRESPerNode"
    ).stdout == (
        "root|||\nroot|root||\nnucl||cpu=4,mem=2G|cpu=2\nnucl|frank|cpu=4,mem=2G|cpu=2\n"
        "sub||cpu=4,mem=2G|cpu=2\nsub|bob|cpu=4,mem=2G|cpu=2\n"
    )


@pytest.mark.skipif(
    BACKEND != "sqlite",
    reason="slurmdbd's ids follow a fresh database (as in the transactions tests)",
)
def test_a_tres_change_that_changes_nothing_writes_no_transaction(fscli):
    fscli.sacctmgr_i(
        "add cluster live",
        "add account bio",
        "add user alice account=bio",
        "modify user where name=alice set GrpTRESMins=cpu=-1 GrpTRES=cpu=-1",
        "modify user where name=alice set GrpTRES=cpu=4",
        "modify user where name=alice set GrpTRES=cpu=4",
        "modify account where name=bio set MaxTRES=cpu=-1",
        "modify account where name=bio set maxjobs=3",
    )
    assert fscli.ok("sacctmgr", "-nP", "list", "transactions", "format=Action,Where").stdout == (
        "Add Clusters|live\nAdd Associations|id_assoc=2\nAdd Accounts|bio\n"
        "Add Associations|id_assoc=3\nAdd Users|alice\nAdd Associations|id_assoc=4\n"
        "Modify Associations|(id_assoc=4)\nModify Associations|(id_assoc=3)\n"
    )


def test_two_words_for_one_tres_limit_are_merged(fscli):
    fscli.sacctmgr_i("add cluster live", "add account hep")
    result = fscli(
        "sacctmgr", "-i", "add", "account", "phys", "parent=hep", "MaxTRES=node=2",
        "MaxTRES=cpu=8,mem=16G", "grpjobs=40",
    )  # fmt: skip
    assert result.stdout.endswith(
        " Settings\n  GrpJobs       = 40\n  MaxTRES       = cpu=8,mem=16G,node=2\n"
        "  Parent        = hep\n"
    )


def test_an_account_without_associations_listed_withassoc_as_a_zeroed_record(fscli):
    fscli.sacctmgr_i(
        "add cluster live",
        "add account bio maxjobs=3",
        "add user alice account=bio",
        "add account nucl",
        "delete account where parent=root name=nucl",
    )
    assert fscli.ok(
        "sacctmgr", "-n", "-P", "show", "acc", "withassoc",
        "format=Account,ParentName,User,Share,MaxJobs",
    ).stdout == (
        "bio|root||1|3\nbio||alice|1|3\nnucl|||0|0\nroot|||1|\nroot||root|1|\n"
    )  # fmt: skip
