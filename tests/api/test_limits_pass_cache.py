"""``limits check`` and ``limits show --effective`` read the decayed usage GrpTRESMins and
GrpWall count from the pass cache (:mod:`fscli.api.limits_usage`): the same bytes as
computed, whenever asked and whatever was written, and never for a what-if."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.api.test_pass_cache import cache_folder
from tests.backends import BACKEND

AT = "2026-05-01T12:00:00"  # a pass boundary: 5-minute passes from the epoch
TIMES = (
    "11:59:59 12:00:00 12:00:01 12:00:59"  # the pass before, the pass's first second
    " 12:01:00 12:01:01 12:01:59"  # bob's job starts
    " 12:02:00 12:02:01 12:02:59"  # a charge to bob
    " 12:03:00 12:03:01 12:04:59"  # carol's job ends
    " 12:05:00 11:59:59"  # the next pass, and back again
)
MOMENTS = [f"2026-05-01T{time}" for time in TIMES.split()]
CHECKS = {
    "run": ["user=dave", "cpus=1", "time=10"],
    "AssocGrpWallLimit": ["user=alice", "cpus=1", "time=10"],
    "AssocGrpBillingMinutes": ["user=bob", "cpus=1", "time=10"],
    "QOSGrpCPUMinutesLimit": ["user=carol", "qos=slow", "cpus=1", "time=10"],
    "AssocGrpCPURunMinutesLimit": ["user=dave", "cpus=64", "time=5:00:00"],
    "reject": ["user=bob", "qos=nosuch", "cpus=1"],
}
SHOWS = [
    [*who, "--effective", *form]
    for who in (["user=bob"], ["user=carol", "qos=slow"], ["user=alice"])
    for form in ([], ["-P"], ["--json"])
]


def reads() -> list[list[str]]:
    """Every read the cache serves: each kind of verdict, human and JSON, and the Used
    column of GrpTRESMins (assoc and QOS), GrpWall and GrpTRESRunMins in every form."""
    checks = [
        ["limits", "check", *words, *form] for words in CHECKS.values() for form in ([], ["--json"])
    ]
    return checks + [["limits", "show", *words] for words in SHOWS]


def build_usage(fscli) -> None:
    """Physics under GrpWall=30, chem under GrpTRESMins=billing=200, QOS slow under
    GrpTRESMins=cpu=300, root under GrpTRESRunMins=cpu=5000; alice's job runs from 11:00,
    carol's (in slow) ran 10:00-12:03, bob's runs from 12:01, and bob is charged at 12:02."""
    for words in (
        ["cluster", "add", "c1"],
        ["partition", "add", "p1", "nodes=4", "cpus=64"],
        ["config", "set", "PriorityDecayHalfLife=1-0"],
        ["account", "add", "science"],
        ["account", "add", "physics,chem,bio", "parent=science"],
        ["user", "add", "alice", "account=physics"],
        ["user", "add", "bob,carol", "account=chem"],
        ["user", "add", "dave", "account=bio"],
        ["qos", "add", "slow"],
        ["limits", "set", "qos=slow", "GrpTRESMins=cpu=300"],
        ["limits", "set", "cluster=c1", "qos=normal,slow", "GrpTRESRunMins=cpu=5000"],
        ["limits", "set", "account=chem", "GrpTRESMins=billing=200,cpu=100000"],
        ["limits", "set", "account=physics", "GrpWall=30"],
        ["usage", "add", "user=bob", "account=chem", "raw=7200", "at=2026-05-01T12:02:00"],
    ):
        fscli.ok("-Q", *words)
    for words in (
        ["user=carol", "qos=slow", "cpus=8", "state=completed", "start=2026-05-01T10:00:00"],
        ["user=alice", "cpus=4", "state=running", "start=2026-05-01T11:00:00", "time=10:00:00"],
        ["user=bob", "cpus=2", "state=running", "start=2026-05-01T12:01:00", "time=10:00:00"],
    ):
        end = ["end=2026-05-01T12:03:00"] if "state=completed" in words else []
        fscli.ok("-Q", "job", "submit", "partition=p1", *words, *end, at=AT)


@pytest.fixture
def usage(fscli, template):
    return template(fscli, build_usage)


def computed(monkeypatch) -> list[int]:
    """A list that grows by one each time the cluster's usage is decayed for the limits."""
    import fscli.store.limits.state as state

    calls: list[int] = []
    real = state._decayed_minutes
    monkeypatch.setattr(state, "_decayed_minutes", lambda *a: calls.append(1) or real(*a))
    return calls


