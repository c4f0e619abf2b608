"""``sacctmgr modify account`` as real sacctmgr 22.05.8 answered the same calls on a live
slurmdbd (the expected text is its)."""

from __future__ import annotations

import pytest

from tests.conftest import Fscli

ACCOUNT = " Modified account associations...\n  C = live       A = nucl of root\n"
EVERYONE = (
    ACCOUNT + "  C = live       A = nucl                 U = frank    \n"
    "  C = live       A = sub                  U = bob      \n"
)


@pytest.fixture
def nucl(fscli) -> Fscli:
    """nucl (MaxTRES node=2) with frank, and sub below it with bob."""
    fscli.sacctmgr_i(
        "add cluster live",
        "add account nucl MaxTRES=node=2",
        "add account sub parent=nucl",
        "add user frank account=nucl",
        "add user bob account=sub",
    )
    return fscli


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
