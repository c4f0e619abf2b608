"""Bulk inserts of plain rows: one ``executemany`` without SQLAlchemy's work per row on SQLite.

An ``insert(table)`` executed with a list of dicts costs SQLAlchemy about 10 µs a row
(building each row's parameters from the compiled statement) on top of SQLite's own 3:
a third of an apply of 100,000 associations, or of an import of 100,000 jobs, with their
history lines. On SQLite the rows go to the driver as tuples, with the columns' Python
defaults filled in as SQLAlchemy fills them; PostgreSQL and MariaDB keep SQLAlchemy's
path, whose batched "insertmanyvalues" is faster there than the driver's executemany.
"""

from __future__ import annotations

from operator import itemgetter

from sqlalchemy import Table, insert


def insert_rows(conn, table: Table, rows: list[dict]) -> None:
    """INSERT ``rows`` (each with the keys of the first) into ``table``, in one
    executemany; no rows insert nothing (an executemany of none would insert a row of
    defaults)."""
    if not rows:
        return
    keys = list(rows[0])
    defaults = {c.name: c.default for c in table.c if c.name not in rows[0] and c.default}
    if conn.dialect.name != "sqlite" or not all(d.is_scalar for d in defaults.values()):
        conn.execute(insert(table), rows)
        return
    quote = conn.dialect.identifier_preparer.quote
    columns = ", ".join(quote(name) for name in (*keys, *defaults))
    marks = ", ".join("?" * (len(keys) + len(defaults)))
    sql = f"INSERT INTO {quote(table.name)} ({columns}) VALUES ({marks})"
    extra = tuple(d.arg for d in defaults.values())
    values = itemgetter(*keys)
    if len(keys) == 1:
        params = [(values(row), *extra) for row in rows]
    else:
        params = [values(row) + extra for row in rows]
    conn.exec_driver_sql(sql, params)