def answers(fscli, at: str, words: list[list[str]] | None = None, *first: str) -> list[str]:
    return [fscli.ok(*first, *w, at=at).stdout for w in words or reads()]


def test_the_reads_cover_every_verdict_and_counter(usage):
    """What the other tests compare: each verdict of :data:`CHECKS`, and Used counters
    of every kind, at 12:04."""
    at = "2026-05-01T12:04:00"
    for expected, words in CHECKS.items():
        first = usage.ok("limits", "check", *words, at=at).stdout.split(":")[0]
        assert first == (
            "run" if expected == "run" else "reject" if expected == "reject" else "pend"
        )
        if expected not in ("run", "reject"):
            assert f"pend: {expected} " in usage.ok("limits", "check", *words, at=at).stdout
    shown = usage.ok("limits", "show", "user=carol", "qos=slow", "--effective", "-P", at=at)
    assert shown.stdout == (
        "Name|TRES|Value|Level|Source|As|Used\n"
        "GrpTRESMins|cpu|300|job-qos|slow||955\n"
        "GrpTRESMins|billing|200|account|chem||1075\n"
        "GrpTRESRunMins|cpu|5000|root|root||3360\n"
    )
    shown = usage.ok("limits", "show", "user=alice", "--effective", "-P", at=at)
    assert shown.stdout == (
        "Name|TRES|Value|Level|Source|As|Used\n"
        "GrpWall||00:30:00|account|physics||59.07\n"
        "GrpTRESRunMins|cpu|5000|root|root||3360\n"
    )


def test_warm_answers_as_cold_on_both_sides_of_every_moment(usage, db_path, monkeypatch):
    """Each moment asked right after the one before it (whose usage the cache holds), then
    with no cache: the same bytes. The cache serves exactly the moments of the same pass
    with no charge, job start or end between the two (either end included), and every
    read after the first at one moment."""
    calls = computed(monkeypatch)
    cached = []
    for moment in MOMENTS:
        before = len(calls)
        warm = answers(usage, moment)
        assert len(calls) - before <= 1, moment  # the first read computes, if any
        cached.append(len(calls) == before)
        shutil.rmtree(cache_folder(db_path))
        assert answers(usage, moment) == warm, moment
    assert [m[11:] for m, hit in zip(MOMENTS, cached) if hit] == [
        "12:00:01",
        "12:00:59",
        "12:01:59",
        "12:02:59",
        "12:04:59",
    ]


def add_a_charge(fscli, db_path: str) -> None:
    fscli.ok(
        "-Q", "usage", "add", "user=carol", "account=chem", "raw=900000", "at=2026-05-01T09:00:00"
    )


def grow_a_finished_job(fscli, db_path: str) -> None:
    """Straight in the file, no fscli in it."""
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE job SET cpus = 40 WHERE \"user\" = 'carol'")
    conn.close()


@pytest.mark.parametrize("write", [add_a_charge, grow_a_finished_job])
def test_a_write_makes_it_stale(usage, db_path, monkeypatch, write):
    """A write by fscli or by another program, to what only the decayed usage tells."""
    before = answers(usage, AT)
    write(usage, db_path)
    calls = computed(monkeypatch)
    after = answers(usage, AT)
    assert calls == [1] and after != before
    shutil.rmtree(cache_folder(db_path))
    assert answers(usage, AT) == after


