"""The pass cache (``fscli.store.pass_cache``): sprio reads the fair-share factors it
holds, and its answer is the same to the byte as without it, whatever is written and
whenever it is asked, across decay passes."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from fscli.store import pass_cache

AT = "2026-05-01T12:00:00"  # a pass boundary: 5-minute passes from the epoch
MOMENTS = [
    "2026-05-01T11:59:59",  # the pass before
    AT,
    "2026-05-01T12:00:01",
    "2026-05-01T12:01:59",
    "2026-05-01T12:02:00",  # a charge
    "2026-05-01T12:02:01",
    "2026-05-01T12:02:59",
    "2026-05-01T12:03:00",  # a job ends
    "2026-05-01T12:03:01",
    "2026-05-01T12:04:59",
    "2026-05-01T12:05:00",  # the next pass
    "2026-05-01T11:59:59",  # back again
]


@pytest.fixture
def queue(science, db_path):
    science.ok("cluster", "modify", "c1", "set", "nodes=4", "cpus=64")
    science.ok("partition", "add", "p1", "nodes=4", "cpus=64")
    science.ok("config", "set", "PriorityWeightFairshare=10000", "PriorityWeightAge=1000")
    science.ok("usage", "add", "user=bob", "account=chem", "raw=7200", "at=2026-05-01T12:02:00")
    science.ok(
        "job", "submit", "user=carol", "partition=p1", "cpus=8", "state=completed",
        "start=2026-05-01T10:00:00", "end=2026-05-01T12:03:00", at=AT,
    )  # fmt: skip
    science.ok(
        "job", "submit", "user=alice", "partition=p1", "cpus=4", "state=running",
        "start=2026-05-01T11:00:00", at=AT,
    )  # fmt: skip
    for user in ("alice", "bob", "carol"):
        science.ok("job", "submit", f"user={user}", "partition=p1", "submit=now-2hours", at=AT)
    return science


def cache_folder(db_path: str) -> Path:
    conn = sqlite3.connect(db_path)
    try:
        return Path(pass_cache.folder(conn))
    finally:
        conn.close()


def computed(monkeypatch) -> list[int]:
    """A list that grows by one each time the fair-share tree is computed."""
    import fscli.engine.cluster_state as state

    calls: list[int] = []
    real = state.fairshare

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(state, "fairshare", counting)
    return calls


def test_warm_answers_as_cold_on_both_sides_of_pass_boundaries(queue, db_path, monkeypatch):
    """Each moment asked right after the one before it (whose answer the cache holds), then
    with no cache: the same bytes, and the cache answers exactly the moments of the same
    pass with no charge, job end or start between the two (either end included)."""
    calls = computed(monkeypatch)
    cached = []
    for moment in MOMENTS:
        before = len(calls)
        warm = queue.ok("sprio", "-l", at=moment).stdout
        cached.append(len(calls) == before)
        shutil.rmtree(cache_folder(db_path))
        cold = queue.ok("sprio", "-l", at=moment).stdout
        assert warm == cold, moment
    assert [m[11:] for m, hit in zip(MOMENTS, cached) if hit] == [
        "12:00:01",
        "12:01:59",
        "12:02:59",
        "12:04:59",
    ]


def test_a_warm_answer_computes_nothing(queue, monkeypatch):
    first = queue.ok("sprio", "-l", at="2026-05-01T12:00:30").stdout
    calls = computed(monkeypatch)
    queue.ok("sprio", "-l", at="2026-05-01T12:01:30")
    assert queue.ok("sprio", "-l", at="2026-05-01T12:00:30").stdout == first
    assert calls == []


def test_every_write_makes_it_stale(queue, db_path, monkeypatch):
    before = queue.ok("sprio", "-l", at=AT).stdout
    queue.ok(
        "usage", "add", "user=alice", "account=physics", "raw=999999", "at=2026-05-01T11:00:00"
    )
    calls = computed(monkeypatch)
    after = queue.ok("sprio", "-l", at=AT).stdout
    assert calls == [1] and after != before
    shutil.rmtree(cache_folder(db_path))
    assert queue.ok("sprio", "-l", at=AT).stdout == after


def test_a_write_by_another_program_makes_it_stale(queue, db_path, monkeypatch):
    """A write straight into the file (no fscli in it) changes the stamp too."""
    queue.ok("sprio", "-l", at=AT)
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE association SET shares_raw = 1000 WHERE account = 'physics'")
    conn.close()
    calls = computed(monkeypatch)
    after = queue.ok("sprio", "-l", at=AT).stdout
    assert calls == [1]
    shutil.rmtree(cache_folder(db_path))
    assert queue.ok("sprio", "-l", at=AT).stdout == after


WRITER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], timeout=30)
for k in range(int(sys.argv[2])):
    with conn:
        conn.execute("UPDATE association SET shares_raw = ? WHERE \\"user\\" = 'bob'", (k + 1,))
"""


