"""Bulk writes quiet the stamp triggers (:func:`fscli.store.pass_cache.stamped_once`):
the stamp still changes once per write, every trigger is back after it, a dry run or a
refused write leaves stamp, triggers and rows as they were, and a rollback in the middle
brings back rows and triggers alike (a SIGKILL in the middle: ``tests/store/test_crash.py``)."""

from __future__ import annotations

import sqlite3

import pytest

from fscli.store import pass_cache
from fscli.store.pass_cache import PAUSE_FROM, stamped_once

USERS = PAUSE_FROM  # two associations each: the writes pause the triggers


def tree(users: int = USERS) -> str:
    lines = ["cluster:", "  name: c1", "accounts:"]
    lines += [f"  a{a}: {{fairshare: {a + 1}}}" for a in range(10)]
    lines.append("users:")
    lines += [f"  u{u}: {{associations: [a{u % 10}, a{(u + 3) % 10}]}}" for u in range(users)]
    return "\n".join(lines) + "\n"


def state(db: str) -> tuple:
    """The stamp (None: a table without its triggers), the triggers' definitions and the
    row counts of the tables a tree writes."""
    conn = sqlite3.connect(db)
    try:
        triggers = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
        ).fetchall()
        counts = [
            conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("account", "user_account", "association", "transaction_log")
        ]
        return pass_cache.stamp(conn), triggers, counts
    finally:
        conn.close()


@pytest.fixture
def files(fscli, db_path, tmp_path):
    """A store holding the tree, and the tree as YAML and as a sacctmgr dump."""
    (tmp_path / "tree.yaml").write_text(tree())
    fscli.ok("cluster", "add", "c1")
    fscli.ok("apply", str(tmp_path / "tree.yaml"))
    fscli.ok("dump", "c1", f"file={tmp_path / 'c1.cfg'}")
    (tmp_path / "more.yaml").write_text(tree(users=2 * USERS))
    (tmp_path / "small.yaml").write_text(tree(users=1))
    return tmp_path


@pytest.mark.parametrize(
    "command",
    [
        ["apply", "{d}/more.yaml"],
        ["apply", "--prune", "{d}/small.yaml"],
        ["load", "{d}/c1.cfg", "clean"],
        ["sacctmgr", "-i", "load", "file={d}/c1.cfg", "clean"],
    ],
)
def test_a_bulk_write_stamps_once_and_keeps_every_trigger(files, fscli, db_path, command):
    stamp, triggers, counts = state(db_path)
    assert stamp is not None
    fscli.ok(*(word.format(d=files) for word in command))
    new_stamp, new_triggers, new_counts = state(db_path)
    assert new_stamp not in (None, stamp)
    assert new_triggers == triggers
    assert new_counts[3] > counts[3]  # the write's history lines


def test_a_usage_import_stamps_once_and_keeps_every_trigger(files, fscli, db_path):
    """sacct's jobs and sshare's RawUsage, a row per user each."""
    sacct = ["JobID|User|Account|AllocCPUS|Start|End|State"]
    sacct += [
        f"{u + 1}|u{u}|a{u % 10}|4|2026-05-01T10:00:00|2026-05-01T11:00:00|COMPLETED"
        for u in range(USERS)
    ]
    sshare = ["Account|User|RawUsage"] + [f"a{u % 10}|u{u}|{u * 60}" for u in range(USERS)]
    for form, lines in (("sacct", sacct), ("sshare", sshare)):
        (files / form).write_text("\n".join(lines) + "\n")
        stamp, triggers, _ = state(db_path)
        fscli.ok("usage", "import", str(files / form), "--format", form, at="2026-05-02")
        new_stamp, new_triggers, _ = state(db_path)
        assert new_stamp not in (None, stamp) and new_triggers == triggers, form
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("SELECT count(*), sum(cpus) FROM job").fetchone() == (USERS, 4 * USERS)
        total = sum(u * 60 for u in range(USERS))
        assert conn.execute("SELECT count(*), sum(amount) FROM usage").fetchone() == (USERS, total)
    finally:
        conn.close()


def test_a_bulk_write_into_an_empty_store_stamps_it(fscli, db_path, tmp_path):
    (tmp_path / "tree.yaml").write_text(tree())
    fscli.ok("cluster", "add", "c1")
    stamp, triggers, _ = state(db_path)
    fscli.ok("apply", str(tmp_path / "tree.yaml"))
    new_stamp, new_triggers, counts = state(db_path)
    assert new_stamp not in (None, stamp) and new_triggers == triggers
    assert counts[:3] == [11, USERS, 10 + 2 * USERS + 1]  # root's account and association


def test_a_dry_run_or_a_refused_write_changes_nothing(files, fscli, db_path):
    before = state(db_path)
    fscli.ok("apply", "--dry-run", str(files / "more.yaml"))  # paused, then rolled back
    assert state(db_path) == before
    (files / "bad.yaml").write_text(tree(users=2 * USERS) + "  u0: {associations: [nowhere]}\n")
    fscli.fails("apply", str(files / "bad.yaml"))
    assert state(db_path) == before


def _writing(db: str) -> sqlite3.Connection:
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    return conn


def test_a_reader_never_sees_a_table_without_its_triggers(files, db_path):
    before = state(db_path)
    conn = _writing(db_path)
    with stamped_once(conn, ("association", "account"), PAUSE_FROM):
        conn.execute("DELETE FROM association WHERE user IS NOT NULL")
        assert state(db_path) == before  # another connection, while the triggers are off
    conn.execute("COMMIT")
    conn.close()
    stamp, triggers, counts = state(db_path)
    assert stamp not in (None, before[0]) and triggers == before[1]
    assert counts[2] == 11


@pytest.mark.parametrize("how", ["an error", "SQLite's own rollback"])
def test_a_rollback_in_the_middle_restores_rows_and_triggers(files, db_path, how):
    """An error leaves the block with the triggers made again, and the caller rolls back;
    where SQLite rolled the transaction back already (a full disk, say), the triggers came
    back with it and none is made twice."""
    before = state(db_path)
    conn = _writing(db_path)
    with pytest.raises(RuntimeError):
        with stamped_once(conn, ("association", "account"), PAUSE_FROM):
            conn.execute("DELETE FROM association")
            conn.execute("DELETE FROM account")
            if how != "an error":
                conn.execute("ROLLBACK")
            raise RuntimeError(how)
    if conn.in_transaction:
        conn.execute("ROLLBACK")
    conn.close()
    assert state(db_path) == before


def test_a_small_write_keeps_its_triggers_on(files, db_path):
    """Below PAUSE_FROM rows the triggers stay: each row sets the stamp itself."""
    before = state(db_path)
    conn = _writing(db_path)
    with stamped_once(conn, ("association",), PAUSE_FROM - 1):
        dropped = conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'association'"
        ).fetchone()[0]
        conn.execute("DELETE FROM association WHERE user = 'u0'")
    conn.execute("COMMIT")
    conn.close()
    assert dropped == 3
    assert state(db_path)[0] not in (None, before[0])
