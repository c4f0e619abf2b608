"""Bulk inserts of plain rows: one ``executemany`` without SQLAlchemy's work per row on SQLite.

An ``insert(table)`` executed with a list of dicts costs SQLAlchemy about 10 µs a row
(building each row's parameters from the compiled statement) on top of SQLite's own 3:
a third of an apply of 100,000 associations, or of an import of 100,000 jobs, with their
history lines. On SQLite the rows go to the driver as tuples, with the columns' Python
defaults filled in as SQLAlchemy fills them; PostgreSQL and MariaDB keep SQLAlchemy's
path, whose batched "insertmanyvalues" is faster there than the driver's executemany.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from sqlalchemy import Table, insert


def insert_rows(conn, table: Table, rows: list[dict]) -> None:
    """INSERT ``rows`` (each with the keys of the first) into ``table``, in one
    executemany; no rows insert nothing (an executemany of none would insert a row of
    defaults)."""
    if not rows:
        return
    keys = list(rows[0])
    if _driver_insert(conn, table, keys) is None:
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
        conn.execute(insert(table), [dict(zip(keys, row)) for row in rows])
        return
    unset = _unset_columns(table, keys, rows)
    if unset:  # SQLite binds every parameter of every row: leave out those always NULL
        kept = [i for i in range(len(keys)) if i not in unset]
        keys = [keys[i] for i in kept]
        pick = itemgetter(*kept)
        rows = [(pick(row),) for row in rows] if len(kept) == 1 else list(map(pick, rows))
        driver = _driver_insert(conn, table, keys)
    sql, extra = driver  # type: ignore[misc]
    conn.exec_driver_sql(sql, [row + extra for row in rows] if extra else rows)


def _unset_columns(table: Table, keys: Sequence[str], rows: list[tuple]) -> set[int]:
    """The positions of the ``keys`` columns that are None in every row and are NULL
    when left out (no default of any kind), at least one column left. Only the columns
    None in the first row are looked at, in one pass each. An import of 100,000 jobs
    has four such columns: leaving them out saves a fifth of the insert."""
    unset = set()
    for i, (key, value) in enumerate(zip(keys, rows[0])):
        column = table.c[key]
        if value is None and column.default is None and column.server_default is None:
            if list(map(itemgetter(i), rows)).count(None) == len(rows):
                unset.add(i)
    return unset if len(unset) < len(keys) else set()


def _driver_insert(conn, table: Table, keys: Sequence[str]) -> tuple[str, tuple] | None:
    """(the driver's INSERT of ``keys`` and of the other columns' Python defaults, those
    defaults' values), or None where SQLAlchemy inserts: not SQLite, or a default that
    is computed."""
    defaults = {c.name: c.default for c in table.c if c.name not in keys and c.default}
    if conn.dialect.name != "sqlite" or not all(d.is_scalar for d in defaults.values()):
        return None
    quote = conn.dialect.identifier_preparer.quote
    columns = ", ".join(quote(name) for name in (*keys, *defaults))
    marks = ", ".join("?" * (len(keys) + len(defaults)))
    return (
        f"INSERT INTO {quote(table.name)} ({columns}) VALUES ({marks})",
        tuple(d.arg for d in defaults.values()),
    )
