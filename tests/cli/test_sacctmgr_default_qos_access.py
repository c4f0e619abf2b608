"""``sacctmgr modify`` refusing a DefaultQOS outside an association's QOS list, as real
sacctmgr 22.05.8 did on a live slurmdbd for the same calls (the expected text is its):
the message on stderr, exit 0, nothing written."""

from __future__ import annotations

import pytest

from tests.conftest import Fscli

REFUSED = (
    " These associations don't have access to their default qos.\n"
    " Please give them access before they the default can be set to this.\n"
)
CHEM = "  DefQOS = low        C = live       A = chem                 \n"
BOB = "  DefQOS = low        C = live       A = chem                 U = bob       P = batch\n"
ALICE = "  DefQOS = low        C = live       A = chem                 U = alice    \n"


def build_chem(fscli) -> None:
    """chem (QOS high,normal) with alice (low,normal, default low) and bob in batch."""
    fscli.sacctmgr_i(
        "add cluster live",
        "add qos low",
        "add qos high",
        "add account chem,bio qos=normal,high",
        "add user alice account=chem qos=normal,low defaultqos=low",
        "add user bob account=chem partition=batch",
    )


@pytest.fixture
def chem(fscli, template) -> Fscli:
    """The store :func:`build_chem` leaves, copied from its template."""
    return template(fscli, build_chem)


def run(fscli: Fscli, line: str, input=None):
    words = line.split() if input else ["-i", *line.split()]
    result = fscli("sacctmgr", *words, input=input)
    return result.exit_code, result.stdout, result.stderr


def listing(fscli: Fscli) -> str:
    return fscli.ok(
        "sacctmgr", "-nP", "show", "assoc", "format=Account,User,Partition,QOS,DefaultQOS"
    ).stdout


BEFORE = (
    "root|||normal|\nroot|root||normal|\nbio|||high,normal|\nchem|||high,normal|\n"
    "chem|alice||low,normal|low\nchem|bob|batch|high,normal|\n"
)


def test_default_given_checked_on_the_accounts_user_associations_too(chem):
    # alice has her own default (low): the check asks whether she may use high
    assert run(chem, "modify account where name=chem set defaultqos=high") == (
        0,
        "",
        REFUSED + ALICE,
    )
    assert run(chem, "modify account where name=chem set defaultqos=low") == (
        0,
        "",
        REFUSED + CHEM + BOB,
    )
    assert listing(chem) == BEFORE


def test_account_part_said_but_not_written(chem):
    assert run(chem, "modify account where name=chem set description=x defaultqos=low") == (
        0,
        " Modified accounts...\n  chem\n",
        REFUSED + CHEM + BOB,
    )
    assert chem.ok("sacctmgr", "-nP", "show", "account", "chem").stdout == "chem|chem|chem\n"


def test_new_qos_list_checked_against_each_own_default(chem):
    assert run(chem, "modify user where name=alice set qos=high") == (0, "", REFUSED + ALICE)
    # no default anywhere up bob's chain: nothing to check
    assert run(chem, "modify account where name=chem set qos=low", input="y\n")[1] == (
        " Modified account associations...\n"
        "  C = live       A = chem of root\n"
        "  C = live       A = chem                 U = bob       P = batch\n"
        "Would you like to commit changes? (You have 30 seconds to decide)\n(N/y): \n"
    )
    assert run(chem, "modify user where name=bob set defaultqos=low maxjobs=3") == (
        0,
        " Modified user associations...\n"
        "  C = live       A = chem                 U = bob       P = batch\n",
        "",
    )
    assert listing(chem).splitlines()[3:] == [
        "chem|||low|",
        "chem|alice||low,normal|low",
        "chem|bob|batch|low|low",
    ]
