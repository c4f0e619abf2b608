"""The report engine: sreport's window rounding, a job's seconds inside the window, and
the rows of each report (tree order with subtree sums; most used first)."""

from __future__ import annotations

from datetime import datetime

from fscli.engine.model import Assoc, Job, Partition
from fscli.engine.report import (
    Window,
    account_by_user,
    job_seconds,
    report_window,
    top_usage,
    user_by_account,
)


def _at(text: str) -> int:
    return int(datetime.fromisoformat(text).timestamp())  # local time: the suite runs in UTC


NOW = _at("2026-11-28T10:17:00")


def test_default_window_is_yesterday_midnight_to_midnight():
    assert report_window(None, None, NOW) == Window(
        _at("2026-11-27T00:00"), _at("2026-11-28T00:00")
    )


def test_window_rounds_as_sreport_does():
    """Seconds >= 30 add a minute, then minutes >= 30 add an hour: 01:29:30 is 02:00."""
    start, end = _at("2026-11-27T01:29:30"), _at("2026-11-27T05:29:29")
    assert report_window(start, end, NOW) == Window(
        _at("2026-11-27T02:00"), _at("2026-11-27T05:00")
    )


def test_window_ends_at_now_and_lasts_an_hour_at_least():
    start = _at("2026-11-28T09:50")
    assert report_window(start, _at("2026-12-01T00:00"), NOW) == Window(
        _at("2026-11-28T10:00"), _at("2026-11-28T11:00")
    )


def test_a_job_counts_its_tres_times_its_run_inside_the_window():
    window = Window(_at("2026-11-27T00:00"), _at("2026-11-28T00:00"))
    jobs = [
        Job(
            1,
            "alice",
            assoc_id=3,
            start=_at("2026-11-26T23:00"),
            end=_at("2026-11-27T01:00"),
            cpus=4,
            tres={"cpu": 4, "gres/gpu": 2},
        ),
        Job(2, "alice", assoc_id=3, start=_at("2026-11-27T23:30"), end=None, cpus=2),  # running
        Job(3, "bob", assoc_id=4, start=None, cpus=8),  # never started
        Job(4, "bob", assoc_id=4, start=_at("2026-11-28T01:00"), end=_at("2026-11-28T02:00")),
    ]
    used = job_seconds(jobs, ("cpu", "gres/gpu"), window, NOW)
    assert used == {3: {"cpu": 4 * 3600 + 2 * 1800, "gres/gpu": 2 * 3600}}


def test_a_running_job_counts_until_its_time_limit_ends_it():
    """slurmctld ends a job at start + its time limit (its partition's MaxTime without
    one): a job stored as running counts no further, whatever --at says."""
    window = Window(_at("2026-11-27T00:00"), _at("2026-11-28T00:00"))
    start = _at("2026-11-27T01:00")
    jobs = [
        Job(1, "alice", assoc_id=3, state="running", start=start, cpus=4, time_limit=120),
        Job(2, "bob", assoc_id=4, state="running", start=start, partitions=("short",)),
        Job(3, "bob", assoc_id=5, state="running", start=start),  # no limit: runs on
    ]
    short = {"short": Partition("short", max_time=30)}
    used = job_seconds(jobs, ("cpu",), window, NOW, short)
    assert used == {3: {"cpu": 4 * 7200}, 4: {"cpu": 1800}, 5: {"cpu": 23 * 3600}}


TREE = [
    Assoc(1, None, "root"),
    Assoc(2, 1, "physics"),
    Assoc(3, 2, "physics", "alice"),
    Assoc(4, 2, "physics", "bob"),
    Assoc(5, 1, "chem"),
    Assoc(6, 5, "chem", "bob"),
    Assoc(7, 5, "chem", "carl"),  # used nothing: no line
    Assoc(8, 2, "physics", "alice", partition="gpu"),
]
OWN = {3: {"cpu": 600}, 8: {"cpu": 60}, 4: {"cpu": 100}, 6: {"cpu": 700}}


def _lines(rows):
    return [(r.account, r.user, r.used["cpu"]) for r in rows]


def test_account_by_user_is_the_tree_with_subtree_sums():
    assert _lines(account_by_user(TREE, OWN)) == [
        ("root", None, 1460),
        ("chem", None, 700),
        ("chem", "bob", 700),
        ("physics", None, 760),
        ("physics", "alice", 660),  # its partition association on the same line
        ("physics", "bob", 100),
    ]


def test_user_by_account_puts_the_most_used_first():
    assert _lines(user_by_account(TREE, OWN, "cpu")) == [
        ("chem", "bob", 700),
        ("physics", "alice", 660),
        ("physics", "bob", 100),
    ]


def test_top_usage_counts_and_groups():
    assert _lines(top_usage(TREE, OWN, "cpu", 2, group=False)) == [
        ("chem", "bob", 700),
        ("physics", "alice", 660),
    ]
    assert _lines(top_usage(TREE, OWN, "cpu", 10, group=True)) == [
        ("chem, physics", "bob", 800),
        ("physics", "alice", 660),
    ]
