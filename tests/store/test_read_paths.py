"""The views' two read paths: a plain ``sqlite3`` connection (views of an SQLite file)
and a SQLAlchemy connection (servers, write sessions, stores being migrated) read the
same snapshot from the same store, object for object."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from operator import attrgetter
from pathlib import Path

import pytest

from fscli.engine.limits.check import JobRequest, check
from fscli.engine.limits.target import ASSOC, QOS, Target
from fscli.store import lists, snapshot
from fscli.store.db import HEAD, open_engine, open_reader
from fscli.store.limits import state as limit_state
from fscli.store.session import viewing
from fscli.store.state import load_state
from fscli.store.tables import ACTIVE_STATES

AT = 1_798_761_600  # 2027-01-01T00:00:00Z, after every job and charge below


def build_busy(fscli) -> None:
    """The demo cluster (jobs pending, running and done, usage, partitions, QOS, limits)
    and a second cluster with QOS deltas, a partition association, FairShare=parent,
    limits on every level, usage and a job."""
    fscli.ok("-Q", "demo")
    fscli.ok("cluster", "add", "c2")
    fscli.ok("--cluster", "c2", "partition", "add", "gpu", "priorityjobfactor=10")
    fscli.ok("qos", "add", "high", "priority=100", "usagefactor=2", "MaxTRESPerUser=cpu=8")
    c2 = ("-Q", "--cluster", "c2")
    fscli.ok(*c2, "account", "add", "chem", "fairshare=40", "GrpTRES=cpu=128", "qos=normal,high")
    fscli.ok(*c2, "user", "add", "ann", "account=chem", "partition=gpu", "qos-=high", "MaxJobs=3")
    fscli.ok(*c2, "user", "add", "bob", "account=chem", "fairshare=parent", "defaultqos=normal")
    fscli.ok(*c2, "usage", "add", "account=chem", "raw=1000", "at=2026-01-01T00:00:00")
    fscli.ok(*c2, "job", "submit", "user=ann", "cpus=4")


@pytest.fixture
def busy(db_path, fscli, template):
    """:func:`build_busy`'s store, as a file path."""
    template(fscli, build_busy)
    return db_path


def everything(conn) -> dict:
    """Every read the views make, on both clusters."""
    out = {
        "clusters": snapshot.cluster_names(conn),
        "cluster_info": lists.clusters(conn),
        "accounts": lists.accounts(conn),
        "users": lists.users(conn, None),
        "history": lists.changes(conn),
        "qos_names": lists.qos_names(conn),
        "all_jobs": snapshot.load_jobs(conn),
    }
    for name in ("demo", "c2"):
        cid = snapshot.cluster_id_for(conn, name)
        state = load_state(conn, name, AT)
        limits = limit_state.load(
            conn, name, "ann", "chem", [Target(ASSOC, account="root"), Target(QOS, qos=["high"])]
        )
        limit_state.attach_jobs(conn, name, limits, AT)
        checks = [
            check(JobRequest(user, "chem", part, qos, {"cpu": 16}), limits, AT)
            for user, part, qos in (("ann", "gpu", None), ("bob", None, "high"))
        ]
        out[name] = {
            "users": lists.users(conn, cid),
            "state": state,
            "tree": snapshot.load_assocs(conn, cid, settings=False),
            "charges": snapshot.load_charges(conn, cid),
            "queue": snapshot.load_queue(conn, cid, ACTIVE_STATES),
            "pending": snapshot.load_queue(conn, cid),
            "listed": snapshot.load_listed_jobs(conn, name, {}),
            "limits": (limits.assocs, limits.qos, limits.partitions, limits.usage_mins, checks),
            "job_state": snapshot.job_state(conn, 1),
        }
    return out


def test_sqlite3_and_sqlalchemy_read_the_same_snapshot(busy):
    reader = open_reader(busy)
    assert reader is not None
    try:
        plain = everything(reader)
    finally:
        reader.close()
    engine = open_engine(busy)
    try:
        with engine.connect() as conn:
            core = everything(conn)
    finally:
        engine.dispose()
    assert plain == core
    # the store holds what the comparison is meant to cover
    c2 = plain["c2"]["state"]
    assert {a.qos for a in c2.assocs} >= {("-high",), ("high", "normal")}
    assert any(a.partition == "gpu" and a.limits for a in c2.assocs)
    assert plain["demo"]["state"].jobs and len(plain["demo"]["state"].charges)
    assert plain["c2"]["queue"] and plain["c2"]["state"].partitions
    assert set(plain["demo"]["pending"].state) == {"pending"}
    assert [c.verdict for c in plain["c2"]["limits"][-1]] == ["run", "reject"]


