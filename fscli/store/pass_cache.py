"""The pass cache: a cluster's fair-share state, computed once per store version and pass.

slurmctld keeps every association's fair-share factor in memory and recomputes it once
per ``PriorityCalcPeriod``; fscli, a new process per command, keeps it in a file in the
user's cache folder instead (:func:`folder`), so that ``sprio`` reads it back rather than
recomputing the whole tree (0.1-0.3 s at 10,000 users).

**Store version.** The store's stamp (:mod:`fscli.store.stamp`), read in the same read
transaction as the data: every table gets three triggers (:func:`install`) that set it
anew on any write, by fscli or by any other program. Servers have no stamp and no cache.

**Pass moment.** Within one decay pass the state changes only where a charge, a job's
start or end, or a settings change falls (:func:`still_valid`); an entry keeps the
moments of its pass it was computed across, and answers any moment of that pass on the
same side of each of them.

The entries are ``marshal`` data (no code runs when one is read), written atomically,
and read only when this user wrote them.
"""

from __future__ import annotations

import bisect
import marshal
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fscli.store.stamp import STAMP_TABLE, TRIGGER_PREFIX, stamp
from fscli.store.user_cache import cache_root, trusted, write_atomically

FORMAT = 4
"""Bumped when an entry's layout or place changes: older entries are then never read
(3: the folder is named by BLAKE2b, no longer SHA-256; 4: payloads in marshal's version
2, and sshare's rows kept too)."""


def install(conn) -> None:
    """The stamp table and every table's triggers, where missing (an SQLAlchemy
    connection; SQLite only): run by migration 0014 and after every migration."""
    if conn.dialect.name != "sqlite":
        return
    run = conn.exec_driver_sql
    run(
        f"CREATE TABLE IF NOT EXISTS {STAMP_TABLE} "
        "(id INTEGER PRIMARY KEY CHECK (id = 1), stamp INTEGER NOT NULL)"
    )
    run(f"INSERT OR IGNORE INTO {STAMP_TABLE} (id, stamp) VALUES (1, random())")
    tables = run(
        "SELECT name FROM sqlite_master WHERE type = 'table' "
        f"AND name NOT LIKE 'sqlite_%' AND name != '{STAMP_TABLE}'"
    ).fetchall()
    for (table,) in tables:
        for event in ("insert", "update", "delete"):
            run(
                f'CREATE TRIGGER IF NOT EXISTS "{TRIGGER_PREFIX}{table}_{event}" '
                f'AFTER {event.upper()} ON "{table}" '
                f"BEGIN UPDATE {STAMP_TABLE} SET stamp = random(); END"
            )


_TRIGGERS_OF = (
    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND name LIKE ?"
)
_NEW_STAMP = f"UPDATE {STAMP_TABLE} SET stamp = random()"
PAUSE_FROM = 500
"""Rows from which a bulk write pauses the triggers: below, the pause (0.5 ms, and 0.2 ms
a table) costs more than the triggers it spares (2-5 us a row)."""


@contextmanager
def stamped_once(conn, tables: tuple[str, ...], rows: int) -> Iterator[None]:
    """A bulk write of about ``rows`` rows to ``tables`` inside ``conn``'s write
    transaction (a plain ``sqlite3`` connection, or an SQLAlchemy session or connection),
    the stamp set anew once instead of by a trigger per row: ``apply`` of 2,000 accounts
    and 20,000 users fires 60,000 (0.2-0.3 s of its 1.4), ``job import --replace`` of
    20,000 jobs 40,000 (0.4 s of its 1.1). Their triggers are dropped for the block and
    made again, with the new stamp, before the transaction goes on: DDL is transactional in
    SQLite, so no reader ever sees a table without its triggers, and a rollback (an error,
    a dry run, a crash) brings back rows and triggers alike. Below :data:`PAUSE_FROM` rows,
    and on a server (no stamp), the block runs as it is."""
    driver = _sqlite_driver(conn) if rows >= PAUSE_FROM else None
    if driver is None:
        yield
        return
    saved = [
        row
        for table in tables
        for row in driver.execute(_TRIGGERS_OF, (table, f"{TRIGGER_PREFIX}%")).fetchall()
    ]
    for name, _ in saved:
        drop = f'DROP TRIGGER "{name}"'  # an identifier of the store's own schema
        driver.execute(drop)
    try:
        yield
    finally:
        if driver.in_transaction:  # else SQLite rolled it back, the triggers with it
            for _, sql in saved:
                driver.execute(sql)
            driver.execute(_NEW_STAMP)


