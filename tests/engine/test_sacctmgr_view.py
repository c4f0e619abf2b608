"""sacctmgr's view of associations: the nested set, inherited values, list order."""

from __future__ import annotations

from fscli.engine.model import Assoc
from fscli.engine.sacctmgr_view import cluster_view, coordinated, hierarchical, tree_depths


def tree() -> list[Assoc]:
    """root -> chem (MaxJobs 5, QOS +high, priority 3) -> ann, bio (QOS -normal)
    -> bob; root's QOS normal; siblings ranked by id, the lowest first."""
    return [
        Assoc(1, None, "root", qos=("normal",)),
        Assoc(2, 1, "chem", priority=3, qos=("+high",), limits={"MaxJobs": 5}),
        Assoc(3, 2, "chem", "ann", limits={"MaxTRESPerJob": {"cpu": 2}}),
        Assoc(4, 2, "bio", qos=("-normal",), limits={"GrpJobs": 9}),
        Assoc(5, 4, "bio", "bob", priority=1),
    ]


def by_id(aid: int) -> int:
    return aid


def test_the_nested_set_numbers_siblings_in_the_order_given():
    views = cluster_view(tree(), "c1", False, by_id)
    assert [(v.assoc.id, v.lft, v.rgt) for v in views] == [
        (1, 1, 10),
        (2, 2, 9),
        (3, 3, 4),
        (4, 5, 8),
        (5, 6, 7),
    ]
    reversed_siblings = cluster_view(tree(), "c1", False, lambda aid: -aid)
    assert {v.assoc.id: (v.lft, v.rgt) for v in reversed_siblings}[4] == (3, 6)


def test_a_child_shows_what_it_inherits_and_own_only_shows_none():
    views = {v.assoc.id: v for v in cluster_view(tree(), "c1", False, by_id)}
    assert views[3].limits == {"MaxJobs": 5, "MaxTRESPerJob": {"cpu": 2}}
    assert views[5].limits == {"MaxJobs": 5}  # GrpJobs is not inherited
    assert [views[i].qos for i in (1, 2, 3, 4, 5)] == [
        ["normal"],
        ["high", "normal"],
        ["high", "normal"],
        ["high"],
        ["high"],
    ]
    assert [views[i].priority for i in (2, 3, 5)] == [3, 3, 1]
    assert [views[i].parent_account for i in (1, 2, 3, 4)] == ["", "root", "", "chem"]
    own = {v.assoc.id: v for v in cluster_view(tree(), "c1", True, by_id)}
    assert (own[3].limits, own[4].qos, own[3].priority) == ({"MaxTRESPerJob": {"cpu": 2}}, [], None)


def test_users_come_before_sub_accounts_and_tree_depths_follow_the_listing():
    views = cluster_view(tree(), "c1", False, lambda aid: -aid)
    assert [(v.account, v.user) for v in views] == [
        ("root", None),
        ("chem", None),
        ("chem", "ann"),
        ("bio", None),
        ("bio", "bob"),
    ]
    assert tree_depths(views) == [0, 1, 2, 2, 3]
    # those whose parent is not listed go to the top, by name (root by its cluster's)
    without_chem = hierarchical([v for v in views if v.assoc.id != 2])
    assert [v.assoc.id for v in without_chem] == [3, 4, 5, 1]
    assert tree_depths(without_chem) == [0, 0, 1, 0]


def test_a_deep_tree_is_numbered_without_recursion():
    chain = [Assoc(1, None, "root")] + [Assoc(i, i - 1, f"a{i}") for i in range(2, 5002)]
    views = cluster_view(chain, "c1", False, by_id)
    assert (views[-1].lft, views[-1].rgt, views[0].rgt) == (5001, 5002, 10002)


def test_a_coordinator_coordinates_the_sub_accounts_too():
    accounts = [a for a in tree() if a.user is None]
    assert coordinated(accounts, {"ann": ["chem"], "bob": ["bio"]}) == {
        "ann": ["bio", "chem"],
        "bob": ["bio"],
    }
