"""Connections and transactions on a store's engine, with database errors made into one
line (:class:`~fscli.errors.StoreError`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

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
def viewing(db: str | None, open_engine) -> Iterator:
    """A connection for the views (:mod:`fscli.store.snapshot`, ``lists``, ``limit_state``):
    on an SQLite file at the current schema a plain ``sqlite3`` one (no SQLAlchemy import,
    which alone costs more than a view of a small store), else :func:`reading`'s."""
    import sqlite3

    from fscli.store.db import open_reader

    try:
        conn = open_reader(db)
    except sqlite3.Error as exc:
        raise store_error(exc) from None
    if conn is None:
        with reading(open_engine) as core:
            yield core
        return
    try:
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