def test_a_read_only_read_writes_no_entry_but_reads_one(usage, db_path, monkeypatch):
    cold = answers(usage, AT, None, "--read-only")
    assert not (Path.home() / ".cache" / "fscli").exists()
    assert answers(usage, AT) == cold
    entries = sorted(p.name for p in cache_folder(db_path).iterdir())
    assert entries == ["limits-usage-1"]
    calls = computed(monkeypatch)
    assert answers(usage, "2026-05-01T12:00:30", None, "--read-only") == answers(
        usage, "2026-05-01T12:00:30"
    )
    assert calls == []


WHATIFS = [
    [
        "limits",
        "check",
        *CHECKS["AssocGrpBillingMinutes"],
        "--with",
        "account=chem GrpTRESMins=billing=2000",
    ],
    [
        "limits",
        "check",
        *CHECKS["AssocGrpBillingMinutes"],
        "--with-config",
        "PriorityDecayHalfLife=0",
        "--as-if-always",
        "--json",
    ],
    ["limits", "show", "user=bob", "--effective", "-P", "--with", "account=chem GrpWall=5"],
    ["limits", "show", "user=bob", "--effective", "--with-config", "PriorityDecayHalfLife=0"],
]


def test_a_what_if_neither_reads_nor_writes_the_real_entry(usage, db_path, monkeypatch):
    """With an entry for the moment in place, each what-if decays the usage itself, leaves
    the entry as it was, and answers as with no cache at all, where it writes none."""
    moment = "2026-05-01T12:00:30"
    usage.ok("limits", "check", *CHECKS["run"], at=moment)
    entry = cache_folder(db_path) / "limits-usage-1"
    kept = (entry.stat().st_mtime_ns, entry.read_bytes())
    calls = computed(monkeypatch)
    warm = answers(usage, moment, WHATIFS)
    assert calls == [1] * len(WHATIFS)
    assert (entry.stat().st_mtime_ns, entry.read_bytes()) == kept
    shutil.rmtree(cache_folder(db_path))
    checks = answers(usage, moment, WHATIFS[:2])
    assert not cache_folder(db_path).exists()  # (``show --with`` shows the store too)
    assert checks + answers(usage, moment, WHATIFS[2:]) == warm
    assert (
        warm[0].startswith("run: ")
        and '"current": 960,' in warm[1]
        and "\nGrpWall|||00:05:00|account|chem|||116.46\n" in warm[2]
    )


def test_a_database_server_keeps_no_entry(usage, monkeypatch):
    """On PostgreSQL and MariaDB (no stamp) every read computes, as before the cache; on an
    SQLite file the second read of a moment computes nothing."""
    calls = computed(monkeypatch)
    first = answers(usage, AT, [["limits", "check", *CHECKS["run"]]])
    assert answers(usage, AT, [["limits", "check", *CHECKS["run"]]]) == first
    assert len(calls) == (1 if BACKEND == "sqlite" else 2)
    cache = Path.home() / ".cache" / "fscli" / "passcache"
    assert cache.exists() == (BACKEND == "sqlite")


def test_a_scheduling_pass_decays_once_for_every_user(usage, db_path, monkeypatch):
    """``job list`` checks four users' jobs on one decay of the cluster; ``job why`` then
    reads it from the cache; both answer as with no cache."""
    for user in ("alice", "bob", "carol", "dave"):
        usage.ok(
            "-Q", "job", "submit", f"user={user}", "partition=p1", "cpus=1", "time=10",
            "submit=now-1hour", at=AT,
        )  # fmt: skip
    words = [["job", "list", "state=pending"], ["job", "why", "5"]]
    moment = "2026-05-01T12:04:00"
    calls = computed(monkeypatch)
    warm = answers(usage, moment, words)
    assert calls == [1]
    shutil.rmtree(cache_folder(db_path))
    assert answers(usage, moment, words) == warm
    assert calls == [1, 1]
    reasons = [line.split()[-1] for line in warm[0].splitlines()[1:]]
    assert reasons == [
        "AssocGrpWallLimit",
        "AssocGrpBillingMinutes",
        "AssocGrpBillingMinutes",
        "None",
    ]
    assert "1075.65 in use" in warm[1]
