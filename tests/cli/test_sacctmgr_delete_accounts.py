"""``sacctmgr delete account`` by association conditions, as real sacctmgr 22.05.8
answered the same calls on a live slurmdbd (the expected text is its)."""

from __future__ import annotations

import pytest

from tests.conftest import Fscli


def build_tree(fscli) -> None:
    """ml (hep (sub), chem) and bio; alice in bio, and in sub and hep on batch; bob in
    bio and hep (default bio for both)."""
    fscli.sacctmgr_i(
        "add cluster live",
        "add account ml,bio",
        "add account hep,chem parent=ml",
        "add account sub parent=hep",
        "add user alice account=bio",
        "add user alice account=sub,hep partition=batch",
        "add user bob account=bio",
        "add user bob account=hep",
    )


@pytest.fixture
def tree(fscli, template) -> Fscli:
    """The store :func:`build_tree` leaves, copied from its template."""
    return template(fscli, build_tree)


def run(fscli: Fscli, *words: str):
    result = fscli("sacctmgr", "-i", "delete", "account", *words)
    return result.exit_code, result.stdout, result.stderr


def test_by_parent_every_association_of_the_subtrees_listed_records_kept(tree):
    assert run(tree, "where", "parent=ml") == (
        0,
        " Deleting account associations...\n"
        "  C = live       A = hep of ml\n"
        "  C = live       A = hep        U = bob      \n"
        "  C = live       A = hep        U = alice     P = batch\n"
        "  C = live       A = sub of hep\n"
        "  C = live       A = sub        U = alice     P = batch\n"
        "  C = live       A = chem of ml\n",
        "",
    )
    # the account records stay: adding hep again makes only its association
    result = tree("sacctmgr", "-i", "add", "account", "hep", "parent=ml")
    assert (
        result.stdout
        == " Associations\n  A = hep        C = live      \n Settings\n  Parent        = ml\n"
    )


def test_by_partition_only_those_user_associations(tree):
    tree.ok("sacctmgr", "-i", "add", "user", "carl", "account=hep", "partition=batch")
    # alice's non-default association goes by first: carl's default one is refused
    assert run(tree, "where", "partition=batch", "name=hep") == (
        1,
        "",
        " Error with request: You can not remove the default account of a user\n"
        "  C = live            A = hep        U = carl     \n"
        " Please either remove the accounts listed above from list and resubmit,\n"
        " or change these users' default accounts to remove the account(s).\n"
        " Changes Discarded\n",
    )


def test_by_partition_alone_a_users_default_may_go(tree):
    tree.ok("sacctmgr", "-i", "delete", "account", "where", "parent=ml")
    tree.ok("sacctmgr", "-i", "add", "account", "hep", "parent=ml")
    tree.ok("sacctmgr", "-i", "add", "user", "bob", "account=hep")
    tree.ok("sacctmgr", "-i", "add", "user", "carl", "account=hep", "partition=batch")
    assert run(tree, "where", "partition=batch") == (
        0,
        " Deleting account associations...\n  C = live       A = hep        U = carl      P = batch\n",
        "",
    )
    assert tree.ok("sacctmgr", "-nP", "show", "user").stdout == (
        "alice|bio|None\nbob|bio|None\ncarl||None\nroot|root|Administrator\n"
    )


def test_by_parent_and_name(tree):
    assert run(tree, "where", "parent=ml", "name=chem") == (
        0,
        " Deleting account associations...\n  C = live       A = chem of ml\n",
        "",
    )
    assert run(tree, "where", "parent=nosuch") == (1, " Nothing deleted\n", "")


def test_default_flag_is_per_association(fscli):
    # slurmdbd flags (is_def) only the associations added with the user's default account
    # named (DefaultAccount=, or a new user's): one added later to the same account is not
    # flagged, so deleting the account walks an unflagged one first and refuses the
    # flagged ones; DefaultAccount= on a later add flags only the new association
    fscli.sacctmgr_i(
        "add cluster live",
        "add account chem",
        "add user erin account=chem partition=batch",
        "add user dana account=chem",
        "add user erin account=chem",
        "add user dana account=chem partition=batch",
    )
    defaults = ("sacctmgr", "-nP", "show", "assoc", "onlydefaults", "format=user,account,partition")
    assert fscli.ok(*defaults).stdout == "dana|chem|\nerin|chem|batch\nroot|root|\n"
    assert run(fscli, "chem") == (
        1,
        "",
        " Error with request: You can not remove the default account of a user\n"
        "  C = live            A = chem       U = dana     \n"
        "  C = live            A = chem       U = erin     \n"
        " Please either remove the accounts listed above from list and resubmit,\n"
        " or change these users' default accounts to remove the account(s).\n"
        " Changes Discarded\n",
    )
    fscli.sacctmgr_i("add user dana account=chem partition=high defaultaccount=chem")
    assert fscli.ok(*defaults).stdout == (
        "dana|chem|high\ndana|chem|\nerin|chem|batch\nroot|root|\n"
    )
