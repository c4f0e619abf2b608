"""The answer cache's API and store sides (``fscli.api.answers``, ``fscli.store.answers``,
``fscli.store.read_states``): the window an sshare answer holds in, and an entry replayed
only for its question, on its store's state, within its window (``now`` injected)."""

from __future__ import annotations

import os
import shutil
import sqlite3
from datetime import datetime, timezone

import pytest

from fscli.api import answers
from fscli.api.pass_state import window_around
from fscli.api.store import Store
from fscli.store import answers as entries
from fscli.store import read_states
from fscli.store.pass_cache import still_valid

PASS = "2026-05-01T12:00:00"  # a pass boundary: 5-minute passes from the epoch


def epoch(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp())


T0 = epoch(PASS)
KEY = (1, "sshare", "-a")


@pytest.fixture(autouse=True)
def _not_listening(monkeypatch):
    """Each test starts, and leaves, the process not recording."""
    monkeypatch.setattr(read_states, "_reads", None)
    monkeypatch.setattr(answers, "_window", None)


@pytest.fixture
def site(science, db_path):
    """In the pass from 12:00: a job starts at 12:01, a charge falls at 12:02, a job ends
    at 12:03 and another reaches its time limit at 12:04 (limits enforced: TRESRunMins)."""
    science.ok("cluster", "modify", "c1", "set", "nodes=4", "cpus=64")
    science.ok("partition", "add", "p1", "nodes=4", "cpus=64")
    science.ok("config", "set", "AccountingStorageEnforce=limits")
    science.ok("usage", "add", "user=bob", "account=chem", "raw=7200", "at=2026-05-01T12:02:00")
    for user, words in (
        ("carol", ("state=completed", "start=2026-05-01T10:00:00", "end=2026-05-01T12:03:00")),
        ("alice", ("state=running", "start=2026-05-01T11:00:00", "time=64")),
        ("bob", ("state=running", "start=2026-05-01T12:01:00", "time=600")),
    ):
        science.ok("job", "submit", f"user={user}", "partition=p1", "cpus=8", *words, at=PASS)
    return science


def noted(db_path: str, at: int) -> tuple | None:
    answers.listen()
    with Store(db_path) as store:
        store.shares(at=at)
    return answers.noted_window()


def test_the_window_is_the_stretch_still_valid_holds_on():
    span, moments = (1000, 300), [1010, 1020, 1020, 1150, 1299]
    for at in range(1000, 1300, 7):
        lo, hi = window_around(at, moments, span)
        assert [t for t in range(900, 1400) if still_valid(t, at, moments, *span)] == list(
            range(lo, hi)
        ), at


@pytest.mark.parametrize(
    ("at", "window"),
    [
        ("12:00:00", ("12:00:00", "12:01:00")),  # to bob's start
        ("12:01:00", ("12:01:00", "12:01:01")),  # a moment: that second alone
        ("12:01:30", ("12:01:01", "12:02:00")),  # to the charge, read of the store at 12:01:30
        ("12:02:30", ("12:02:01", "12:03:00")),  # to carol's end
        ("12:03:59", ("12:03:01", "12:04:00")),  # to alice's time limit
        ("12:04:30", ("12:04:01", "12:05:00")),  # to the next pass
    ],
)
def test_an_sshare_answer_holds_until_the_state_moves(site, db_path, at, window):
    day = "2026-05-01T"
    lo, hi = (epoch(day + w) for w in window)
    assert noted(db_path, epoch(day + at)) == (lo, hi)
    same = site.ok("sshare", "-a", "-l", "-P", at=day + at).stdout
    for inside in (lo, hi - 1):
        assert site.ok("sshare", "-a", "-l", "-P", at=str(inside)).stdout == same


