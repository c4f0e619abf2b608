"""The store as Python programs (and fscli's own commands) use it.

:func:`open_store` resolves a path or URL as ``--db`` does (else ``FSCLI_DB``, else the
default file) and gives a :class:`Store`: views (``shares()``, ``priorities()``) read one
snapshot (plain ``sqlite3`` on an SQLite file, SQLAlchemy on servers) and hand it to the
engine; writes happen inside ``with store.transaction() as tx:`` and are committed all or
nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from fscli.api.when import When, moment
from fscli.errors import StoreError

if TYPE_CHECKING:
    from fscli.api.records import Account, Associations, Change, User
    from fscli.api.results import Priorities, Shares
    from fscli.api.solvers import DecayAnswer, SharesAnswer
    from fscli.api.whatif import PriorityComparison, ShareComparison
    from fscli.api.writes import Writes
    from fscli.engine.submit import JobInput
    from fscli.engine.whatif import WhatIf
    from fscli.store.progress import Progress
    from fscli.store.session import Write


def open_store(
    path_or_url: str | None = None, read_only: bool = False, actor: str | None = None
) -> Store:
    """The store at ``path_or_url`` (a file path or an SQLAlchemy URL; default: ``FSCLI_DB``,
    else the default file). ``read_only`` refuses every change and opens the database
    read-only. History names ``actor``, by default the process's user."""
    return Store(path_or_url, read_only=read_only, actor=actor)


def _frozen(changes: list | None) -> tuple | None:
    return None if changes is None else tuple(changes)


def process_user() -> str:
    """The process's user, by its uid (as Slurm records the uid of a sacctmgr call):
    ``$USER`` may be unset, stale or anyone's."""
    import os
    import pwd

    uid = os.getuid()
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:  # a uid without a passwd entry (containers)
        return f"uid{uid}"


