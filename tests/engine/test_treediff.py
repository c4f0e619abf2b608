"""The pure tree diff (fscli.engine.treediff): plans from plain TreeSpecs, no database."""

from __future__ import annotations

import pytest

from fscli.engine.model import Partition
from fscli.engine.treediff import diff, referenced, sets_qos
from fscli.engine.treespec import (
    AccountSpec,
    ClusterSpec,
    QosSpec,
    TreeSpec,
    UserAssocSpec,
    UserSpec,
)
from fscli.errors import Conflict, InvalidValue


def tree(**accounts: int) -> TreeSpec:
    """Cluster c1 with top-level accounts (name=fairshare), user alice on the first one."""
    spec = TreeSpec(cluster=ClusterSpec(name="c1"))
    spec.qos["normal"] = QosSpec(name="normal")
    for name, shares in accounts.items():
        spec.accounts[name] = AccountSpec(name=name, shares=shares)
    first = next(iter(accounts))
    spec.users["alice"] = UserSpec(name="alice", associations=[UserAssocSpec(account=first)])
    return spec


def texts(plan) -> list[str]:
    return [c.text() for c in plan.changes]


def test_a_new_cluster_is_added_whole():
    current = TreeSpec(cluster=ClusterSpec(name="c1"))
    plan = diff(current, tree(phys=10), exists=False)
    assert texts(plan) == [
        "+ qos normal: priority=0 usage_factor=1.0",
        "+ cluster c1: fairshare=1",
        "+ account phys: parent=root description=phys organization=phys fairshare=10",
        "+ user alice: default_account=phys admin_level=None",
        "+ assoc alice/phys: fairshare=1",
    ]
    assert not plan.cluster_exists and plan.counts() == {"+": 5, "~": 0, "-": 0}


def test_the_same_tree_plans_nothing():
    assert diff(tree(phys=10), tree(phys=10), exists=True).changes == []


def test_a_change_shows_old_and_new():
    plan = diff(tree(phys=10), tree(phys=20), exists=True)
    assert texts(plan) == ["~ account phys: fairshare: 10 -> 20"]
    assert plan.changes[0].item.shares == 20


def test_what_the_file_leaves_out_is_kept_unless_pruned():
    current = tree(phys=10, chem=5)
    assert diff(current, tree(phys=10), exists=True).changes == []
    plan = diff(tree(phys=10, chem=5), tree(phys=10), exists=True, prune=True)
    assert texts(plan) == ["- account chem"]


def test_clean_removes_everything_then_adds_it_again():
    plan = diff(tree(phys=10), tree(phys=10), exists=True, clean=True)
    assert texts(plan) == [
        "- assoc alice/phys",
        "- user alice",
        "- account phys",
        "+ account phys: parent=root description=phys organization=phys fairshare=10",
        "+ user alice: default_account=phys admin_level=None",
        "+ assoc alice/phys: fairshare=1",
    ]


def test_a_used_qos_must_be_defined_unless_missing_ones_are_created():
    spec = tree(phys=10)
    spec.accounts["phys"].qos = ["high"]
    with pytest.raises(InvalidValue, match="QOS 'high' is used but not defined"):
        diff(tree(phys=10), spec, exists=True)
    spec.users["alice"].associations[0].partition = "gpu"
    plan = diff(tree(phys=10), spec, exists=True, create_missing=True)
    assert spec.qos["high"] == QosSpec(name="high")
    assert spec.partitions["gpu"] == Partition(name="gpu")
    assert "+ qos high: priority=0 usage_factor=1.0" in texts(plan)
    assert referenced(spec) == ({"high"}, {"gpu"})


def test_a_merged_tree_must_stay_consistent():
    """The store's user alice keeps its association with 'chem', which the file moves."""
    current = tree(chem=5)
    spec = tree(phys=10)
    spec.accounts["phys"].parent = "chem"
    spec.users = {}
    current.accounts["chem"].parent = "phys"
    with pytest.raises(Conflict, match="parent cycle"):
        diff(current, spec, exists=True)


def test_sets_qos_tells_which_changes_write_a_qos_list():
    spec = tree(phys=10)
    spec.accounts["phys"].default_qos = "normal"
    [change] = diff(tree(phys=10), spec, exists=True).changes
    assert sets_qos(change)
    [change] = diff(tree(phys=10), tree(phys=3), exists=True).changes
    assert not sets_qos(change)


def test_users_held_as_the_same_objects_are_passed_over_and_the_rest_come_by_name():
    """A re-apply's store read hands back the tree's own user objects where the rows match:
    those are unchanged; the others are compared, and their changes listed by user name
    whatever the order of the users in either tree."""
    spec = tree(phys=10)
    for name in ("zed", "bob", "amy", "cy"):
        spec.users[name] = UserSpec(name=name, associations=[UserAssocSpec(account="phys")])
    current = tree(phys=10)
    current.users = {name: spec.users[name] for name in ("cy", "alice", "zed")}  # shared
    current.users["amy"] = UserSpec(name="amy", associations=[UserAssocSpec(account="phys")])
    current.users["bob"] = UserSpec(
        name="bob", associations=[UserAssocSpec(account="phys", shares=5)]
    )
    assert texts(diff(current, spec, exists=True)) == ["~ assoc bob/phys: fairshare: 5 -> 1"]
    spec.users["zed"].associations[0].shares = 3  # held by both: the same, whatever it says
    spec.users["amy"].admin_level = "Operator"
    assert texts(diff(current, spec, exists=True)) == [
        "~ user amy: admin_level: None -> Operator",
        "~ assoc bob/phys: fairshare: 5 -> 1",
    ]


def test_problems_come_in_the_order_of_the_names():
    spec = tree(phys=10)
    for name, account in (("zed", "nope"), ("bob", "phys"), ("amy", "gone")):
        spec.users[name] = UserSpec(name=name, associations=[UserAssocSpec(account=account)])
    spec.users["bob"].coordinator_of = ["nope"]
    assert [(p.path[1], p.message) for p in spec.problems()] == [
        ("amy", "account 'gone' does not exist"),
        ("bob", "coordinator of account 'nope', which does not exist"),
        ("zed", "account 'nope' does not exist"),
    ]
