"""The application object passed to every command (``ctx.obj``).

It holds the global options and the store (:class:`fscli.api.Store`), opened lazily, so
commands that never touch the store (``--help``) never import SQLAlchemy. Every mutating
command runs inside :meth:`App.transaction`: one transaction, committed only when
everything validated (or rolled back for ``--dry-run``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import click


class App:
    def __init__(
        self,
        db: str | None = None,
        cluster: str | None = None,
        at: str | None = None,
        quiet: bool = False,
        debug: bool = False,
        read_only: bool = False,
    ):
        self.db = db
        self.read_only = read_only
        self.cluster_name = cluster
        self.at_text = at
        self.quiet = quiet
        self.debug = debug
        self._store = None
        self._now: int | None = None

    @property
    def now(self) -> int:
        """ "Now" for this command: ``--at`` or the wall clock, fixed once per run."""
        if self._now is None:
            from fscli.api.when import moment

            self._now = moment(self.at_text or None, int(time.time()))
        return self._now

    @property
    def store(self):
        """The store ``--db`` names (``fscli.api.Store``), opened on first use."""
        if self._store is None:
            from fscli.api.store import Store

            self._store = Store(self.db, read_only=self.read_only)
        return self._store

    @property
    def actor(self) -> str:
        """Who the history says made a change: the process's user, by its uid."""
        return self.store.actor

    def close(self) -> None:
        """Give back the store's connections (a server's, above all) when the command ends."""
        if self._store is not None:
            self._store.close()

    @contextmanager
    def transaction(self, dry_run: bool = False) -> Iterator:
        """An ORM session holding the write lock; commit at the end unless ``dry_run``."""
        with self.store.session(dry_run) as session:
            yield session

    @contextmanager
    def changes(self, dry_run: bool = False) -> Iterator:
        """The API's write surface (:class:`fscli.api.writes.Writes`) in one transaction
        recorded at "now"; committed at the end unless ``dry_run``."""
        with self.store.transaction(at=self.now, dry_run=dry_run) as tx:
            tx.implicit_cluster = "default"  # a first add on an empty store: said, not silent
            yield tx

    @contextmanager
    def reading(self, create: bool = False) -> Iterator:
        """A Core connection for read paths (one query per table); creates no store unless
        ``create`` (a write command that reads first)."""
        with self.store.reading(create) as conn:
            yield conn

    def say(self, message: str) -> None:
        """A change summary or hint: stderr, silenced by ``-Q``."""
        if not self.quiet:
            click.echo(message, err=True)
