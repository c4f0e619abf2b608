"""Which database the store tests run on, and empty stores on database servers.

``FSCLI_TEST_BACKEND`` picks the backend of the ``fscli`` fixture: ``sqlite`` (default),
``postgresql`` or ``mysql``. A server backend needs its URL in ``FSCLI_TEST_POSTGRES_URL``
or ``FSCLI_TEST_MYSQL_URL`` (``.ci/servers`` starts both servers and prints them). The
server's database is emptied before each test; the first test of a run drops every table,
so the schema is built by fscli's own migrations on that server.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

import pytest

URL_VARS = {"postgresql": "FSCLI_TEST_POSTGRES_URL", "mysql": "FSCLI_TEST_MYSQL_URL"}
DRIVERS = {"postgresql": "psycopg", "mysql": "pymysql"}
EXTRAS = {"postgresql": "postgres", "mysql": "mysql"}
BACKEND = os.environ.get("FSCLI_TEST_BACKEND", "sqlite")
if BACKEND not in ("sqlite", *URL_VARS):
    raise RuntimeError(f"FSCLI_TEST_BACKEND={BACKEND!r}: expected sqlite, postgresql or mysql")

_dropped: set[str] = set()


def server_url(backend: str) -> str | None:
    return os.environ.get(URL_VARS[backend]) or None


def require_server(backend: str) -> str:
    """The server's URL, or skip the test saying how to get one."""
    url = server_url(backend)
    if url is None:
        pytest.skip(
            f"no {backend} server configured: set {URL_VARS[backend]} "
            f"(.ci/servers start DIR prints it)"
        )
    pytest.importorskip(DRIVERS[backend], reason=f"pip install 'fscli[{EXTRAS[backend]}]'")
    return url


EVERY_BACKEND = ["sqlite", "postgresql", "mysql"]

# Tests that check every backend themselves run once, in the SQLite pass.
once = pytest.mark.skipif(
    BACKEND != "sqlite", reason="runs in the SQLite pass, for every backend at once"
)


def empty_server_store(backend: str) -> str:
    """The server store's URL, emptied: no tables on first use, then no rows."""
    url = require_server(backend)
    if url not in _dropped:
        return wiped_server_store(backend)
    from sqlalchemy import inspect

    with _connection(url) as conn:
        tables = inspect(conn).get_table_names()
        _delete_rows(conn, [t for t in tables if t != "alembic_version"])
    return url


def wiped_server_store(backend: str) -> str:
    """The server store's URL with no tables at all (not even Alembic's)."""
    url = require_server(backend)
    from sqlalchemy import MetaData

    with _connection(url) as conn:
        meta = MetaData()
        meta.reflect(conn)
        meta.drop_all(conn)
    _dropped.add(url)
    return url


def store_for(backend: str, sqlite_path) -> str:
    """A store with no tables on ``backend``: the SQLite file path, or the wiped server."""
    return str(sqlite_path) if backend == "sqlite" else wiped_server_store(backend)


@contextmanager
def _connection(url: str):
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            yield conn
    finally:
        engine.dispose()


def _delete_rows(conn, tables: list[str]) -> None:
    from sqlalchemy import text

    if not tables:
        return
    q = conn.dialect.identifier_preparer.quote
    if conn.dialect.name == "postgresql":
        conn.execute(text(f"TRUNCATE {', '.join(q(t) for t in tables)} RESTART IDENTITY CASCADE"))
        return
    # MariaDB: TRUNCATE and resetting AUTO_INCREMENT are DDL (a second per test), so rows
    # are deleted and ids go on counting: no test may depend on the ids a store hands out.
    conn.execute(text("SET FOREIGN_KEY_CHECKS=0"))
    for t in tables:
        conn.execute(text(f"DELETE FROM {q(t)}"))
    conn.execute(text("SET FOREIGN_KEY_CHECKS=1"))