def test_concurrent_writers_never_leave_a_stale_answer(queue, db_path):
    """Readers racing writers in other processes: once the writers are done, the answer
    is the one computed without a cache."""
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, db_path, str(n)]) for n in (40, 60)]
    while any(w.poll() is None for w in writers):
        queue.ok("sprio", "-l", at=AT)
    assert [w.returncode for w in writers] == [0, 0]
    warm = queue.ok("sprio", "-l", at=AT).stdout
    shutil.rmtree(cache_folder(db_path))
    assert queue.ok("sprio", "-l", at=AT).stdout == warm


def test_a_table_without_its_triggers_turns_the_cache_off(queue, db_path):
    conn = sqlite3.connect(db_path)
    assert pass_cache.stamp(conn) is not None
    conn.execute('DROP TRIGGER "fscli_stamp_usage_insert"')
    assert pass_cache.stamp(conn) is None
    conn.close()


def test_every_table_has_its_triggers(db_path, fscli):
    fscli.ok("cluster", "add", "c1")
    conn = sqlite3.connect(db_path)
    tables = {
        name
        for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    }
    triggers = {
        tuple(name[len("fscli_stamp_") :].rsplit("_", 1))
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
    }
    conn.close()
    expected = {(t, e) for t in tables - {"fscli_stamp"} for e in ("insert", "update", "delete")}
    assert triggers == expected


def test_entries_others_wrote_are_not_read(tmp_path, monkeypatch):
    cache = pass_cache.PassCache(str(tmp_path / "c"), 7)
    cache.put("x", (1,), 100, (0, 300), [50, 150, 400], {"a": 1})
    assert cache.get("x", (1,), 120) == {"a": 1}
    assert cache.get("x", (1,), 150) is None  # a moment in between
    assert cache.get("x", (1,), 300) is None  # the next pass
    assert cache.get("x", (2,), 100) is None
    assert pass_cache.PassCache(str(tmp_path / "c"), 8).get("x", (1,), 100) is None
    monkeypatch.setattr(pass_cache.os, "getuid", lambda: 12345)
    assert cache.get("x", (1,), 100) is None


def test_the_cache_is_the_users_own_and_nothing_lies_beside_the_store(queue, db_path):
    queue.ok("sprio", at=AT)
    assert sorted(p.name for p in Path(db_path).parent.iterdir() if "passcache" in p.name) == []
    folder = cache_folder(db_path)
    assert folder.is_dir() and folder.is_relative_to(Path.home() / ".cache" / "fscli")
    assert folder.stat().st_mode & 0o077 == 0


def test_a_store_upgraded_from_0013_gets_its_stamp(db_path):
    from sqlalchemy import create_engine

    from fscli.store.db import open_engine, upgrade

    old = create_engine(f"sqlite:///{db_path}")
    upgrade(old, "0013")
    old.dispose()
    conn = sqlite3.connect(db_path)
    assert pass_cache.stamp(conn) is None  # no stamp table yet
    conn.close()
    open_engine(db_path).dispose()  # migrates
    conn = sqlite3.connect(db_path)
    first = pass_cache.stamp(conn)
    conn.execute("INSERT INTO qos (name, priority, usage_factor) VALUES ('fresh', 0, 1.0)")
    assert first is not None and pass_cache.stamp(conn) not in (None, first)
    conn.close()


