"""The application object passed to every command (``ctx.obj``).

It holds the global options and opens the store lazily, so commands that never touch
the store (``--help``) never import SQLAlchemy. Every mutating command runs inside
:meth:`App.transaction`: one transaction, committed only when everything validated
(or rolled back for ``--dry-run``).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import click

from fscli.errors import StoreError


class App:
    def __init__(self, db: str | None = None, cluster: str | None = None, at: str | None = None,
                 quiet: bool = False, debug: bool = False, read_only: bool = False):
        self.db = db
        self.read_only = read_only
        self.cluster_name = cluster
        self.at_text = at
        self.quiet = quiet
        self.debug = debug
        self._engine = None
        self._now: int | None = None

    @property
    def now(self) -> int:
        """"Now" for this command: ``--at`` or the wall clock, fixed once per run."""
        if self._now is None:
            from fscli.engine.timestr import parse_when

            wall = int(time.time())
            self._now = parse_when(self.at_text, wall) if self.at_text else wall
        return self._now

    @property
    def actor(self) -> str:
        """Who the history says made a change: the process's user, by its uid (as Slurm
        records the uid of a sacctmgr call). ``$USER`` may be unset, stale or anyone's."""
        return process_user()

    @property
    def engine(self):
        """The store, created (and migrated) when it does not exist yet."""
        return self._open(create=True)

    def _open(self, create: bool):
        if self._engine is None:
            from fscli.store.db import open_engine

            self._engine = open_engine(self.db, read_only=self.read_only, create=create)
        return self._engine

    def close(self) -> None:
        """Give back the store's connections (a server's, above all) when the command ends."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    @contextmanager
    def transaction(self, dry_run: bool = False) -> Iterator:
        """An ORM session holding the write lock; commit at the end unless ``dry_run``."""
        from sqlalchemy.exc import DBAPIError
        from sqlalchemy.orm import Session

        if self.read_only:
            raise StoreError("this command changes the store, and fscli is read-only here "
                             "(--read-only or FSCLI_READ_ONLY); run it without that to change it")
        try:  # opening the store may migrate it: its errors are store errors too
            engine = self.engine.execution_options(fscli_write=True)
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
    def reading(self, create: bool = False) -> Iterator:
        """A Core connection for read paths (one query per table); creates no store unless
        ``create`` (a write command that reads first)."""
        from sqlalchemy.exc import DBAPIError

        try:
            with self._open(create=create).connect() as conn:
                yield conn
        except DBAPIError as exc:
            raise store_error(exc) from None

    def say(self, message: str) -> None:
        """A change summary or hint: stderr, silenced by ``-Q``."""
        if not self.quiet:
            click.echo(message, err=True)


class _DryRun(Exception):
    """Raised at the end of a dry run so that the transaction rolls back."""


def store_error(exc: Exception) -> StoreError:
    text = (str(getattr(exc, "orig", exc)).strip().splitlines() or ["unknown error"])[0]
    low = text.lower()
    if "readonly" in low or "read-only" in low or "read only" in low:
        return StoreError(f"the store is read-only ({text}); use a writable --db or check permissions")
    if "locked" in low or "busy" in low:
        return StoreError(f"the store is busy ({text}); try again")
    return StoreError(f"store error: {text}")


def process_user() -> str:
    import pwd

    uid = os.getuid()
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:  # a uid without a passwd entry (containers)
        return f"uid{uid}"


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()