def test_the_answer_changes_where_its_window_ends(site):
    """bob's job starts at 12:01 (TRESRunMins) and the charge falls at 12:02 (RawUsage):
    the answers on either side of each differ, so a window reaching past one would be
    wrong."""
    printed = {
        t: site.ok("sshare", "-a", "-l", "-P", at=f"2026-05-01T{t}").stdout
        for t in ("12:00:59", "12:01:00", "12:01:59", "12:02:00")
    }
    assert printed["12:00:59"] != printed["12:01:00"]
    assert printed["12:01:59"] != printed["12:02:00"]


def record_now(db_path: str, window=(T0, T0 + 60), key=KEY, name="entry") -> bool:
    answers.listen()
    with Store(db_path) as store:
        store.shares(at=T0)
    return answers.record(name, key, b"kept\n", window)


def test_a_kept_answer_is_replayed_in_its_window_only(site, db_path):
    assert record_now(db_path)
    assert answers.replay("entry", KEY, T0 + 0.5) == b"kept\n"
    assert answers.replay("entry", KEY, T0 + 59.99) == b"kept\n"
    assert answers.replay("entry", KEY, T0 + 60) is None
    assert answers.replay("entry", KEY, T0 - 1) is None
    assert answers.replay("entry", (*KEY, "-l"), T0) is None  # another question
    assert answers.replay("other", KEY, T0) is None


def test_an_unbounded_window_holds_at_any_time(site, db_path):
    assert record_now(db_path, window=(None, None))
    assert answers.replay("entry", KEY, 0) == b"kept\n"
    assert answers.replay("entry", KEY, 4e9) == b"kept\n"


def test_a_write_by_fscli_makes_it_stale(site, db_path):
    assert record_now(db_path)
    site.ok("account", "modify", "physics", "set", "description=x")
    assert answers.replay("entry", KEY, T0) is None


def test_a_write_by_another_program_makes_it_stale(site, db_path):
    assert record_now(db_path)
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE account SET description = 'raw' WHERE name = 'physics'")
    conn.close()
    assert answers.replay("entry", KEY, T0) is None


def test_a_store_replaced_at_its_path_is_another_store(site, db_path, tmp_path):
    assert record_now(db_path)
    copy = tmp_path / "copy.db"
    shutil.copyfile(db_path, copy)  # the same data and stamp, another file
    os.replace(copy, db_path)
    assert answers.replay("entry", KEY, T0) is None


def test_reads_of_two_states_keep_nothing(site, db_path):
    answers.listen()
    with Store(db_path) as store:
        store.shares(at=T0)
        site.ok("account", "modify", "physics", "set", "description=x")
        store.shares(at=T0)
    assert not answers.record("entry", KEY, b"kept\n", (None, None))
    assert not os.path.exists(os.path.join(entries.folder(), "entry"))


def test_a_read_through_an_engine_keeps_nothing(site, db_path):
    answers.listen()
    with Store(db_path) as store:
        store.shares(at=T0)
        store.clusters()  # SQLAlchemy's connection: its state is not known
    assert not answers.record("entry", KEY, b"kept\n", (None, None))


def test_nothing_read_keeps_nothing(site):
    answers.listen()
    assert not answers.record("entry", KEY, b"kept\n", (None, None))


def test_entries_others_wrote_or_broken_ones_are_not_read(site, db_path, monkeypatch):
    assert record_now(db_path)
    path = os.path.join(entries.folder(), "entry")
    whole = open(path, "rb").read()
    assert oct(os.stat(entries.folder()).st_mode & 0o777) == "0o700"
    with monkeypatch.context() as patched:
        patched.setattr(os, "getuid", lambda: os.stat(path).st_uid + 1)
        assert answers.replay("entry", KEY, T0) is None
    for broken in (b"", whole[:3], whole[:20], b"\xff" * 40, whole[:4] + b"\x00" * 30):
        with open(path, "wb") as handle:
            handle.write(broken)
        assert answers.replay("entry", KEY, T0) is None, broken
    with open(path, "wb") as handle:
        handle.write(whole)
    assert answers.replay("entry", KEY, T0) == b"kept\n"


