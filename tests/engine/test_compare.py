"""Side-by-side ranking of Slurm Fair Tree, Slurm classic and LSF (``fscli compare``)."""

from __future__ import annotations

from fscli.engine.compare import (
    Comparison,
    best_factors,
    compare,
    competition_ranks,
    user_priorities,
)
from fscli.engine.lsf.share_info import share_info
from fscli.engine.lsf.shares import GROUP, LsfQueue, ShareEntry, UserGroup
from fscli.engine.model import Assoc, Job
from tests.engine.adapt import compute

TREE = [
    Assoc(1, None, "root"),
    Assoc(2, 1, "a", shares=1),
    Assoc(3, 1, "b", shares=1),
    Assoc(4, 2, "a", "ann", shares=1),
    Assoc(5, 3, "b", "bob", shares=1),
    Assoc(6, 3, "b", "ann", shares=1),  # ann's second association
]
USAGE = {4: 300.0, 5: 100.0, 6: 100.0}


def test_competition_ranks_share_equal_values():
    assert competition_ranks({"a": 0.5, "b": 0.9, "c": 0.5, "d": 0.1}) == {
        "b": 1,
        "a": 2,
        "c": 2,
        "d": 4,
    }
    assert competition_ranks({"x": (3.0, 1.0), "y": (3.0, 2.0), "z": (1.0,)}) == {
        "y": 1,
        "x": 2,
        "z": 3,
    }


def test_a_user_gets_the_best_factor_of_their_associations():
    result = compute(TREE, USAGE, "fair_tree")
    by_id = {r.assoc_id: r.fairshare for r in result.rows}
    assert best_factors(result) == {"ann": max(by_id[4], by_id[6]), "bob": by_id[5]}
    assert best_factors(result)["ann"] == by_id[6] > by_id[4]


def test_rows_ordered_by_rank_with_lsf_only_users_last():
    fair_tree, classic = compute(TREE, USAGE, "fair_tree"), compute(TREE, USAGE, "classic")
    ft, cl = best_factors(fair_tree), best_factors(classic)
    rows = compare(fair_tree, classic, {"bob": (2.0, 5.0), "cat": (1.0,)})
    assert ft == {"ann": 1.0, "bob": 1.0}  # tied under b: one Fair Tree rank for both
    assert cl["ann"] > cl["bob"]
    assert [r.user for r in rows] == ["ann", "bob", "cat"]
    assert rows[0] == Comparison("ann", 1.0, 1, cl["ann"], 1, None, None)
    assert rows[1] == Comparison("bob", 1.0, 1, cl["bob"], 2, 5.0, 1)
    assert rows[2] == Comparison("cat", None, None, None, None, 1.0, 2)


def test_lsf_users_rank_level_by_level_down_the_share_tree():
    groups = {"lab": UserGroup("lab", ("dan", "eve"), (ShareEntry("dan", 3), ShareEntry("eve", 1)))}
    queue = LsfQueue("q", shares=(ShareEntry("lab", 10, GROUP), ShareEntry("zed", 10)))
    now = 1_700_000_000
    jobs = [
        Job(id=1, user="dan", queue="q", state="running", slots=5, start=now),
        Job(id=2, user="zed", queue="q", state="running", slots=6, start=now),
    ]
    blocks = share_info(queue, jobs, now, groups=groups)
    top = {r.name: r.priority for r in blocks[0].rows}
    lab = {r.name: r.priority for r in blocks[1].rows}
    got = user_priorities(queue, blocks, groups, ["dan", "eve", "zed"])
    assert got == {
        "zed": (top["zed"],),
        "dan": (top["lab"], lab["dan"]),
        "eve": (top["lab"], lab["eve"]),
    }
    # the lab outranks zed at the top, though zed's own priority beats both members'
    assert top["lab"] > top["zed"] > lab["eve"] > lab["dan"]
    assert competition_ranks(got) == {"eve": 1, "dan": 2, "zed": 3}
    rows = compare(compute(TREE, {}, "fair_tree"), compute(TREE, {}, "classic"), got)
    assert [(r.user, r.lsf, r.lsf_rank) for r in rows if r.lsf is not None] == [
        ("eve", lab["eve"], 1),
        ("dan", lab["dan"], 2),
        ("zed", top["zed"], 3),
    ]
