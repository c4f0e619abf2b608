"""``fscli compare``: the same users ranked under Slurm Fair Tree, classic and an LSF queue."""

from __future__ import annotations

import json

AT = "2026-05-01T01:00:00"


def build(science):
    science.ok(
        "lsf", "queue", "add", "normal", "fairshare=USER_SHARES[[carol, 3000] [default, 1000]]"
    )
    science.ok(
        "usage", "add", "user=alice", "account=physics", "raw=36000", "at=2026-05-01T00:00:00"
    )
    science.ok("usage", "add", "user=bob", "account=chem", "raw=7200", "at=2026-05-01T00:00:00")
    science.ok(
        "job",
        "submit",
        "user=carol",
        "queue=normal",
        "state=running",
        "slots=4",
        "submit=2026-05-01T00:00:00",
        "start=2026-05-01T00:00:00",
    )
    return science


def test_compare_side_by_side(science):
    out = build(science).ok("compare", "-P", at=AT).stdout
    # LSF: carol 3000 / ((1+4)*3 + 1 h * 0.7) = 191.083; bob's 7200 s of usage decayed one hour
    # by HIST_HOURS=5: 1000 / (7200 * 0.1**0.2 / 3600 * 0.7 + 3) = 257.510
    assert out.splitlines() == [
        "User|FairTree|FairTreeRank|Classic|ClassicRank|LSF:normal|LSFRank",
        "carol|1.000000|1|0.353553|2|191.082803|2",
        "bob|0.666667|2|0.222725|3|257.510269|1",
        "alice|0.333333|3|0.412430|1|134.830829|3",
    ]
    doc = json.loads(science.ok("compare", "--json", "--queue", "normal", at=AT).stdout)
    assert doc["meta"]["queue"] == "normal"
    assert doc["users"][1]["User"] == "bob" and doc["users"][1]["LSFRank"] == 1


def test_compare_share_tree_and_users_without_shares(science):
    science.ok("lsf", "group", "add", "labs", "members=alice,bob", "shares=[alice, 1] [bob, 1]")
    science.ok("lsf", "queue", "add", "tree", "priority=40", "fairshare=USER_SHARES[[labs, 1]]")
    out = science.ok("compare", "-P", "-n", at=AT).stdout
    # no usage: every Slurm factor is 1; carol holds no share in the queue: no LSF rank
    assert out.splitlines() == [
        "alice|1.000000|1|1.000000|1|0.333333|1",
        "bob|1.000000|1|1.000000|1|0.333333|1",
        "carol|1.000000|1|1.000000|1||",
    ]


def test_compare_errors(science):
    assert "no LSF fairshare queue" in science.fails("compare", code=1).stderr
    science.ok("lsf", "queue", "add", "normal", "fairshare=USER_SHARES[[default, 1]]")
    assert "LSF queue 'nope' does not exist" in science.fails("compare", "--queue", "nope").stderr
