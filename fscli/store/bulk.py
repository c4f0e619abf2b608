"""Bulk inserts of plain rows: one ``executemany`` without SQLAlchemy's work per row on SQLite.

An ``insert(table)`` executed with a list of dicts costs SQLAlchemy about 10 µs a row
(building each row's parameters from the compiled statement) on top of SQLite's own 3:
a third of an apply of 100,000 associations, or of an import of 100,000 jobs, with their
history lines. On SQLite the rows go to the driver as tuples, with the columns' Python
defaults filled in as SQLAlchemy fills them; PostgreSQL and MariaDB keep SQLAlchemy's
path, whose batched "insertmanyvalues" is faster there than the driver's executemany.
A write on a plain ``sqlite3`` connection (:func:`fscli.store.session.plain_writing`, which
spares a job import loading SQLAlchemy) inserts the same rows the same way
(:func:`insert_many`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy import Table

LOG_TABLE = "transaction_log"
LOG_COLUMNS = ("at", "actor", "action", "target", "detail", "cluster", "changes")
"""The columns of a history line that a writer gives."""


def log_many(conn, at: int, actor: str, entries: Iterable[tuple]) -> None:
    """History lines (action, target, detail[, changes]) at ``at`` by ``actor``, in one
    executemany: an ORM object per line costs more than the change itself when 100,000
    jobs are imported or a tree of 100,000 associations is applied. ``changes``: the
    (key, old, new) settings the line changed (:mod:`fscli.store.audit`); the cluster
    is the target's. ``conn``: as :func:`insert_many`'s."""
    from fscli.store.audit import encode, target_cluster

    rows = [
        (at, actor, e[0], e[1], e[2], target_cluster(e[0], e[1]), encode(e[3] if e[3:] else None))
        for e in entries
    ]
    insert_many(conn, LOG_TABLE, LOG_COLUMNS, rows)


def insert_many(conn, table: str, keys: Sequence[str], rows: list[tuple]) -> None:
    """:func:`insert_tuples` into the table named ``table`` through an ORM session (what
    it holds is flushed first: it goes first) or a plain ``sqlite3`` connection."""
    if isinstance(conn, sqlite3.Connection):
        _insert_plain(conn, table, keys, rows)
        return
    from fscli.store.tables import metadata

    conn.flush()
    insert_tuples(conn.connection(), metadata.tables[table], keys, rows)


def insert_rows(conn, table: Table, rows: list[dict]) -> None:
    """INSERT ``rows`` (each with the keys of the first) into ``table``, in one
    executemany; no rows insert nothing (an executemany of none would insert a row of
    defaults)."""
    if not rows:
        return
    keys = list(rows[0])
    if _driver_insert(conn, table, keys) is None:
        from sqlalchemy import insert

        conn.execute(insert(table), rows)
        return
    values = itemgetter(*keys)
    if len(keys) == 1:
        insert_tuples(conn, table, keys, [(values(row),) for row in rows])
    else:
        insert_tuples(conn, table, keys, list(map(values, rows)))


def insert_tuples(conn, table: Table, keys: Sequence[str], rows: list[tuple]) -> None:
    """:func:`insert_rows` of rows given as tuples of the ``keys`` columns: what a writer
    that makes many rows of the same columns builds fastest (no dict a row). On SQLite,
    the columns that are None in every row are left out (:func:`_unset_columns`)."""
    if not rows:
        return
    driver = _driver_insert(conn, table, keys)
    if driver is None:
        from sqlalchemy import insert

        conn.execute(insert(table), [dict(zip(keys, row)) for row in rows])
        return

    def null_when_left_out(key: str) -> bool:
        column = table.c[key]
        return column.default is None and column.server_default is None

    keys, rows = _without_unset(keys, rows, null_when_left_out)
    sql, extra = _driver_insert(conn, table, keys)  # type: ignore[misc]
    conn.exec_driver_sql(sql, [row + extra for row in rows] if extra else rows)


def _insert_plain(conn: sqlite3.Connection, table: str, keys: Sequence[str], rows: list[tuple]):
    """:func:`insert_tuples` on a plain ``sqlite3`` connection. The rows must give every
    column that has a Python default: those are SQLAlchemy's, not SQLite's. A column None
    in every row is left out where SQLite's own schema gives it no default, which stores
    the NULL an explicit None stores."""
    if not rows:
        return
    info = conn.execute("SELECT name, dflt_value FROM pragma_table_info(?)", (table,))
    no_default = {name for name, default in info if default is None}
    keys, rows = _without_unset(keys, rows, no_default.__contains__)
    columns = ", ".join(f'"{key}"' for key in keys)
    statement = f'INSERT INTO "{table}" ({columns}) VALUES ({", ".join("?" * len(keys))})'
    conn.executemany(statement, rows)


def _without_unset(
    keys: Sequence[str], rows: list[tuple], null_when_left_out: Callable[[str], bool]
) -> tuple[Sequence[str], list[tuple]]:
    """(``keys``, ``rows``) without the columns that are None in every row and NULL when
    left out, at least one column left: SQLite binds every parameter of every row. Only
    the columns None in the first row are looked at, in one pass each. An import of
    100,000 jobs has four such columns: leaving them out saves a fifth of the insert."""
    unset = set()
    for i, (key, value) in enumerate(zip(keys, rows[0])):
        if value is None and null_when_left_out(key):
            if list(map(itemgetter(i), rows)).count(None) == len(rows):
                unset.add(i)
    if not unset or len(unset) == len(keys):
        return keys, rows
    kept = [i for i in range(len(keys)) if i not in unset]
    pick = itemgetter(*kept)
    picked = [(pick(row),) for row in rows] if len(kept) == 1 else list(map(pick, rows))
    return [keys[i] for i in kept], picked


def _driver_insert(conn, table: Table, keys: Sequence[str]) -> tuple[str, tuple] | None:
    """(the driver's INSERT of ``keys`` and of the other columns' Python defaults, those
    defaults' values), or None where SQLAlchemy inserts: not SQLite, or a default that
    is computed."""
    from sqlalchemy import ColumnDefault  # here: a plain sqlite3 write never loads SQLAlchemy

    defaults = {c.name: c.default for c in table.c if c.name not in keys and c.default}
    scalars = [d for d in defaults.values() if isinstance(d, ColumnDefault) and d.is_scalar]
    if conn.dialect.name != "sqlite" or len(scalars) != len(defaults):
        return None
    quote = conn.dialect.identifier_preparer.quote
    columns = ", ".join(quote(name) for name in (*keys, *defaults))
    marks = ", ".join("?" * (len(keys) + len(defaults)))
    return (
        f"INSERT INTO {quote(table.name)} ({columns}) VALUES ({marks})",
        tuple(d.arg for d in scalars),
    )
