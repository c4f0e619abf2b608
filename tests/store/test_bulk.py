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
