"""Job rows: each job checked as slurmctld checks a submission and made into its row, and
the rows written with their history lines; ``job import`` whole.

A Slurm job names an association by (user, account[, partition]) and gets its QOS the way
slurmctld picks it: the one asked for, else the association's default QOS (inherited from
its parents), else the only allowed one, else ``normal``. The texts of the submission
errors are Slurm's (:mod:`fscli.engine.reasons`), followed by what exactly was wrong.
An LSF job names its LSF queue instead and needs no association.

Every query is SQL text (:mod:`fscli.store.sql`) and every insert goes through
:func:`fscli.store.bulk.insert_many`, so this code runs on an ORM session
(:class:`fscli.store.jobs.Jobs`, which adds submit, cancel and modify) and on a plain
``sqlite3`` connection alike (:func:`fscli.store.session.plain_writing`): an import of
100,000 jobs into an SQLite file does not load SQLAlchemy, whose import alone is a seventh
of its time. The caller's transaction makes a command all or nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import repeat
from operator import attrgetter, itemgetter
from typing import NamedTuple

from fscli.engine import qoslist
from fscli.engine import reasons as R
from fscli.engine.job_states import ACTIVE_STATES, SUBMIT_STATES
from fscli.engine.submit import JobInput
from fscli.engine.tres import format_tres
from fscli.errors import Conflict, InvalidValue, NotFound, UsageProblem
from fscli.heap import keep_until_exit
from fscli.store import sql
from fscli.store.assoc_fields import qos_list
from fscli.store.bulk import LOG_TABLE, insert_many, log_many
from fscli.store.pass_cache import stamped_once
from fscli.store.progress import Progress, tick


class ClusterRef(NamedTuple):
    """The cluster jobs are written to (its row's id and name)."""

    id: int
    name: str


def cluster_ref(conn, name: str | None) -> ClusterRef:
    """The cluster a command works on (``--cluster``, else the store's only one), as
    :meth:`fscli.store.admin.Admin.cluster` finds it."""
    from fscli.store.snapshot import cluster_id_for

    cid = cluster_id_for(conn, name, demo_hint=False)
    return ClusterRef(cid, sql.scalar(conn, "SELECT name FROM cluster WHERE id = :id", {"id": cid}))


def import_jobs(
    conn,
    cluster: str | None,
    now: int,
    actor: str,
    jobs: list[JobInput],
    replace_existing: bool,
    progress: Progress | None = None,
) -> list[str]:
    """:meth:`JobRows.import_jobs` into ``cluster`` (None: the store's only one), on a
    plain ``sqlite3`` connection."""
    return JobRows(conn, cluster_ref(conn, cluster), now, actor).import_jobs(
        jobs, replace_existing, progress
    )


class JobRows:
    """Job rows written inside one transaction (``conn``: an ORM session or a plain
    ``sqlite3`` connection), for one cluster (an object with its ``id`` and ``name``), at
    ``now``, logged as ``actor``'s."""

    def __init__(self, conn, cluster, now: int, actor: str):
        self.s = conn
        self.cluster = cluster
        self.now = now
        self.actor = actor
        self._cluster_id = cluster.id if cluster else None
        self._tres_texts: dict[tuple[tuple[str, int], ...], str] = {}  # the jobs repeat a few

    # -- rows ----------------------------------------------------------------------
    def _rows(self, jobs: list[JobInput], progress: Progress | None = None) -> list[tuple]:
        """Each job's row (the values of :data:`ROW_COLUMNS`), checked in order (so the
        first bad job is the one named) as slurmctld checks a submission. The store is
        asked once for the whole batch (:class:`_Lookup`), not once per job: at six
        queries a job, an import of 100,000 jobs took minutes. Rows are tuples, not dicts:
        100,000 of them go straight to the driver."""
        slurm = [j for j in jobs if not j.queue]
        lookup = _Lookup(self.s, self.cluster.id, slurm) if slurm and self.cluster else None
        common, lsf_row, slurm_row = self._common, self._lsf_row, self._slurm_row
        rows: list[tuple] = []
        append = rows.append
        total = len(jobs)
        for i, job in enumerate(jobs):
            tick(progress, i, total)
            times = common(job)
            append(lsf_row(job, job.queue, times) if job.queue else slurm_row(job, times, lookup))
        keep_until_exit(lookup)  # an import's: dicts of every user and association
        return rows

    def _write(self, rows: list[tuple]) -> list[str]:
        """Insert the job rows (:data:`ROW_COLUMNS` and the id) and a history line each,
        as two executemany inserts: an ORM object per row costs more than all the checks
        of the job. (An import of finished jobs only has none: an executemany of no rows
        would insert one row of defaults.) The rows go in by id, the primary key's order
        (squeue lists jobs by state and priority: in its order, SQLite's inserts into the
        key took a third longer); the history lines keep the order given. Returns each
        job's description, as its history line has it."""
        if not rows:
            return []
        details = list(map(_describe, rows))
        insert_many(self.s, "job", _INSERTED, sorted(rows, key=_BY_ID))
        targets = [str(row[-1]) for row in rows]
        log_many(self.s, self.now, self.actor, zip(repeat("submit job"), targets, details))
        return details

    def _common(self, job: JobInput) -> tuple:
        """The values of :data:`COMMON_COLUMNS`, after checking the state and filling the
        times it implies: submit defaults to now, or to an earlier start= or begin=; a
        started job starts at its submit time by default. A pending LSF job may have a
        start=: its planned start, for which the scheduler reserves its slots (bqueues'
        RESERVED)."""
        now = self.now
        if job.state not in SUBMIT_STATES:
            raise InvalidValue(f"invalid state '{job.state}': expected {', '.join(SUBMIT_STATES)}")
        submit = job.submit
        if submit is None:
            submit = min([now, *[t for t in (job.start, job.eligible) if t is not None]])
        start, end = job.start, job.end
        if job.state == "pending":
            if end is not None or (start is not None and job.queue is None):
                raise InvalidValue("a pending job has no start= or end= (use state=running)")
            if start is not None and start < submit:
                raise InvalidValue("start= is before the job's submit time")
        else:
            start = submit if start is None else start
            if start < submit:
                raise InvalidValue("start= is before the job's submit time")
            if job.state == "running" and end is not None:
                raise InvalidValue("a running job has no end= (use state=completed)")
            if job.state == "completed":
                if end is None:
                    raise InvalidValue("a completed job needs end=TIME")
                if end < start:
                    raise InvalidValue("end= is before the job's start")
        if job.eligible is not None and job.eligible < submit:
            raise InvalidValue("begin= is before the job's submit time")
        return (
            self._cluster_id,
            submit,
            job.eligible,
            start,
            end,
            job.time_limit,
            job.nice,
            job.site_factor,
            job.cputime,
        )

    def _lsf_row(self, job: JobInput, queue_name: str, common: tuple) -> tuple:
        queue = queue_name.lower()
        found = sql.scalar(self.s, "SELECT id FROM lsf_queue WHERE name = :name", {"name": queue})
        if found is None:
            raise NotFound(
                f"LSF queue '{job.queue}' does not exist: add it with "
                f"'fscli lsf queue add {job.queue}'"
            )
        if job.account or job.partitions or job.qos:
            raise UsageProblem("an LSF job (queue=) takes no account=, partition= or qos=")
        # user, account, partition, qos, queue, state, cpus, nodes, tres, assoc_id, slots
        return (
            job.user,
            None,
            None,
            None,
            queue,
            job.state,
            job.slots,
            1,
            None,
            None,
            job.slots,
            *common,
        )

    def _slurm_row(self, job: JobInput, common: tuple, lookup: _Lookup | None) -> tuple:
        if self.cluster is None or lookup is None:  # a lookup: made wherever there is a cluster
            raise NotFound("the store holds no cluster yet: add one with 'fscli cluster add NAME'")
        user = job.user.lower()
        account = job.account.lower() if job.account else lookup.default_account(user)
        names = tuple(job.partitions)
        partitions = lookup.checked_partitions.get(names)
        if partitions is None:
            partitions = lookup.checked_partitions[names] = self._partitions(
                names, lookup.partitions
            )
        own = lookup.assocs(user, account)
        for part in partitions or (None,):
            if own.get(part) is None and own.get(None) is None:
                where = f" and partition '{part}'" if part else ""
                raise NotFound(
                    f"{R.ERR_INVALID_ACCOUNT} (user '{user}' has no association "
                    f"with account '{account}'{where} on cluster {self.cluster.name})"
                )
        # the first partition's (each has one now): the job runs under it
        assoc = own.get(partitions[0] if partitions else None) or own[None]
        allowed, default = lookup.qos_rules(assoc)
        qos = _qos(
            job.qos, lookup.every_qos if allowed is None else allowed, default, lookup.known_qos
        )
        return (
            user,
            account,
            ",".join(partitions) or None,
            qos,
            None,
            job.state,
            job.cpus,
            job.nodes,
            self._tres_text(job.tres) if job.tres else None,
            assoc,
            job.slots,
            *common,
        )

    def _tres_text(self, tres: dict[str, int]) -> str:
        key = tuple(tres.items())
        text = self._tres_texts.get(key)
        if text is None:
            text = self._tres_texts[key] = format_tres(tres, units=False)
        return text

    def _partitions(self, names: tuple[str, ...], known: list[str]) -> list[str]:
        if not names:
            if len(known) > 1:
                raise UsageProblem(
                    f"name the job's partition(s) with partition=: cluster "
                    f"{self.cluster.name} has {', '.join(known)}"
                )
            return known
        out = []
        for name in names:
            if name not in known:
                raise NotFound(
                    f"{R.ERR_INVALID_PARTITION} ('{name}' is not a partition of "
                    f"cluster {self.cluster.name})"
                )
            if name in out:
                raise InvalidValue(f"partition '{name}' named twice")
            out.append(name)
        return out

    def _delete(self, ids: list[int]) -> None:
        """Delete the jobs of the sorted ``ids``, every one of which exists: each run of
        consecutive ids as one range (an import replacing 100,000 jobs of a queue dump
        deletes a few ranges, not 112 IN lists), the others in IN lists."""
        runs, single = _runs(ids)
        for first, last in runs:
            between = {"first": first, "last": last}
            sql.execute(self.s, "DELETE FROM job WHERE id BETWEEN :first AND :last", between)
        for part in sql.chunked(single):
            sql.execute(self.s, *_where("DELETE FROM job WHERE", sql.in_list("id", "i", part)))

    # -- import --------------------------------------------------------------------
    def import_jobs(
        self, jobs: list[JobInput], replace_existing: bool, progress: Progress | None = None
    ) -> list[str]:
        """Store the pending and running jobs read from squeue (finished ones carry no end
        time and are skipped); existing ids are a conflict unless replaced. ``progress(done,
        total)`` is told how far the checks are."""
        states = Counter(map(_STATE, jobs))
        finished = sum(n for state, n in states.items() if state not in ACTIVE_STATES)
        if finished:
            jobs = [j for j in jobs if j.state in ACTIVE_STATES]
        ids = list(map(_JOB_ID, jobs))
        wanted = set(ids)
        if len(wanted) != len(ids):
            raise Conflict("the file holds the same job id twice")
        existing: set[int] = set()
        if ids:  # one range query, not IN lists of 100,000 ids
            query = "SELECT id FROM job WHERE id BETWEEN :first AND :last"
            found = sql.rows(self.s, query, {"first": min(ids), "last": max(ids)})
            existing = {i for (i,) in found if i in wanted}
        if existing and not replace_existing:
            shown = ", ".join(map(str, sorted(existing)[:5]))
            raise Conflict(
                f"{len(existing)} job id(s) already in the store ({shown}): "
                "use --replace to overwrite them"
            )
        checked = self._rows(jobs, progress)
        rows = [(*row, job_id) for row, job_id in zip(checked, ids)]
        # the stamp triggers quiet for the bulk rows, the stamp set once
        with stamped_once(self.s, _WRITTEN, len(rows) + len(existing)):
            self._delete(sorted(existing))
            written = self._write(rows)
        # the command ends soon after: freeing 100,000 jobs object by object is wasted time
        keep_until_exit(jobs, checked, rows, written)
        counts = {state: n for state, n in states.items() if state in ACTIVE_STATES}
        summary = ", ".join(f"{n} {state}" for state, n in sorted(counts.items()))
        extra = "".join(
            [
                f", {len(existing)} replaced" if existing else "",
                f", {finished} finished skipped" if finished else "",
            ]
        )
        return [f"imported {len(jobs)} jobs ({summary or 'none'}{extra})"]


_WRITTEN = ("job", LOG_TABLE)
"""The tables an import writes in bulk: its jobs and a history line each."""

RUN = 64
"""Consecutive ids from this many on are deleted as one range, not listed."""


def _runs(ids: list[int]) -> tuple[list[tuple[int, int]], list[int]]:
    """Sorted ``ids`` as (first, last) runs of at least :data:`RUN` consecutive ids, and
    the ids in shorter runs."""
    runs: list[tuple[int, int]] = []
    single: list[int] = []
    start = 0
    for i in range(1, len(ids) + 1):
        if i == len(ids) or ids[i] != ids[i - 1] + 1:
            if i - start >= RUN:
                runs.append((ids[start], ids[i - 1]))
            else:
                single += ids[start:i]
            start = i
    return runs, single


_DESCRIBED = ("user", "account", "partition", "qos", "queue", "state", "cpus", "nodes", "tres")
COMMON_COLUMNS = (
    "cluster_id",
    "submit",
    "eligible",
    "start",
    "end",
    "time_limit",
    "nice",
    "site_factor",
    "cputime",
)
ROW_COLUMNS = (*_DESCRIBED, "assoc_id", "slots", *COMMON_COLUMNS)
"""The columns of a job's row as :meth:`Jobs._rows` makes it: those its history line
describes first, in that line's order."""
_INSERTED = (*ROW_COLUMNS, "id")
_BY_ID = itemgetter(-1)
_STATE = attrgetter("state")
_JOB_ID = attrgetter("job_id")


def _describe(row: tuple) -> str:
    """A job's history detail: ``key=value`` of the described columns that are set."""
    return " ".join([f"{k}={v}" for k, v in zip(_DESCRIBED, row) if v is not None])


def _qos(
    wanted: str | None, allowed: Sequence[str], default: str | None, known: set[str]
) -> str | None:
    """slurmctld's QOS choice and check, given what the association's chain says (its
    QOS list in force, sorted ``known`` where the chain has no QOS list, and its first
    default QOS, :meth:`_Lookup.qos_rules`); an empty list allows none."""
    if wanted is not None:
        name = wanted.lower()
        if name not in known or name not in allowed:
            why = (
                "does not exist"
                if name not in known
                else (f"is not allowed (allowed: {','.join(allowed)})")
            )
            raise InvalidValue(f"{R.ERR_INVALID_QOS} (QOS '{wanted}' {why})")
        return name
    if default is None:
        default = allowed[0] if len(allowed) == 1 else "normal"
    return default if default in known else None


class _Lookup:
    """What checking Slurm jobs asks of the store, loaded once for a batch of jobs: the
    cluster's partitions, the known QOS, the users' default accounts, and every
    association of the accounts the jobs name (or default to) with its ancestors.

    One lookup serves a single ``job submit`` (a handful of queries) and an import of
    100,000 jobs (a handful more) alike, so both check jobs with the same code. Queries
    select by cluster and account, which ``ix_association_key`` leads with, in IN lists of
    :data:`~fscli.store.sql.IN_LIST` (every backend's bind-parameter limit), or read
    every row when the jobs name many of them (:func:`_matching`). The big
    reads come back as the driver's tuples (:mod:`fscli.store.sql`): SQLAlchemy's row
    objects cost as much as the query.
    """

    def __init__(self, s, cluster_id: int, jobs: list[JobInput]):
        query = 'SELECT name FROM "partition" WHERE cluster_id = :cluster ORDER BY name'
        self.partitions = [name for (name,) in sql.rows(s, query, {"cluster": cluster_id})]
        self.known_qos = {name for (name,) in sql.rows(s, "SELECT name FROM qos")}
        self.every_qos = sorted(self.known_qos)  # what a chain without QOS lists allows
        self.checked_partitions: dict[tuple[str, ...], list[str]] = {}  # Jobs._slurm_row's
        users = sorted({j.user.lower() for j in jobs if not j.account})
        self._defaults: dict[str, str] = {}
        for user, account in sorted(  # the default on this cluster (store.user_defaults)
            _matching(
                s,
                '"user", account',
                "association",
                "cluster_id = :cluster AND is_default = :yes",
                ('"user"', "user_account"),
                users,
                {"cluster": cluster_id, "yes": True},
            ),
            reverse=True,
        ):
            self._defaults[user] = account
        accounts = sorted(
            {j.account.lower() for j in jobs if j.account}
            | {d for u in users if (d := self._defaults.get(u))}  # it may hold every user
        )
        cols = 'id, parent_id, "user", account, "partition", qos, default_qos'
        here = {"cluster": cluster_id}
        where = "cluster_id = :cluster"
        rows = _matching(s, cols, "association", where, ("account", "account"), accounts, here)
        self._assocs: dict[tuple[str, str], dict[str | None, int]] = {}
        self._chain: dict[int, tuple[int | None, str | None, str | None]] = {}
        while rows:
            for aid, parent, user, account, partition, qos, default_qos in rows:
                self._chain[aid] = (parent, qos, default_qos)
                if user is not None:
                    self._assocs.setdefault((user, account), {})[partition] = aid
            missing = sorted({r[1] for r in rows if r[1] is not None} - self._chain.keys())
            rows = [
                r
                for part in sql.chunked(missing)
                for r in sql.rows(
                    s,
                    *_where(f"SELECT {cols} FROM association WHERE", sql.in_list("id", "i", part)),
                )
            ]
        self._rules: dict[int, tuple[tuple[str, ...] | None, str | None]] = {}

    def default_account(self, user: str) -> str:
        """The account sbatch uses without ``-A``."""
        default = self._defaults.get(user)
        if default is None:
            raise NotFound(f"{R.ERR_INVALID_ACCOUNT} (user '{user}' does not exist)")
        return default

    def assocs(self, user: str, account: str) -> dict[str | None, int]:
        """The ids of the user's associations with the account by partition (None: the one
        for every partition, which a job of a partition without its own runs under); one
        look-up a job, whatever the partitions it names."""
        return self._assocs.get((user, account), _NONE)

    def qos_rules(self, assoc_id: int) -> tuple[tuple[str, ...] | None, str | None]:
        """(QOS list, default QOS) of the association, each the first one set on the way
        up its parent chain (an empty list where the first set one names none). Each
        association's pair is made once, from its parent's."""
        rules = self._rules.get(assoc_id)
        if rules is not None:  # the jobs of one association, after the first
            return rules
        parent, qos, default_qos = self._chain[assoc_id]
        if not (qos or default_qos) and parent in self._rules:  # most users: the parent's
            rules = self._rules[assoc_id] = self._rules[parent]
            return rules
        path = []
        node: int | None = assoc_id
        while node is not None and node not in self._rules:
            path.append(node)
            node = self._chain[node][0]
        rules = (None, None) if node is None else self._rules[node]
        for aid in reversed(path):
            _, qos, default_qos = self._chain[aid]
            if qos or default_qos:  # else its parent's pair, as it is (most users')
                listed = qoslist.inherit(rules[0], qos_list(qos), self.known_qos)
                rules = (listed, default_qos or rules[1])
            self._rules[aid] = rules
        return rules


_NONE: dict[str | None, int] = {}
"""The associations of a user and account that have none (never written to)."""

SCAN = 8
"""Where the names asked for are at least 1/SCAN of all names, one query reads every row:
a row read costs about an eighth of a name looked up in an IN list."""


def _matching(
    s,
    cols: str,
    table: str,
    where: str,
    column: tuple[str, str],
    values: list[str],
    params: dict | None = None,
) -> list:
    """``cols`` of the ``table`` rows (those meeting ``where``, if given, with ``params``)
    whose ``column`` (its name, and the table of every name it takes) is among
    ``values``, as plain tuples: by IN lists of :data:`~fscli.store.sql.IN_LIST`; or,
    when there are more values than one list holds and at least 1/:data:`SCAN` of all
    names (an import of 100,000 jobs names 25,000 of 100,000 users), by one query that
    reads every row, whose extra rows cost less than the dozens of IN lists."""
    clause = f" WHERE {where}" if where else ""
    name, names = column
    if len(values) > sql.IN_LIST:
        count = sql.scalar(s, f"SELECT COUNT(*) FROM {names}")
        if len(values) * SCAN >= count:
            return sql.rows(s, f"SELECT {cols} FROM {table}{clause}", params)
    query = f"SELECT {cols} FROM {table}{clause} {'AND' if where else 'WHERE'}"
    return [
        r
        for part in sql.chunked(values)
        for r in sql.rows(s, *_where(query, sql.in_list(name, "v", part), params))
    ]


def _where(query: str, condition: tuple[str, dict], params: dict | None = None) -> tuple:
    """(``query`` ending in WHERE/AND followed by ``condition``'s SQL, their parameters)."""
    text, values = condition
    return f"{query} {text}", {**(params or {}), **values}
