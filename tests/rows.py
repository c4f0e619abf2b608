"""Every row of every table of a store: what a refused command must leave as it was.

On an SQLite file the rows are read with ``sqlite3`` (SQLAlchemy's reflection of the
schema costs about 0.4 s a call, and the property tests take two snapshots per example);
on a database server with SQLAlchemy. SQLite's own bookkeeping (``sqlite_sequence``) is
left out: a rolled-back transaction restores it anyway.
"""

from __future__ import annotations

import sqlite3

from fscli.store.pass_cache import STAMP_TABLE


def store_rows(db: str) -> dict[str, list[str]]:
    """table -> the ``repr`` of its rows, sorted (any order of rows compares equal); the
    pass cache's stamp aside (``fscli.store.pass_cache``: set anew by any statement that
    writes, one that leaves every value as it was too)."""
    from fscli.store.db import resolve_url

    store = resolve_url(db)
    return _sqlite_rows(store.file) if store.file else _server_rows(store.url)


def _sqlite_rows(path: str) -> dict[str, list[str]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
            if name != STAMP_TABLE
        ]
        return {
            name: sorted(repr(row) for row in conn.execute(f'SELECT * FROM "{name}"'))
            for name in sorted(names)
        }
    finally:
        conn.close()


def _server_rows(url: str) -> dict[str, list[str]]:
    from sqlalchemy import MetaData, create_engine, select
    from sqlalchemy.pool import NullPool

    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            meta = MetaData()
            meta.reflect(conn)
            return {
                name: sorted(repr(tuple(row)) for row in conn.execute(select(table)))
                for name, table in sorted(meta.tables.items())
            }
    finally:
        engine.dispose()