JOBS = """\
JOBID|USER|ACCOUNT|PARTITION|QOS|STATE|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|CPUS|MIN_MEMORY|TRES_PER_NODE|NICE
900|bob|chem|p1|normal|PENDING|2026-05-01T09:00:00|N/A|1:00:00|1|2|0|N/A|0
"""


def test_a_job_import_quiets_the_triggers_and_stamps_once(queue, db_path, tmp_path):
    """``job import`` writes its rows with the job table's triggers dropped inside its
    transaction: after it the stamp is new and every trigger is back; a refused import
    leaves both as they were."""

    def stamp_and_triggers() -> tuple[int | None, int]:
        conn = sqlite3.connect(db_path)
        try:
            count = conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'job'"
            ).fetchone()[0]
            return pass_cache.stamp(conn), count
        finally:
            conn.close()

    jobs = tmp_path / "jobs.txt"
    jobs.write_text(JOBS)
    first, triggers = stamp_and_triggers()
    assert first is not None and triggers == 3
    before = queue.ok("sprio", "-l", at=AT).stdout
    queue.ok("job", "import", str(jobs), at=AT)
    second, triggers = stamp_and_triggers()
    assert second not in (None, first) and triggers == 3
    assert queue.ok("sprio", "-l", at=AT).stdout != before  # job 900 is listed
    queue.fails("job", "import", str(jobs), at=AT, code=1)  # 900 is taken: refused
    assert stamp_and_triggers() == (second, 3)
    queue.ok("job", "import", "--replace", str(jobs), at=AT)
    third, triggers = stamp_and_triggers()
    assert third not in (None, second) and triggers == 3


def files_and_bytes(*folders: Path) -> dict[str, tuple[int, bytes]]:
    """Every file under ``folders``: its modification time (ns) and content."""
    return {
        str(p): (p.stat().st_mtime_ns, p.read_bytes())
        for folder in folders
        for p in sorted(folder.glob("**/*"))
        if p.is_file()
    }


READS = [
    ["sprio", "-l"],
    ["sprio"],
    ["sshare", "-a", "-P"],
    ["limits", "show", "user=alice", "account=physics", "--effective"],
    ["limits", "check", "user=alice", "cpus=4"],
]


def test_a_read_only_read_writes_nothing_not_even_the_cache(queue, db_path, monkeypatch):
    """``--read-only`` reads leave the store's folder and the cache as they were (no cache
    entry either); the same reads without it write the cache, and read-only reads then
    read that cache (sprio computes no tree) and answer the same bytes."""
    home, store_dir = Path.home(), Path(db_path).parent
    before = files_and_bytes(home, store_dir)
    cold = [queue.ok("--read-only", *words, at=AT).stdout for words in READS]
    assert files_and_bytes(home, store_dir) == before
    assert not (home / ".cache" / "fscli").exists()
    assert [queue.ok(*words, at=AT).stdout for words in READS] == cold
    written = files_and_bytes(home, store_dir)
    assert cache_folder(db_path).is_dir() and written != before
    calls = computed(monkeypatch)
    queue.ok("--read-only", "sprio", "-l", at=AT)
    assert calls == []
    assert [queue.ok("--read-only", *words, at=AT).stdout for words in READS] == cold
    assert files_and_bytes(home, store_dir) == written


def test_a_bulk_apply_makes_it_stale(queue, db_path, tmp_path, monkeypatch):
    """``apply`` of a big tree writes with the triggers quiet (``stamped_once``), and its
    one new stamp still makes every cached answer stale."""
    before = queue.ok("sprio", "-l", at=AT).stdout
    users = "".join(f"  big{u}: {{associations: [bulk]}}\n" for u in range(pass_cache.PAUSE_FROM))
    tree = tmp_path / "tree.yaml"
    tree.write_text(f"cluster:\n  name: c1\naccounts:\n  bulk: {{fairshare: 40}}\nusers:\n{users}")
    queue.ok("apply", str(tree), at=AT)
    calls = computed(monkeypatch)
    after = queue.ok("sprio", "-l", at=AT).stdout
    assert calls == [1] and after != before
    shutil.rmtree(cache_folder(db_path))
    assert queue.ok("sprio", "-l", at=AT).stdout == after