class Store:
    """An fscli store. Use it as a context manager, or call :meth:`close` when done."""

    def __init__(
        self, path_or_url: str | None = None, read_only: bool = False, actor: str | None = None
    ):
        self.db = path_or_url
        self.read_only = read_only
        self.actor = actor or process_user()
        self._engine = None
        self._scratch = None  # a dry run's in-memory store, while the file does not exist
        self._new = None  # a new store file awaiting its first commit (store.new_file)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Give back the store's connections (a server's, above all); a new store file
        that nothing was committed to is removed."""
        self._discard()
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        if self._scratch is not None:
            self._scratch.dispose()
            self._scratch = None

    # -- connections ------------------------------------------------------------------
    @property
    def engine(self):
        """The SQLAlchemy engine, the store created (and migrated) when it does not exist."""
        engine = self._open(create=True)
        if self._new is not None:  # asked for by name: the store is made now
            self._publish(empty=True)
            engine = self._open(create=True)
        return engine

    def _open(self, create: bool, dry_run: bool = False):
        """The engine. A dry run neither creates nor migrates the store: on an SQLite file
        that does not exist yet, or is at an older schema, it runs on a store in memory
        (:func:`fscli.store.db.scratch_engine`); a server store must be upgraded first. A
        write to an SQLite file that does not exist yet makes the store under a name of its
        own, put in place when the first transaction commits (:mod:`fscli.store.new_file`)."""
        if self._engine is None and create and dry_run and not self.read_only:
            from fscli.store.db import scratch_engine

            if self._scratch is None:
                self._scratch = scratch_engine(self.db)
            if self._scratch is not None:
                return self._scratch
        if self._engine is None and create and not dry_run and not self.read_only:
            from fscli.store.new_file import new_store

            made = new_store(self.db)
            if made is not None:
                self._engine, self._new = made
        if self._engine is None:
            from fscli.store.db import open_engine

            self._engine = open_engine(
                self.db, migrate=not dry_run, read_only=self.read_only, create=create
            )
        return self._engine

    @contextmanager
    def reading(self, create: bool = False, dry_run: bool = False) -> Iterator:
        """A Core connection for read paths; creates no store unless ``create`` (and not
        then either for ``dry_run``: a store that does not exist yet reads as a new one)."""
        from fscli.store.session import reading

        with reading(lambda: self._open(create, dry_run)) as conn:
            yield conn

    @contextmanager
    def viewing(self) -> Iterator:
        """A connection for the views, which read through :mod:`fscli.store.snapshot`,
        ``lists`` and ``limit_state`` only: plain ``sqlite3`` on an SQLite file at the
        current schema (no SQLAlchemy import), else :meth:`reading`'s. Creates no store."""
        from fscli.store.session import viewing

        with viewing(self.db, lambda: self._open(create=False), self.read_only) as conn:
            yield conn

    @contextmanager
    def session(self, dry_run: bool = False) -> Iterator:
        """An ORM session holding the write lock; committed at the end unless ``dry_run``
        (then everything ran, every check included, and is rolled back)."""
        from fscli.store.session import writing

        with self._transaction(
            lambda: writing(lambda: self._open(True, dry_run), dry_run), dry_run
        ) as session:
            yield session

    @contextmanager
    def writing(self, dry_run: bool = False) -> Iterator[Write]:
        """:meth:`session`'s transaction for a write that reads first and may write
        nothing (:class:`fscli.store.session.Write`: on an SQLite file, no SQLAlchemy
        import unless something is written)."""
        from fscli.store.session import writing_after_reading

        with self._transaction(
            lambda: writing_after_reading(self.db, lambda: self._open(True, dry_run), dry_run),
            dry_run,
        ) as write:
            yield write

    @contextmanager
    def _transaction(self, begin, dry_run: bool) -> Iterator:
        """The transaction ``begin()`` opens, on a store this process may write; a new store
        file is put in place once it commits, and removed if nothing was committed."""
        self._refuse_read_only()
        try:
            with begin() as handle:
                yield handle
        except BaseException:
            self._discard()
            raise
        if not dry_run:
            self._publish()

    def _refuse_read_only(self) -> None:
        if self.read_only:
            raise StoreError(
                "this command changes the store, and fscli is read-only here "
                "(--read-only or FSCLI_READ_ONLY); run it without that to change it"
            )

    def _publish(self, empty: bool = False) -> None:
        """A new store file, its first transaction committed (or ``empty``: its schema
        only), put in place."""
        new, self._new = self._new, None
        if new is not None:
            self._engine.dispose()
            self._engine = None
            new.publish(empty)

    def _discard(self) -> None:
        """A new store file that nothing was committed to, removed."""
        new, self._new = self._new, None
        if new is not None:
            self._engine.dispose()
            self._engine = None
            new.discard()

    @contextmanager
    def transaction(self, at: When = None, dry_run: bool = False) -> Iterator[Writes]:
        """The write surface (:class:`fscli.api.writes.Writes`: clusters, accounts, users,
        QOS, partitions, limits, usage, settings) in one transaction, recorded at ``at``:
        committed when the block ends, rolled back on any error (and always with
        ``dry_run``, after every check has run)."""
        from fscli.api.writes import Writes
        from fscli.store.usage_admin import UsageAdmin

        with self.session(dry_run) as session:
            yield Writes(UsageAdmin(session, moment(at), self.actor))

    def import_jobs(
        self,
        jobs: list[JobInput],
        replace: bool = False,
        cluster: str | None = None,
        at: When = None,
        dry_run: bool = False,
        progress: Progress | None = None,
    ) -> list[str]:
        """:meth:`transaction`'s ``import_jobs`` in a transaction of its own. On an SQLite
        file at the current schema it runs on a plain ``sqlite3`` connection: an import of
        100,000 jobs spends no time importing SQLAlchemy (0.2-0.3 s of its 2)."""
        from fscli.store.session import plain_writing

        self._refuse_read_only()
        with plain_writing(self.db, dry_run) as conn:
            if conn is not None:
                from fscli.store.job_rows import import_jobs

                return import_jobs(conn, cluster, moment(at), self.actor, jobs, replace, progress)
        with self.transaction(at, dry_run) as tx:
            return tx.import_jobs(jobs, replace, cluster, progress)

    # -- the store itself ---------------------------------------------------------------
    @property
    def location(self) -> str:
        """Where the store is (its file's URL or its server's), with any password hidden."""
        from fscli.store.db import display_url, resolve_url

        return display_url(resolve_url(self.db).url)

    def upgrade(self) -> str:
        """Create the store, or migrate it to the newest schema; the schema it is at."""
        from fscli.store.db import HEAD

        _ = self.engine  # opening creates or migrates
        return HEAD

    def schema(self) -> str | None:
        """The store's schema version (None: no schema yet); migrates an older store. A
        read: a store that does not exist is an error, not a new one."""
        from fscli.store.db import current_revision

        return current_revision(self._open(create=False))

    def backup(self, target: str) -> str:
        """Copy a live SQLite store to ``target`` (SQLite's online backup: consistent while
        others write; mode 0600; ``target`` must not exist); the file copied. An old store
        is brought to the current schema first, and a file that is no store is refused."""
        import os
        from pathlib import Path

        from fscli.errors import NotFound, UsageProblem
        from fscli.store.db import backup_sqlite, resolve_url

        path = resolve_url(self.db).sqlite_path
        if path is None:
            raise UsageProblem(
                "db backup copies SQLite stores; for PostgreSQL use pg_dump, "
                "for MariaDB mariadb-dump"
            )
        if not path.exists():
            raise NotFound(f"no store at {path}; nothing to back up")
        copy = os.path.expanduser(target)
        if copy.startswith("~"):  # Path.expanduser would raise RuntimeError
            raise StoreError(f"cannot back up {path} to {target}: no such user's home directory")
        _ = self.engine
        backup_sqlite(path, Path(copy))
        return str(path)

    # -- views ------------------------------------------------------------------------
    def clusters(self, create: bool = False, dry_run: bool = False) -> list[str]:
        """Every cluster's name, sorted (``create``: a new, empty store when there is none,
        for a command that writes next; made in memory only for one that ``dry_run``s)."""
        from fscli.store.snapshot import cluster_names

        with self.reading(create, dry_run) as conn:
            return cluster_names(conn)

    def slurm_version(self, cluster: str) -> str | None:
        """The Slurm version ``cluster`` was last imported from (``import slurm``, the
        version its collect.json recorded); None: never imported, or no version known."""
        from fscli.api.import_slurm import imported_version
        from fscli.store import lists

        with self.viewing() as conn:
            return imported_version(lists.last_detail(conn, "import slurm", cluster))

    def associations(self, cluster: str | None = None) -> Associations:
        """The cluster's associations (``cluster`` None: the store's only cluster)."""
        from fscli.api.records import Associations
        from fscli.store import lists
        from fscli.store.snapshot import cluster_id_for, load_assocs, load_cluster

        with self.viewing() as conn:
            cid = cluster_id_for(conn, cluster)
            accounts = {n: (d or "", o or "") for n, d, o in lists.accounts(conn)}
            return Associations(
                load_cluster(conn, cid).name,
                load_assocs(conn, cid),
                accounts,
                lists.qos_names(conn),
            )

    def cluster_info(self) -> list:
        """Every cluster with its nodes, CPUs and TRES (engine ``ClusterInfo``), by name."""
        from fscli.store import lists

        with self.viewing() as conn:
            return lists.clusters(conn)

    def accounts(self) -> list[Account]:
        """Every account (global to the store, as in slurmdbd), by name."""
        from fscli.api.records import Account
        from fscli.store import lists

        with self.viewing() as conn:
            return [Account(n, d or "", o or "") for n, d, o in lists.accounts(conn)]

    def users(self, cluster: str | None = None) -> list[User]:
        """Every user with its default account on ``cluster`` and admin level, by name.
        A user's default account is per cluster, as in Slurm: without ``cluster``, the
        store's only cluster's; in a store of several, the first added where the user
        has one, as ``sacctmgr show user`` reports it."""
        from fscli.api.records import User
        from fscli.store import lists
        from fscli.store.snapshot import cluster_id_for

        with self.viewing() as conn:
            chosen = cluster is not None or len(lists.clusters(conn)) == 1
            cid = cluster_id_for(conn, cluster) if chosen else None
            return [User(n, d or "", a) for n, d, a in lists.users(conn, cid)]

    def history(
        self,
        since: When = None,
        until: When = None,
        *,
        cluster: str | None = None,
        target: str | None = None,
        actor: str | None = None,
        action: str | None = None,
    ) -> list[Change]:
        """The recorded changes, oldest first: those at or after ``since`` and at or before
        ``until``, made on ``cluster`` (and, for a cluster's own rows, to it), to an object
        named ``target`` (any part of ``USER/ACCOUNT/PARTITION``), by ``actor``, whose
        action has every word of ``action`` (``modify``, ``delete qos``)."""
        from fscli.api.records import Change
        from fscli.store import lists
        from fscli.store.audit import decode

        start, end = (None if t is None else moment(t) for t in (since, until))
        with self.viewing() as conn:
            found = lists.changes(conn, start, end, cluster=cluster, actor=actor)
        rows = [
            Change(at, who, what, name, detail, where, _frozen(decode(kept)))
            for at, who, what, name, detail, where, kept in found
        ]
        if target is not None:
            rows = [c for c in rows if target.lower() in c.names()]
        if action is not None:
            rows = [c for c in rows if c.is_action(action)]
        return rows

    def settings(self, cluster: str | None = None) -> dict[str, str]:
        """The cluster's stored priority settings (slurm.conf names -> text); what is not
        there is at its default (``fscli.engine.config.KEYS``)."""
        from fscli.store.snapshot import cluster_id_for, load_config

        with self.viewing() as conn:
            return load_config(conn, cluster_id_for(conn, cluster))

    def qos(self) -> list:
        """Every QOS (engine ``Qos``, global to the store as in slurmdbd), by name."""
        from fscli.store.snapshot import load_qos

        with self.viewing() as conn:
            return sorted(load_qos(conn).values(), key=lambda q: q.name)

    def partitions(self, cluster: str | None = None) -> list:
        """The cluster's partitions (engine ``Partition``), by name."""
        from fscli.store.snapshot import cluster_id_for, load_partitions

        with self.viewing() as conn:
            parts = load_partitions(conn, cluster_id_for(conn, cluster))
        return sorted(parts.values(), key=lambda p: p.name)

    def jobs(self, cluster: str | None = None, **filters: set[str]) -> list:
        """:func:`fscli.api.jobs.list_jobs`: the jobs (engine ``Job``), oldest id first,
        filtered by ``user``, ``account``, ``state``, ``partition`` or ``queue`` sets."""
        from fscli.api.jobs import list_jobs

        return list_jobs(self, cluster, filters)

    def shares(
        self,
        cluster: str | None = None,
        at: When = None,
        algorithm: str | None = None,
        *,
        settings: bool = True,
        extras: bool = False,
    ) -> Shares:
        """sshare's rows at ``at`` (``cluster`` None: the store's only cluster; ``algorithm``
        None: the cluster's, from PriorityFlags). Without ``settings`` the associations
        are read without their limits, QOS lists and default QOS (faster): the rows'
        ``grp_tres_mins`` are then all None, and so are those of ``Shares.state``. With
        ``extras`` the answer's ``run_minutes`` and ``tres_usage`` come from the same read
        (else they are computed when first asked for). On an SQLite file the rows come
        from the pass cache when a view of the same pass kept them
        (:mod:`fscli.api.pass_shares`)."""
        from fscli.api.shares import shares

        return shares(self, cluster, moment(at), algorithm, settings=settings, extras=extras)

    def priorities(
        self,
        cluster: str | None = None,
        at: When = None,
        algorithm: str | None = None,
        *,
        jobs: Collection[int] | None = None,
        users: Collection[str] | None = None,
        partitions: Collection[str] | None = None,
    ) -> Priorities:
        """sprio's rows (every pending job, per partition) at ``at``; ``jobs``, ``users``,
        ``partitions``: only those jobs, those users' jobs, the jobs that ask for one of
        those partitions (with every partition they ask for)."""
        from fscli.api.priorities import priorities

        return priorities(
            self, cluster, moment(at), algorithm, jobs=jobs, users=users, partitions=partitions
        )

    # -- what-if ------------------------------------------------------------------------
    def shares_whatif(
        self,
        whatif: WhatIf,
        cluster: str | None = None,
        at: When = None,
        algorithm: str | None = None,
        *,
        settings: bool = True,
    ) -> ShareComparison:
        """sshare's rows at ``at`` as they are and with ``whatif`` (nothing is written);
        ``settings`` as for :meth:`shares`."""
        from fscli.api.whatif import shares_whatif

        return shares_whatif(self, cluster, moment(at), whatif, algorithm, settings=settings)

    def priorities_whatif(
        self,
        whatif: WhatIf,
        cluster: str | None = None,
        at: When = None,
        algorithm: str | None = None,
    ) -> PriorityComparison:
        """sprio's rows at ``at`` as they are and with ``whatif`` (nothing is written)."""
        from fscli.api.whatif import priorities_whatif

        return priorities_whatif(self, cluster, moment(at), whatif, algorithm)

    def solve_shares(
        self, assoc: str, field: str, target: float, cluster: str | None = None, at: When = None
    ) -> SharesAnswer:
        """The smallest RawShares of ``assoc`` that brings its ``field`` (FairShare or
        LevelFS) to ``target`` (:func:`fscli.api.solvers.solve_shares`)."""
        from fscli.api.solvers import solve_shares

        return solve_shares(self, cluster, moment(at), assoc, field, target)

    def solve_decay(
        self, assoc: str, target: float, cluster: str | None = None, at: When = None
    ) -> DecayAnswer:
        """When ``assoc``'s RawUsage falls to ``target`` with no new jobs
        (:func:`fscli.api.solvers.solve_decay`)."""
        from fscli.api.solvers import solve_decay

        return solve_decay(self, cluster, moment(at), assoc, target)

    # -- LSF ----------------------------------------------------------------------------
    def lsf_setup(self):
        """:func:`fscli.api.lsf.setup`: lsb.params values, queues and user groups."""
        from fscli.api.lsf import setup

        return setup(self)

    def bqueues(
        self,
        queues: list[str] | None = None,
        long: bool = False,
        cluster: str | None = None,
        at: When = None,
    ):
        """:func:`fscli.api.lsf.bqueues`: queue summaries (and ``long``: share blocks)."""
        from fscli.api.lsf import bqueues

        return bqueues(self, list(queues or []), cluster, moment(at), long)

    def lsf_explain(
        self,
        user: str,
        queues: list[str] | None = None,
        cluster: str | None = None,
        at: When = None,
    ) -> list[str]:
        """:func:`fscli.api.lsf.explain`: ``user``'s dynamic priority, term by term."""
        from fscli.api.lsf import explain

        return explain(self, list(queues or []), user, cluster, moment(at))

    def compare(self, queue: str | None = None, cluster: str | None = None, at: When = None):
        """:func:`fscli.api.lsf.compare`: users ranked by Slurm and by an LSF queue."""
        from fscli.api.lsf import compare

        return compare(self, queue, cluster, moment(at))

    def lsf_dispatch(
        self,
        slots: int,
        queues: list[str] | None = None,
        users: list[str] | None = None,
        jobs_per_user: int | None = None,
        cluster: str | None = None,
        at: When = None,
    ):
        """:func:`fscli.api.lsf.dispatch`: who gets ``slots`` free slots."""
        from fscli.api.lsf import dispatch

        return dispatch(self, list(queues or []), slots, users, jobs_per_user, cluster, moment(at))

    # -- limits -------------------------------------------------------------------------
    def own_limits(self, target, cluster: str | None = None, whatif=None):
        """:func:`fscli.api.limits.own_limits`: the limits set on ``target`` itself."""
        from fscli.api.limits import own_limits

        return own_limits(self, target, cluster, whatif)

    def effective_limits(
        self,
        user: str | None = None,
        account: str | None = None,
        partition: str | None = None,
        qos: str | None = None,
        cluster: str | None = None,
        at: When = None,
        whatif=None,
    ):
        """:func:`fscli.api.limits.effective_limits`: every limit in force for a job there,
        with what each GrpWall, GrpTRESMins and GrpTRESRunMins has used (with ``whatif``:
        as if it were made)."""
        from fscli.api.limits import effective_limits

        return effective_limits(self, user, account, partition, qos, cluster, moment(at), whatif)

    def check_job(self, user: str, at: When = None, **request):
        """:func:`fscli.api.limits.check_job`: run, pend (reason) or reject (message)."""
        from fscli.api.limits import check_job

        return check_job(self, user, at=moment(at), **request)

    def check_stored_job(self, job_id: int, at: When = None, **options):
        """:func:`fscli.api.limits.check_stored_job`: a stored pending job's limits now."""
        from fscli.api.limits import check_stored_job

        return check_stored_job(self, job_id, at=moment(at), **options)

    def why(self, job_id: int, cluster: str | None = None, at: When = None):
        """:func:`fscli.api.why.why`: why job ``job_id`` waits (squeue's Reason and more)."""
        from fscli.api.why import why

        return why(self, job_id, cluster, moment(at))

    def job_reasons(self, cluster: str | None = None, at: When = None) -> dict[int, str]:
        """Every pending job's Reason at ``at`` (:func:`fscli.api.why.schedule`)."""
        from fscli.api.why import schedule

        return schedule(self, cluster, moment(at), rows=False).reasons()

    # -- trees as code ----------------------------------------------------------------
    def plan_tree(self, spec, prune: bool = False):
        """:func:`fscli.api.trees.plan_tree`: what applying ``spec`` would change."""
        from fscli.api.trees import plan_tree

        return plan_tree(self, spec, prune)

    def tree_spec(self, cluster: str | None = None):
        """:func:`fscli.api.trees.tree_spec`: the cluster as a ``TreeSpec``."""
        from fscli.api.trees import tree_spec

        return tree_spec(self, cluster)

    def apply_tree(
        self, spec, prune: bool = False, dry_run: bool = False, at: When = None, **options
    ):
        """:func:`fscli.api.trees.apply_tree`: make the cluster match ``spec``."""
        from fscli.api.trees import apply_tree

        return apply_tree(self, spec, prune, dry_run, at, **options)

    # -- charts -------------------------------------------------------------------------
    def chart(self, kind: str, cluster: str | None = None, at: When = None, **options):
        """:func:`fscli.api.charts.chart`: the numbers of ``fscli plot KIND`` as plain
        series; a usage chart's ``start`` and ``end`` are moments (Slurm's words count
        from ``at``: ``now-28days``; no ``start``: the first usage charged)."""
        from fscli.api.charts import chart

        now = moment(at)
        for key in ("start", "end"):
            if options.get(key) is not None:
                options[key] = moment(options[key], now)
        return chart(self, kind, cluster, now, **options)
