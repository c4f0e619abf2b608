"""``fscli sacctmgr add|delete|show cluster``, as sacctmgr 22.05.8 answered on a live slurmdbd."""

from __future__ import annotations

import pytest

from tests.conftest import Fscli


def build_two(fscli) -> None:
    """Clusters live and c2; account a1 and user alice on c2 only."""
    for words in (
        ["add", "cluster", "live"],
        ["add", "cluster", "c2"],
        ["add", "account", "a1", "cluster=c2"],
        ["add", "user", "alice", "account=a1", "cluster=c2"],
    ):
        fscli.ok("sacctmgr", "-i", *words)


@pytest.fixture
def two(fscli, template) -> Fscli:
    """The store :func:`build_two` leaves, copied from its template."""
    return template(fscli, build_two)


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


def test_adding_only_clusters_there_are_says_so_once_each(two):
    assert answer(two, "-i", "add", "cluster", "live,c2") == (
        1,
        " This cluster live already exists.  Not adding.\n"
        " This cluster c2 already exists.  Not adding.\n",
        "",
    )


def test_a_listing_of_an_unknown_cluster_is_empty(two):
    assert answer(two, "-P", "show", "assoc", "cluster=nosuch", "format=Account") == (
        0,
        "Account\n",
        "",
    )
    listing = answer(two, "-P", "show", "assoc", "cluster=c2", "format=Cluster,Account,User")
    assert listing == (0, "Cluster|Account|User\nc2|root|\nc2|root|root\nc2|a1|\nc2|a1|alice\n", "")


def test_an_added_default_qos_outside_the_list_is_taken_as_slurmdbd_takes_it(two):
    """sacctmgr adds it (jobs then need --qos); fscli's own ``account add`` refuses it."""
    two.ok("sacctmgr", "-i", "add", "qos", "high")
    code, out, err = answer(two, "-i", "add", "account", "bio", "defaultqos=high", "cluster=live")
    assert (code, err) == (0, "")
    assert out.endswith(" Settings\n  Parent        = root\n  DefQOS        = high\n")
    listing = answer(two, "-P", "show", "assoc", "account=bio", "format=Account,QOS,DefaultQOS")
    assert listing == (0, "Account|QOS|Def QOS\nbio|normal|high\n", "")
    refused = two("--cluster", "live", "account", "add", "chem", "defaultqos=high")
    assert refused.exit_code == 1 and "not in its QOS list" in refused.stderr


def test_a_deleted_normal_qos_stays_deleted_when_a_cluster_is_added(fscli):
    """slurmdbd makes QOS normal with its database, not with each cluster."""
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")
    fscli.ok("sacctmgr", "-i", "delete", "qos", "normal")
    fscli.ok("sacctmgr", "-i", "add", "cluster", "c2")
    assert answer(fscli, "-P", "show", "qos", "format=Name") == (0, "Name\n", "")
    listing = answer(fscli, "-P", "show", "assoc", "format=Cluster,Account,User,QOS")
    assert listing == (
        0,
        "Cluster|Account|User|QOS\nc2|root||\nc2|root|root|\nlive|root||\nlive|root|root|\n",
        "",
    )


def test_accounts_added_on_two_clusters_are_listed_account_by_account(two):
    out = answer(two, "-i", "add", "account", "phys,chem")
    assert out[0] == 0
    assert (
        " Associations\n  A = phys       C = c2        \n  A = phys       C = live      \n"
        in out[1]
    )
    assert "  A = chem       C = c2        \n  A = chem       C = live      \n" in out[1]
