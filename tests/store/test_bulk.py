"""Bulk inserts write what SQLAlchemy's executemany writes, column defaults included."""

from __future__ import annotations

from sqlalchemy import insert, select

from fscli.store import tables
from fscli.store.bulk import insert_rows, insert_tuples
from fscli.store.db import open_engine


def test_bulk_rows_match_sqlalchemys(tmp_path):
    engine = open_engine(str(tmp_path / "s.db"))
    rows = [{"at": 1, "actor": "me", "action": "add user", "target": f"u{i}"} for i in range(3)]
    keys = ("at", "actor", "action", "target")
    with engine.begin() as conn:
        insert_rows(conn, tables.transaction_log, rows)
        conn.execute(insert(tables.transaction_log), rows)
        insert_tuples(conn, tables.transaction_log, keys, [tuple(r.values()) for r in rows])
        insert_rows(conn, tables.transaction_log, [])  # nothing: not a row of defaults
        insert_tuples(conn, tables.transaction_log, keys, [])
        got = conn.execute(
            select(*[c for c in tables.transaction_log.c if c.name != "id"]).order_by(
                tables.transaction_log.c.id
            )
        ).all()
    engine.dispose()
    assert got[:3] == got[3:6] == got[6:] and len(got) == 9
    assert got[0].detail == ""  # the column's default, filled in as SQLAlchemy does


def test_columns_none_in_every_row_are_left_out_and_stored_as_null(tmp_path):
    """insert_tuples leaves out the columns None in every row (SQLite binds each
    parameter): the rows stored are SQLAlchemy's all the same, a column None in the
    first row only included."""
    engine = open_engine(str(tmp_path / "s.db"))
    keys = ("id", "user", "state", "submit", "queue", "start", "tres", "nice", "cputime")
    rows = [
        (1, "a", "pending", 10, None, None, None, 0, None),
        (2, "b", "running", 10, None, 12, None, -5, None),
    ]
    job = tables.job
    with engine.begin() as conn:
        insert_tuples(conn, job, keys, rows)
        conn.execute(insert(job), [dict(zip(keys, (r[0] + 10, *r[1:]))) for r in rows])
        got = conn.execute(select(job).order_by(job.c.id)).all()
    engine.dispose()
    assert [r[1:] for r in got[:2]] == [r[1:] for r in got[2:]]
    assert [(r.start, r.queue, r.cputime, r.cpus) for r in got[:2]] == [
        (None, None, None, 1),
        (12, None, None, 1),
    ]


def test_a_plain_sqlite3_connection_inserts_what_sqlalchemy_inserts(tmp_path):
    """insert_many on a plain sqlite3 connection (job import's write path) stores the rows
    insert_tuples stores, the columns None in every row left out alike."""
    import sqlite3

    from fscli.store.bulk import insert_many

    path = tmp_path / "s.db"
    engine = open_engine(str(path))
    keys = ("id", "user", "state", "submit", "queue", "start", "tres", "nice", "cputime")
    keys += ("cpus", "nodes", "slots", "site_factor")  # its Python defaults are SQLAlchemy's
    rows = [
        (1, "a", "pending", 10, None, None, None, 0, None, 1, 1, 1, 0),
        (2, "b", "running", 10, None, 12, "cpu=2", -5, None, 4, 2, 1, 0),
    ]
    job = tables.job
    with engine.begin() as conn:
        insert_tuples(conn, job, keys, rows)
    engine.dispose()
    plain = sqlite3.connect(path)
    insert_many(plain, "job", keys, [(r[0] + 10, *r[1:]) for r in rows])
    insert_many(plain, "job", keys, [])  # nothing: not a row of defaults
    plain.commit()
    got = plain.execute("SELECT * FROM job ORDER BY id").fetchall()
    plain.close()
    assert len(got) == 4
    assert [r[1:] for r in got[:2]] == [r[1:] for r in got[2:]]