def test_only_the_newest_entries_are_kept(site, db_path, monkeypatch):
    monkeypatch.setattr(entries, "KEPT", 3)
    for k in range(5):
        assert record_now(db_path, window=(None, None), key=(*KEY, k), name=f"e{k}")
        os.utime(os.path.join(entries.folder(), f"e{k}"), ns=(k * 10**9, k * 10**9))
    assert sorted(os.listdir(entries.folder())) == ["e2", "e3", "e4"]
    assert answers.replay("e4", (*KEY, 4), T0) == b"kept\n"


@pytest.mark.parametrize(
    ("at", "still", "stale"),
    [
        ("12:04:30", "12:04:59", "12:05:00"),  # the next pass
        ("12:00:30", "12:00:59", "12:01:00"),  # bob's job starts
    ],
)
def test_an_answer_kept_in_its_noted_window_is_stale_as_it_ends(site, db_path, at, still, stale):
    moment, inside, after = (epoch(f"2026-05-01T{t}") for t in (at, still, stale))
    window = noted(db_path, moment)
    assert answers.record("entry", KEY, b"kept\n", window)
    assert answers.replay("entry", KEY, moment) == b"kept\n"
    assert answers.replay("entry", KEY, inside + 0.999) == b"kept\n"
    assert answers.replay("entry", KEY, after) is None


@pytest.fixture
def queue(site):
    """The site with priority weights and two pending jobs: alice's (4), eligible before
    the pass, and bob's (5), eligible at 12:02:30, within it."""
    site.ok("config", "set", "PriorityWeightAge=1000", "PriorityWeightFairshare=10000")
    site.ok("config", "set", "PriorityMaxAge=1-0")
    for user, begin in (("alice", "2026-05-01T11:50:00"), ("bob", "2026-05-01T12:02:30")):
        words = (f"user={user}", "partition=p1", "cpus=4", "submit=2026-05-01T11:40:00")
        site.ok("job", "submit", *words, f"begin={begin}", at=PASS)
    return site


def noted_priorities(db_path: str, at: int) -> tuple | None:
    answers.listen()
    with Store(db_path) as store:
        store.priorities(at=at)
    return answers.noted_window()


@pytest.mark.parametrize(
    ("at", "window"),
    [
        ("12:00:30", ("12:00:00", "12:01:00")),  # to bob's running job's start
        ("12:02:10", ("12:02:01", "12:02:30")),  # from the charge to the job made eligible
        ("12:02:40", ("12:02:31", "12:03:00")),  # to carol's end
        ("12:04:30", ("12:04:01", "12:05:00")),  # to the next pass
    ],
)
def test_an_sprio_answer_holds_until_a_factor_or_the_list_moves(queue, db_path, at, window):
    day = "2026-05-01T"
    lo, hi = (epoch(day + w) for w in window)
    assert noted_priorities(db_path, epoch(day + at)) == (lo, hi)
    # a second read: through the pass cache, the same window
    assert noted_priorities(db_path, epoch(day + at)) == (lo, hi)
    same = queue.ok("sprio", "-l", at=day + at).stdout
    for inside in (lo, hi - 1):
        assert queue.ok("sprio", "-l", at=str(inside)).stdout == same


def test_sprio_changes_where_a_job_becomes_eligible_and_at_a_pass(queue):
    """bob's pending job is listed from 12:02:30 on; the age of alice's steps at 12:05 (the
    controller sets it at each pass), and not in between."""
    printed = {
        t: queue.ok("sprio", "-n", "-o", "%i %a", at=f"2026-05-01T{t}").stdout
        for t in ("12:02:29", "12:02:30", "12:04:59", "12:05:00")
    }
    assert printed["12:02:29"].split()[2:] == ["4", "0.0069444"]  # 10 minutes of 1-0
    assert printed["12:02:30"].split()[2:] == ["4", "0.0069444", "5", "0.0000000"]
    assert printed["12:04:59"] == printed["12:02:30"]
    assert printed["12:05:00"].split()[2:] == ["4", "0.0104167", "5", "0.0017361"]
