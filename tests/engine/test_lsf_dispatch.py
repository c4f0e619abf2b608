"""The dispatch simulation: highest dynamic priority first, queues by PRIORITY."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fscli.engine.lsf.dispatch import simulate_dispatch
from fscli.engine.lsf.share_text import parse_user_shares
from fscli.engine.lsf.shares import LsfQueue, ShareEntry, UserGroup
from fscli.engine.model import Job
from fscli.errors import InvalidValue

SEED = json.loads((Path(__file__).parents[1] / "data" / "lsf" / "seed002_worked.json").read_text())


@pytest.mark.parametrize("slots", [100, 301, 1000])
def test_shares_2000_vs_1000_split_two_to_one(slots):
    case = SEED["split"]
    queue = LsfQueue("normal", 30, parse_user_shares(case["fairshare"]))
    counts = simulate_dispatch([queue], case["users"], slots).counts["normal"]
    user1, user2 = counts["user1"], counts["user2"]
    assert user1 + user2 == slots
    # 2000/(1+k1) against 1000/(1+k2): the split stays within one job of 1 + k1 = 2 (1 + k2).
    assert abs((1 + user1) - case["ratio"] * (1 + user2)) <= case["ratio"]
    assert (user1, user2) == {100: (67, 33), 301: (201, 100), 1000: (667, 333)}[slots]


def test_equal_shares_split_evenly_and_alternate():
    case = SEED["equal"]
    queue = LsfQueue("normal", 30, parse_user_shares(case["fairshare"]))
    result = simulate_dispatch(
        [queue], case["users"], case["slots"], jobs_per_user=case["jobs_per_user"]
    )
    assert result.counts["normal"] == case["expected"]
    assert [u for _, u in result.order[:4]] == ["A", "B", "A", "B"]


def test_history_lowers_a_user_until_the_other_catches_up():
    queue = LsfQueue("normal", 30, parse_user_shares("USER_SHARES[[default, 1000]]"))
    history = [
        Job(id=i, user="A", queue="normal", state="completed", start=0, end=3600, cputime=1800)
        for i in range(100)
    ]
    params = {"ENABLE_HIST_RUN_TIME": "Y"}
    result = simulate_dispatch(
        [queue], ["A", "B"], 20, jobs=history, now=3600, global_params=params
    )
    # A's denominator holds 105 hours of history: B takes every slot of 20.
    assert result.counts["normal"] == {"B": 20}


def test_queues_are_scanned_from_the_highest_priority():
    high = LsfQueue("high", 100, (ShareEntry("a", 1),))
    low = LsfQueue("low", 10)
    result = simulate_dispatch([low, high], ["a", "b"], 5, jobs_per_user=3)
    assert result.order == [("high", "a")] * 3 + [("low", "a"), ("low", "b")]
    assert result.counts == {"high": {"a": 3}, "low": {"a": 1, "b": 1}}
    assert result.shares() == [("high", "a", 3, 0.6), ("low", "a", 1, 0.2), ("low", "b", 1, 0.2)]


def test_stops_when_demand_runs_out():
    queue = LsfQueue("q", shares=(ShareEntry("a", 1),))
    assert simulate_dispatch([queue], ["a", "b"], 10, jobs_per_user=2).counts == {"q": {"a": 2}}


def test_share_tree_dispatch_walks_from_the_top():
    groups = {"lab": UserGroup("lab", ("dan", "eve"), (ShareEntry("dan", 3), ShareEntry("eve", 1)))}
    queue = LsfQueue("q", shares=(ShareEntry("lab", 1, "group"), ShareEntry("zed", 1)))
    counts = simulate_dispatch([queue], ["dan", "eve", "zed"], 40, groups=groups).counts["q"]
    assert counts["zed"] == 20
    assert (counts["dan"], counts["eve"]) == (15, 5)


def test_negative_slots():
    with pytest.raises(InvalidValue, match="invalid slot count -1"):
        simulate_dispatch([LsfQueue("q")], ["a"], -1)