def test_the_queue_holds_what_the_jobs_hold(busy):
    """sprio's queue, read as columns (more rows than one batch: the demo's jobs copied
    under new ids, their numbers told apart), holds each of its jobs as ``load_jobs``
    reads them, run times and LSF fields left out."""
    import sqlite3

    with sqlite3.connect(busy) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(job)")]
        copied = ", ".join("id + 10000 * k.k" if c == "id" else f'"{c}"' for c in columns)
        conn.execute(
            f"INSERT INTO job SELECT {copied} FROM job, "
            "(WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 200) "
            "SELECT k FROM n) AS k"
        )
        conn.execute(
            "UPDATE job SET nice = id % 7 - 3, site_factor = 10 + id % 5, "
            "eligible = submit + id % 3, time_limit = 100 + id % 11, "
            "admin_priority = 1000 * NULLIF(id % 4, 0)"
        )
    leave_out = {"start": None, "end": None, "queue": None, "slots": 1, "cputime": None}
    conn = open_reader(busy)
    assert conn is not None
    try:
        cid = snapshot.cluster_id_for(conn, "demo")
        for states in (("pending",), ACTIVE_STATES):
            queue = snapshot.load_queue(conn, cid, states)
            jobs = [
                replace(job, **leave_out)
                for job in snapshot.load_jobs(conn, cid, states)
                if job.queue is None
            ]
            assert len(queue) > 1000
            assert sorted((queue[i] for i in range(len(queue))), key=attrgetter("id")) == jobs
    finally:
        conn.close()


def test_the_fair_share_views_read_the_associations_by_parent(busy):
    """``load_state`` reads each parent's children together (the memory order the tree
    walk wants), where the other views read by id: the same associations."""
    reader = open_reader(busy)
    orders_differ = False
    try:
        for name in ("demo", "c2"):
            by_id = snapshot.load_assocs(reader, snapshot.cluster_id_for(reader, name))
            assert [a.id for a in by_id] == sorted(a.id for a in by_id)
            by_parent = load_state(reader, name, AT).assocs
            assert sorted(by_parent, key=attrgetter("id")) == by_id
            keys = [(a.parent_id or 0, a.id) for a in by_parent]
            assert keys == sorted(keys)
            orders_differ |= by_parent != by_id
    finally:
        reader.close()
    assert orders_differ  # the store holds what the test is meant to cover


def test_associations_without_settings_are_the_same_tree(busy):
    """sprio's associations (no limits, QOS list or default QOS) are the full ones with
    those left out."""
    from dataclasses import replace

    reader = open_reader(busy)
    assert reader is not None
    try:
        for name in ("demo", "c2"):
            cid = snapshot.cluster_id_for(reader, name)
            full = snapshot.load_assocs(reader, cid)
            assert any(a.qos or a.limits or a.default_qos for a in full)
            blank = [replace(a, qos=(), default_qos=None, limits={}) for a in full]
            assert snapshot.load_assocs(reader, cid, settings=False) == blank
    finally:
        reader.close()


def test_the_reader_refuses_writes(busy):
    import sqlite3

    reader = open_reader(busy)
    try:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            reader.execute("DELETE FROM job")
    finally:
        reader.close()


def test_an_older_store_is_left_to_the_engine_which_migrates_it(db_path, fscli):
    """A store below HEAD gets no plain reader; a view migrates it as before (backup
    first), and reads it plainly from then on."""
    from fscli.store.db import create_engine_for, resolve_url, upgrade

    engine = create_engine_for(resolve_url(db_path))
    upgrade(engine, "0004")
    engine.dispose()
    assert open_reader(db_path) is None
    err = fscli.fails("sshare", code=1).stderr
    assert err.startswith("fscli: error: the store holds no cluster yet")
    assert Path(f"{db_path}.bak-0004").exists()
    reader = open_reader(db_path)
    assert reader is not None
    reader.close()


def test_a_newer_store_is_refused_with_the_engines_message(busy, fscli):
    import sqlite3

    with sqlite3.connect(busy) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    err = fscli.fails("--cluster", "c2", "sshare", code=1).stderr
    assert err == (
        f"fscli: error: store {busy} has schema version 9999, newer than this fscli knows "
        f"({HEAD}); upgrade fscli to use it\n"
    )


def test_a_read_only_view_of_an_older_store_asks_for_an_upgrade(busy, fscli):
    import sqlite3

    with sqlite3.connect(busy) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0004'")
    err = fscli.fails("--read-only", "--cluster", "c2", "sshare", code=1).stderr
    assert err == (
        f"fscli: error: store {busy} is at schema 0004; run 'fscli db upgrade' "
        "(not in read-only mode)\n"
    )


def test_views_of_a_current_sqlite_store_import_neither_sqlalchemy_nor_alembic(busy):
    """What the views are fast for: SQLAlchemy's import alone costs more than a view of a
    small store may take."""
    code = (
        "import sys\n"
        "from fscli.cli.main import main\n"
        "for words in (['sshare', '-a', '-P'], ['sprio'], ['assoc', 'list', '-P'],\n"
        "              ['limits', 'check', 'user=ann', 'cpus=2'],\n"
        "              ['limits', 'show', 'user=bob', 'account=chem', '--effective']):\n"
        "    try:\n"
        f"        main(['--db', {busy!r}, '--cluster', 'c2', '--at', '{AT}', *words])\n"
        "    except SystemExit as exc:\n"
        "        assert not exc.code, (words, exc.code)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_view_of_a_server_or_missing_store_goes_through_the_engine(tmp_path):
    from fscli.errors import StoreError

    assert open_reader("postgresql+psycopg://u@127.0.0.1:1/x") is None
    missing = tmp_path / "missing.db"
    assert open_reader(str(missing)) is None
    with pytest.raises(StoreError, match="a command that only reads does not create one"):
        with viewing(str(missing), lambda: open_engine(str(missing), create=False)):
            pass
    assert not missing.exists()
