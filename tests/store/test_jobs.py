"""Job writes: a job named twice in one command changes (and is logged) once."""

from __future__ import annotations

import sqlite3

AT = "2026-05-01T00:00:00"


def _store(fscli):
    fscli.ok("cluster", "add", "c1")
    fscli.ok("account", "add", "a")
    fscli.ok("user", "add", "u", "account=a")
    fscli.ok("job", "submit", "user=u", at=AT)


def _history(fscli) -> list[str]:
    rows = fscli.ok("history", "-P", "-n").stdout.splitlines()
    return ["|".join(row.split("|")[2:]) for row in rows if "|submit job|" not in row]


def test_a_job_cancelled_twice_in_one_command_is_cancelled_once(fscli):
    _store(fscli)
    done = fscli.ok("job", "cancel", "1", "1,1", at=AT)
    assert done.stderr == "cancelled job 1 (was pending)\n"
    assert [h for h in _history(fscli) if "job" in h] == ["cancel job|1|was pending"]


def test_a_job_modified_twice_in_one_command_is_modified_once(fscli):
    _store(fscli)
    done = fscli.ok("job", "modify", "1,1", "priority=5", at=AT)
    assert done.stderr == "modified job 1: priority=5\n"
    assert [h for h in _history(fscli) if "job" in h] == ["modify job|1|priority=5"]


def test_no_new_job_id_past_the_largest_is_a_clear_error(fscli):
    """After job 2**63-1 there is no id to hand out: an error saying so, no overflow."""
    _store(fscli)
    fscli.ok("job", "submit", "user=u", "id=9223372036854775807", at=AT)
    failed = fscli.fails("job", "submit", "user=u", at=AT, code=1)
    assert failed.stderr == (
        "fscli: error: no new job id left after job 9223372036854775807 "
        "(job ids go up to 9223372036854775807): choose free ones with id=\n"
    )
    fscli.ok("job", "submit", "user=u", "id=5", at=AT)  # a free id is still taken
    listed = fscli.ok("job", "list", "-P", "-n").stdout.splitlines()
    assert [row.split("|")[0] for row in listed] == ["1", "5", "9223372036854775807"]


def test_cancel_and_modify_read_more_ids_than_one_statement_binds(fscli, db_path):
    """A mass cancel names more ids than a server binds in one statement (PostgreSQL:
    65,535); here SQLite is held to 1,000 bound values, and 1,200 jobs still change."""
    from sqlalchemy import event, func, select
    from sqlalchemy.orm import Session

    from fscli.store import models as m
    from fscli.store.admin import Admin
    from fscli.store.db import create_engine_for, resolve_url
    from fscli.store.jobs import Jobs

    _store(fscli)
    fscli.ok("-Q", "job", "submit", "user=u", "count=1199", at=AT)
    engine = create_engine_for(resolve_url(db_path))
    event.listen(
        engine, "connect", lambda conn, _: conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 1000)
    )
    ids = list(range(1, 1201))
    try:
        with Session(engine) as session, session.begin():
            jobs = Jobs(Admin(session, 0, "tester"), None)
            assert len(jobs.modify(ids, {"nice": 7})) == 1200
            assert len(jobs.cancel(ids)) == 1200
        with engine.connect() as conn:
            assert conn.execute(
                select(m.Job.state, m.Job.nice, func.count()).group_by(m.Job.state, m.Job.nice)
            ).all() == [("cancelled", 7, 1200)]
    finally:
        engine.dispose()


