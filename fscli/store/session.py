"""Connections and transactions on a store's engine, with database errors made into one
line (:class:`~fscli.errors.StoreError`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from fscli.errors import StoreError


@contextmanager
def reading(open_engine) -> Iterator:
    """A Core connection for read paths (one query per table); ``open_engine()`` gives the
    engine (opening may migrate the store, whose errors are store errors too)."""
    from sqlalchemy.exc import DBAPIError

    try:
        with open_engine().connect() as conn:
            yield conn
    except DBAPIError as exc:
        raise store_error(exc) from None


@contextmanager
def viewing(db: str | None, open_engine, read_only: bool = False) -> Iterator:
    """A connection for the views (:mod:`fscli.store.snapshot`, ``lists``, ``limit_state``):
    on an SQLite file at the current schema a plain ``sqlite3`` one (no SQLAlchemy import,
    which alone costs more than a view of a small store; for a read-only fscli, one that
    leaves nothing behind: :class:`fscli.store.db.ReadOnlyConnection`), else
    :func:`reading`'s."""
    import sqlite3

    from fscli.store.db import open_reader
    from fscli.store.read_states import note_read

    try:
        conn = open_reader(db, read_only)
    except sqlite3.Error as exc:
        raise store_error(exc) from None
    if conn is None:
        with reading(open_engine) as core:
            yield core
        return
    try:
        note_read(conn)  # the answer cache's: the state this transaction reads
        yield conn
    except sqlite3.Error as exc:
        raise store_error(exc) from None
    finally:
        conn.close()


@contextmanager
def writing(open_engine, dry_run: bool = False) -> Iterator:
    """An ORM session holding the write lock (``open_engine()`` gives the engine: opening
    may migrate the store, whose errors are store errors too); committed at the end unless
    ``dry_run``: then everything ran, every check included, and is rolled back."""
    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.orm import Session

    try:
        engine = open_engine().execution_options(fscli_write=True)
        with Session(engine, autoflush=True, expire_on_commit=False) as session:
            try:
                with session.begin():
                    yield session
                    session.flush()
                    if dry_run:
                        raise _DryRun
            except _DryRun:
                pass
    except DBAPIError as exc:
        raise store_error(exc) from None


@contextmanager
def plain_writing(db: str | None, dry_run: bool = False) -> Iterator:
    """:func:`writing`'s transaction on a plain ``sqlite3`` connection
    (:func:`fscli.store.db.open_writer`: an SQLite file at the current schema), for a write
    whose code runs on one (:mod:`fscli.store.job_rows`): SQLAlchemy's import alone costs
    0.2-0.3 s. Yields None for any other store: the caller writes through :func:`writing`."""
    import sqlite3

    from fscli.store.db import open_writer

    try:
        conn = open_writer(db)
    except sqlite3.Error as exc:
        raise store_error(exc) from None
    if conn is None:
        yield None
        return
    try:
        yield conn
        if not dry_run:
            conn.execute("COMMIT")
    except sqlite3.Error as exc:
        raise store_error(exc) from None
    finally:
        conn.close()  # rolls back what is not committed


class Write:
    """A write transaction that reads before it writes, and may write nothing (``fscli
    apply`` of a tree the store already matches). :attr:`conn` reads: on an SQLite file
    at the current schema a plain ``sqlite3`` connection, so that a transaction that
    writes nothing never imports SQLAlchemy (0.25 s of a second); :meth:`session` is an
    ORM session in the same transaction, made when first asked for, for the writes."""

    def __init__(self, conn, session: Callable[[], Any] | None = None, made: Any = None):
        self.conn = conn
        self._session = session
        self._made = made

    def session(self):
        if self._made is None:
            assert self._session is not None
            self._made = self._session()
        return self._made

    def sqlite(self):
        """The transaction's ``sqlite3`` connection, all the ORM session holds flushed into
        it; None on a server."""
        import sqlite3

        if self._made is not None:
            self._made.flush()
        if isinstance(self.conn, sqlite3.Connection):
            return self.conn
        if self.conn.dialect.name != "sqlite":
            return None
        return self.conn.connection.driver_connection


@contextmanager
def writing_after_reading(db: str | None, open_engine, dry_run: bool = False) -> Iterator[Write]:
    """:func:`writing`'s transaction as a :class:`Write`: on an SQLite file at the current
    schema, :func:`plain_writing`'s, with an ORM session inside it when one is asked for;
    on any other store :func:`writing`'s session from the start."""
    with plain_writing(db, dry_run) as conn:
        if conn is not None:
            with ExitStack() as stack:
                yield Write(
                    conn,
                    lambda: stack.enter_context(writing(lambda: _engine_over(conn), dry_run)),
                )
            return
    with writing(open_engine, dry_run) as session:
        yield Write(session.connection(), made=session)


def _engine_over(conn):
    """An engine whose one connection is ``conn``, inside the transaction
    :func:`plain_writing` began (whose ``BEGIN IMMEDIATE`` holds the write lock already)
    and ends: the engine begins none of its own, and its commits and rollbacks
    (SQLAlchemy's own after its first connect, the session's) leave it alone."""
    from sqlalchemy import create_engine
    from sqlalchemy.pool import StaticPool

    held = _Held(conn)
    return create_engine("sqlite://", creator=lambda: held, poolclass=StaticPool)


class _Held:
    """A ``sqlite3`` connection as an engine sees it whose transaction is its holder's:
    ``commit``, ``rollback`` and ``close`` do nothing, the rest is the connection's."""

    def __init__(self, conn):
        self._conn = conn

    def commit(self) -> None:
        pass

    def rollback(self) -> None:
        pass

    def close(self) -> None:
        pass

    def __getattr__(self, name: str):
        return getattr(self._conn, name)


class _DryRun(Exception):
    """Raised at the end of a dry run so that the transaction rolls back."""


def store_error(exc: Exception) -> StoreError:
    text = (str(getattr(exc, "orig", exc)).strip().splitlines() or ["unknown error"])[0]
    low = text.lower()
    if "readonly" in low or "read-only" in low or "read only" in low:
        return StoreError(
            f"the store is read-only ({text}); use a writable --db or check permissions"
        )
    if "locked" in low or "busy" in low:
        return StoreError(f"the store is busy ({text}); try again")
    return StoreError(f"store error: {text}")
