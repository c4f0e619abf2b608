"""``fscli sacctmgr add|delete|show cluster``, as sacctmgr 22.05.8 answered on a live slurmdbd."""

from __future__ import annotations

import pytest

from tests.conftest import Fscli


@pytest.fixture
def two(fscli) -> Fscli:
    """Clusters live and c2; account a1 and user alice on c2 only."""
    for words in (
        ["add", "cluster", "live"],
        ["add", "cluster", "c2"],
        ["add", "account", "a1", "cluster=c2"],
        ["add", "user", "alice", "account=a1", "cluster=c2"],
    ):
        fscli.ok("sacctmgr", "-i", *words)
    return fscli


def answer(fscli: Fscli, *args: str, input: str | None = None) -> tuple[int, str, str]:
    result = fscli("sacctmgr", *args, input=input)
    return result.exit_code, result.stdout, result.stderr


def test_delete_cluster_takes_its_associations_and_keeps_the_records(two):
    assert answer(two, "-i", "delete", "cluster", "c2,nosuch") == (
        0,
        " Deleting clusters...\n  c2\n",
        "",
    )
    assert answer(two, "-P", "show", "user") == (
        0,
        "User|Def Acct|Admin\nalice||None\nroot|root|Administrator\n",
        "",
    )
    assert answer(two, "-P", "show", "account") == (
        0,
        "Account|Descr|Org\na1|a1|a1\nroot|default root account|root\n",
        "",
    )
    listing = answer(two, "-P", "show", "assoc", "format=Cluster,Account,User")
    assert listing == (0, "Cluster|Account|User\nlive|root|\nlive|root|root\n", "")


def test_delete_cluster_that_matches_nothing_or_names_none(two):
    assert answer(two, "-i", "delete", "cluster", "nosuch") == (1, " Nothing deleted\n", "")
    assert answer(two, "delete", "cluster") == (
        1,
        "",
        " No conditions given to remove, not executing.\n",
    )


def test_delete_cluster_asks_and_discards(two):
    assert answer(two, "delete", "cluster", "where", "name=c2", input="n\n") == (
        0,
        " Deleting clusters...\n  c2\n"
        "Would you like to commit changes? (You have 30 seconds to decide)\n"
        "(N/y): \n Changes Discarded\n",
        "",
    )
    assert "c2|" in answer(two, "-P", "show", "cluster")[1]