def test_an_import_stores_each_job_as_one_job_imported_alone(fscli, db_path):
    """An import makes the TRES text and the checked partition list of a kind of job once:
    each row is still the one that job gets imported on its own."""
    from fscli.api import open_store
    from fscli.engine.submit import JobInput

    fscli.ok("cluster", "add", "c1")
    fscli.ok("partition", "add", "p1")
    fscli.ok("partition", "add", "p2")
    fscli.ok("account", "add", "a")
    fscli.ok("user", "add", "u", "account=a")
    kinds = [
        {"tres": {"mem": 4096, "gres/gpu": 2}},
        {"tres": {"gres/gpu": 2, "mem": 4096}},
        {"tres": {"mem": 2048}},
        {},
    ]
    parts = [("p1",), ("p2", "p1"), ("p1", "p2"), ("p2",)]
    jobs = [
        JobInput(user="u", partitions=parts[i // 4], job_id=i + 1, **kinds[i % 4])
        for i in range(16)
    ]

    def rows() -> list[tuple]:
        with sqlite3.connect(db_path) as conn:
            return conn.execute("SELECT * FROM job ORDER BY id").fetchall()

    with open_store(db_path) as store:
        with store.transaction(at=AT) as tx:
            tx.import_jobs(jobs)
        together = rows()
        with store.transaction(at=AT) as tx:
            tx.cancel_jobs([j.job_id for j in jobs])
        for job in jobs:
            with store.transaction(at=AT) as tx:
                tx.import_jobs([job], replace=True)
    assert rows() == together
    assert {r[16] for r in together} == {"mem=4096,gres/gpu=2", "mem=2048", None}


def test_the_lookup_finds_each_association_s_qos_rules_up_its_chain(fscli, db_path):
    """The QOS list and default QOS a job's association is held to: each the first one set
    on the way up (an association that sets neither takes its parent's pair as it is)."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from fscli.engine import qoslist
    from fscli.engine.submit import JobInput
    from fscli.engine.tree import ancestors
    from fscli.store import tables
    from fscli.store.db import open_engine
    from fscli.store.job_rows import _Lookup
    from fscli.store.snapshot import load_assocs

    fscli.ok("cluster", "add", "c1")
    for name in ("high", "low"):  # normal comes with the store
        fscli.ok("qos", "add", name)
    fscli.ok("account", "add", "a", "qos=normal,high", "defaultqos=high")
    fscli.ok("account", "add", "b", "parent=a")
    fscli.ok("account", "add", "c", "parent=b", "qos=low,high")
    fscli.ok("account", "add", "d")
    users = [
        ("u0", "a", ()),
        ("u1", "b", ("qos=high",)),
        ("u2", "c", ("defaultqos=low",)),
        ("u3", "d", ("qos-=high",)),
        ("u4", "b", ("qos+=low",)),
        ("u5", "c", ()),
        ("u6", "a", ("defaultqos=normal",)),
    ]
    for user, account, settings in users:
        fscli.ok("user", "add", user, f"account={account}", *settings)
    engine = open_engine(db_path)
    with Session(engine) as s:
        jobs = [JobInput(user=u, account=a) for u, a, _ in users]
        lookup = _Lookup(s, 1, jobs)
        assocs = load_assocs(s.connection(), 1)
        every = list(s.scalars(select(tables.qos.c.name)))
    engine.dispose()
    by_id = {a.id: a for a in assocs}
    lists = qoslist.effective_all(assocs, every)
    for assoc in (a for a in assocs if a.user):
        default = next((a.default_qos for a in ancestors(assoc.id, by_id) if a.default_qos), None)
        assert lookup.qos_rules(assoc.id) == (lists[assoc.id], default), assoc


def test_replace_deletes_exactly_the_ids_imported_again(fscli, db_path):
    """--replace deletes runs of consecutive ids as ranges and the others by id: the
    jobs the file does not name stay, each named one is stored once, as imported."""
    from fscli.api import open_store
    from fscli.engine.submit import JobInput
    from fscli.store.job_rows import RUN, _runs

    assert _runs([1, 2, 3, 5, *range(10, 10 + RUN), 200]) == (
        [(10, 9 + RUN)],
        [1, 2, 3, 5, 200],
    )
    assert _runs([]) == ([], [])
    fscli.ok("cluster", "add", "c1")
    fscli.ok("account", "add", "a")
    fscli.ok("user", "add", "u", "account=a")
    stored = [*range(1, 2 * RUN), 300, 302, *range(400, 400 + RUN)]
    again = [*range(5, 5 + RUN), 300, *range(400, 400 + RUN)]  # the runs and a single
    with open_store(db_path) as store:
        with store.transaction(at=AT) as tx:
            tx.import_jobs([JobInput(user="u", job_id=i, nice=1) for i in stored])
        with store.transaction(at=AT) as tx:
            tx.import_jobs([JobInput(user="u", job_id=i, nice=2) for i in again], replace=True)
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT id, nice FROM job ORDER BY id").fetchall()
    assert rows == [(i, 2 if i in again else 1) for i in stored]


def test_an_import_stores_its_jobs_by_id_and_logs_them_in_file_order(fscli, db_path):
    """Jobs go into the table by id (the key's order), whatever the file's order: the
    rows are those of the same jobs in id order, the history keeps the file's order."""
    from fscli.api import open_store
    from fscli.engine.submit import JobInput

    fscli.ok("cluster", "add", "c1")
    fscli.ok("account", "add", "a")
    fscli.ok("user", "add", "u", "account=a")
    order = [7, 3, 9, 1, 5]

    def stored() -> list[tuple]:
        with sqlite3.connect(db_path) as conn:
            return conn.execute("SELECT * FROM job ORDER BY rowid").fetchall()

    with open_store(db_path) as store:
        with store.transaction(at=AT) as tx:
            tx.import_jobs([JobInput(user="u", job_id=i, cpus=i) for i in order])
        shuffled = stored()
        with store.transaction(at=AT) as tx:
            tx.import_jobs([JobInput(user="u", job_id=i, cpus=i) for i in sorted(order)], True)
    assert [row[0] for row in shuffled] == sorted(order)
    assert stored() == shuffled
    logged = [h.split("|")[2:4] for h in fscli.ok("history", "-P", "-n").stdout.splitlines()]
    jobs = [target for action, target in logged if action == "submit job"]
    assert jobs[: len(order)] == [str(i) for i in order]