def _sqlite_driver(conn):
    """The ``sqlite3`` connection under ``conn`` (an ORM session's flushed first, so that
    what it holds is written with the triggers on); None on a server."""
    if isinstance(conn, sqlite3.Connection):
        return conn
    if hasattr(conn, "flush"):  # an ORM session
        conn.flush()
        conn = conn.connection()
    if conn.dialect.name != "sqlite":
        return None
    return conn.connection.driver_connection


def folder(conn) -> str | None:
    """The cache's folder for the store file ``conn`` reads: this user's own
    (``$XDG_CACHE_HOME/fscli/passcache``, else ``~/.cache/...``), one folder per store
    file by its real path, so that nothing is left beside the store.

    The folder's name is a BLAKE2b digest of that path: ``_blake2`` is built into CPython
    and imports in 0.3 ms, where ``hashlib`` loads OpenSSL's ``_hashlib`` (2.5-3 ms, paid
    by every ``sprio``)."""
    from _blake2 import blake2b

    for _, name, path in conn.execute("PRAGMA database_list"):
        if name == "main" and path:
            digest = blake2b(os.path.realpath(path).encode(), digest_size=12).hexdigest()
            return os.path.join(cache_root(), "passcache", digest)
    return None


def still_valid(at: int, entry_at: int, moments: list[int], start: int, period: int) -> bool:
    """Whether what was computed at ``entry_at`` holds at ``at``: the same pass (from
    ``start``, ``period`` long) and no moment of ``moments`` (sorted) between the two,
    either end included (the engine counts some moments with ``<``, others with ``<=``)."""
    if at == entry_at:
        return True
    if not start <= at < start + period:
        return False
    low, high = min(at, entry_at), max(at, entry_at)
    return bisect.bisect_left(moments, low) == bisect.bisect_right(moments, high)


class PassCache:
    """The entries of one store state (``stamp``) in ``where``; every method is a no-op
    when either is None (no cache), and :meth:`put` when not ``writable``."""

    def __init__(self, where: str | None, version: int | None, writable: bool = True):
        self.where = where if version is not None else None
        self.version = version
        self.writable = writable

    @classmethod
    def of(cls, conn) -> PassCache:
        """The cache of the store ``conn`` reads, at its version; read, never written,
        through the connection of a read-only fscli (``--read-only`` writes nothing:
        :class:`fscli.store.db.ReadOnlyConnection`)."""
        version = stamp(conn)
        writable = not getattr(conn, "read_only", False)
        return cls(folder(conn) if version is not None else None, version, writable)

    def _path(self, name: str) -> str:
        assert self.where is not None
        return os.path.join(self.where, name)

    def get(self, name: str, key: tuple, at: int) -> Any | None:
        """The payload stored under ``name`` for this version and ``key``, if it holds at
        ``at`` (:func:`still_valid`)."""
        entry = self.entry(name, key, at)
        return None if entry is None else entry[0]

    def entry(self, name: str, key: tuple, at: int) -> tuple[Any, list[int]] | None:
        """:meth:`get`'s payload and the moments of its pass it was computed across (the
        answer cache's window is made of them: ``pass_state.window_around``)."""
        if self.where is None:
            return None
        path = self._path(name)
        try:
            with open(path, "rb") as handle:
                if not trusted(handle):
                    return None
                size = int.from_bytes(handle.read(4), "little")
                head = marshal.loads(handle.read(size))
                if not isinstance(head, tuple) or head[:3] != (FORMAT, self.version, key):
                    return None  # another state's: its payload is not read at all
                (start, period), entry_at, moments = head[3:]
                if not isinstance(moments, list) or not still_valid(
                    at, entry_at, moments, start, period
                ):
                    return None
                return marshal.loads(handle.read()), moments
        except (OSError, EOFError, ValueError, TypeError):
            return None

    def put(
        self,
        name: str,
        key: tuple,
        at: int,
        span: tuple[int, int],
        moments: list[int],
        payload: Any,
    ) -> None:
        """Store ``payload``, computed at ``at`` in the pass ``span`` (start, period)
        whose ``moments`` are given, under ``name``; silently nothing where the folder
        cannot be written (nothing for a read-only fscli)."""
        if self.where is None or not self.writable:
            return
        start, period = span
        within = sorted(m for m in set(moments) if start <= m < start + period)
        head = marshal.dumps((FORMAT, self.version, key, (start, period), at, within))
        # the head's size, the head, the payload (marshal's version 2: no back-references,
        # which later versions look up for every object the live answer shares, such as
        # each number of the engine's columns: 100,000 rows of sshare took 114 ms, not 35)
        data = len(head).to_bytes(4, "little") + head + marshal.dumps(payload, 2)
        write_atomically(self.where, self._path(name), data)
