"""Read queries as SQL text, run on whichever connection a read holds.

The views (sshare, sprio, assoc list, limits, tree) read an SQLite file at the current
schema through the standard ``sqlite3`` module (:func:`fscli.store.session.viewing`):
importing SQLAlchemy alone takes longer than a view of a small store may take. Servers,
write sessions and older stores give a SQLAlchemy connection or session instead. Each
query is written once, in SQL every backend reads, and runs on both kinds of connection,
so the two read paths cannot drift apart:

* parameters are named (``:name``), which ``sqlite3`` and SQLAlchemy's ``text()`` both take;
* the names some backend reserves (``"user"``, ``"partition"``, ``"end"``, ``"key"``,
  ``"usage"``) are written in double quotes, MariaDB's backquotes swapped in for it (so no
  query holds a double quote in a literal);
* rows come back as the driver gives them: plain tuples, no per-row objects.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

IN_LIST = 900
"""Values one IN list carries (:func:`chunked`)."""


def rows(conn, sql: str, params: dict | None = None) -> list[tuple]:
    """Every row of ``sql`` with ``params`` on ``conn`` (sqlite3, or SQLAlchemy's
    connection or ORM session)."""
    with _cursor(conn, sql, params) as cursor:
        return cursor.fetchall()


def batches(conn, sql: str, params: dict | None = None, size: int = 10_000) -> Iterator[list]:
    """:func:`rows` in lists of up to ``size``: a big result (100,000 associations or
    charges) is never held whole as rows beside the objects made from them."""
    with _cursor(conn, sql, params) as cursor:
        while batch := cursor.fetchmany(size):
            yield batch


@contextmanager
def _cursor(conn, sql: str, params: dict | None) -> Iterator:
    """The DBAPI cursor holding the result (plain tuples: no per-row Row objects)."""
    if isinstance(conn, sqlite3.Connection):
        cursor = conn.execute(sql, params or {})
        try:
            yield cursor
        finally:
            cursor.close()
        return
    from sqlalchemy import text

    dialect = conn.dialect if hasattr(conn, "dialect") else conn.get_bind().dialect
    if dialect.name == "mysql":
        sql = sql.replace('"', "`")
    result = conn.execute(text(sql), params or {})
    try:
        yield result.cursor
    finally:
        result.close()


def execute(conn, sql: str, params: dict | None = None) -> None:
    """Run a statement that returns no rows (a write) on ``conn``, as :func:`rows` runs a
    query."""
    with _cursor(conn, sql, params):
        pass


def scalar(conn, sql: str, params: dict | None = None):
    """The first column of the first row (None without rows)."""
    found = rows(conn, sql, params)
    return found[0][0] if found else None


def in_list(column: str, name: str, values: Iterable) -> tuple[str, dict]:
    """``column IN (:name0, :name1, ...)`` and its parameters; a condition no row meets
    for no values (``IN ()`` is not SQL)."""
    params = {f"{name}{i}": v for i, v in enumerate(values)}
    if not params:
        return "1 = 0", {}
    return f"{column} IN ({', '.join(':' + key for key in params)})", params


def chunked(ids: Sequence) -> Iterator[Sequence]:
    """``ids`` in slices of ``IN_LIST``: one IN list per slice stays far below every
    backend's bind-parameter limit (SQLite 32,766; PostgreSQL 65,535)."""
    return (ids[i : i + IN_LIST] for i in range(0, len(ids), IN_LIST))
