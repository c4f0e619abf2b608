"""Jobs in the store: submit (validated like slurmctld's ``_job_create``), cancel, import.

A Slurm job names an association by (user, account[, partition]) and gets its QOS the way
slurmctld picks it: the one asked for, else the association's default QOS (inherited from
its parents), else the only allowed one, else ``normal``. The texts of the submission
errors are Slurm's (:mod:`fscli.engine.reasons`), followed by what exactly was wrong.
An LSF job names its LSF queue instead and needs no association.

Every write is logged (``fscli history``); the caller's transaction makes a command all or
nothing.
"""

from __future__ import annotations

from collections import Counter
from itertools import repeat
from operator import attrgetter, itemgetter

from sqlalchemy import delete, func, select

from fscli.engine import qoslist
from fscli.engine import reasons as R
from fscli.engine.submit import JobInput
from fscli.engine.tres import format_tres
from fscli.errors import Conflict, InvalidValue, NotFound, UsageProblem
from fscli.heap import keep_until_exit
from fscli.store import admin as store_admin
from fscli.store import models as m
from fscli.store import sql, tables
from fscli.store.admin import Admin, chunked
from fscli.store.assoc_fields import qos_list
from fscli.store.bulk import insert_tuples
from fscli.store.job_states import ACTIVE_STATES, MAX_JOB_ID, SUBMIT_STATES
from fscli.store.progress import Progress, tick

MAX_COUNT = 100_000  # jobs one submit makes: each is a row and a history line in one transaction


class Jobs:
    """Job writes inside one transaction, for one cluster."""

    def __init__(self, admin: Admin, cluster: m.Cluster | None):
        self.admin = admin
        self.s = admin.s
        self.cluster = cluster
        self._next_id: int | None = None
        self._cluster_id = cluster.id if cluster else None
        self._tres_texts: dict[tuple[tuple[str, int], ...], str] = {}  # the jobs repeat a few

    # -- submit --------------------------------------------------------------------
    def submit(self, job: JobInput, count: int = 1) -> tuple[list[int], list[str]]:
        """Validate and store ``count`` copies of ``job``; (new ids, summary lines).

        A Slurm job is also checked as slurmctld checks a submission (the limits checker
        of ``limits check``): one it would refuse is not stored. Its default memory
        (DefMemPerCPU, ...) is filled in, so memory limits count it."""
        [row] = self._rows([job])
        if not job.queue:
            row = self._as_submitted(job, row, count)
        ids = self._ids(job.job_id, count)
        details = self._write([(*row, job_id) for job_id in ids])
        return ids, [f"submitted job {i}: {detail}" for i, detail in zip(ids, details)]

    def _as_submitted(self, job: JobInput, values: tuple, count: int) -> tuple:
        """The row ``values`` with the job's CPUs and TRES as slurmctld fills them in, or
        :class:`InvalidValue` with sbatch's error when it would refuse a pending or
        running job (a completed one is history: it is stored as given). The last of
        ``count`` submissions is checked: the ``count - 1`` before it count as submitted."""
        from fscli.engine.limits.check import JobRequest, check, describe
        from fscli.engine.limits.counting import JobGroup
        from fscli.engine.submit import fill_memory
        from fscli.engine.tres import request_tres
        from fscli.store.limits import state as limit_state

        row = dict(zip(ROW_COLUMNS, values))
        conn = self.s.connection()
        state = limit_state.load(conn, self.cluster.name, row["user"], row["account"])
        cpus, tres = fill_memory(job.cpus, job.nodes, job.tres, state.memory)
        if job.state in ("pending", "running"):
            partition = row["partition"].split(",")[0] if row["partition"] else None
            req = JobRequest(
                row["user"],
                row["account"],
                partition,
                row["qos"],
                request_tres(job.cpus, job.nodes, job.tres),
                job.time_limit,
            )
            limit_state.attach_jobs(conn, self.cluster.name, state, self.admin.now)
            if count > 1:
                stored, before = (
                    state.count_jobs,
                    JobGroup(
                        row["assoc_id"],
                        False,
                        count - 1,
                        {},
                        qos=row["qos"],
                        partition=partition,
                        user=row["user"],
                        account=row["account"],
                    ),
                )
                state.count_jobs = lambda scope: [*stored(scope), before]
            result = check(req, state, self.admin.now)
            if result.verdict == "reject":
                why = describe(result).removeprefix("reject: ")
                raise InvalidValue(f"{result.error}: {why}" if result.reason else why)
        row.update(cpus=cpus, tres=format_tres(tres, units=False) if tres else None)
        return tuple(row.values())

    def _rows(self, jobs: list[JobInput], progress: Progress | None = None) -> list[tuple]:
        """Each job's row (the values of :data:`ROW_COLUMNS`), checked in order (so the
        first bad job is the one named) as slurmctld checks a submission. The store is
        asked once for the whole batch (:class:`_Lookup`), not once per job: at six
        queries a job, an import of 100,000 jobs took minutes. Rows are tuples, not dicts:
        100,000 of them go straight to the driver."""
        slurm = [j for j in jobs if not j.queue]
        lookup = _Lookup(self.s, self.cluster.id, slurm) if slurm and self.cluster else None
        common, lsf_row, slurm_row = self._common, self._lsf_row, self._slurm_row
        rows = []
        append = rows.append
        total = len(jobs)
        for i, job in enumerate(jobs):
            tick(progress, i, total)
            times = common(job)
            append(lsf_row(job, times) if job.queue else slurm_row(job, times, lookup))
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
        self.s.flush()  # what the session holds goes first
        insert_tuples(self.s.connection(), tables.job, _INSERTED, sorted(rows, key=_BY_ID))
        self.admin.log_many(zip(repeat("submit job"), [str(row[-1]) for row in rows], details))
        return details

    def _ids(self, wanted: int | None, count: int) -> list[int]:
        if count < 1:
            raise InvalidValue(f"invalid count '{count}': expected a whole number >= 1")
        if count > MAX_COUNT:
            raise InvalidValue(f"invalid count '{count}': at most {MAX_COUNT:,} jobs per submit")
        given = wanted is not None
        if wanted is None:
            if self._next_id is None:
                self._next_id = (self.s.scalar(select(func.max(m.Job.id))) or 0) + 1
            wanted = self._next_id
        if wanted + count - 1 > MAX_JOB_ID:
            if given:
                raise InvalidValue(
                    f"invalid id '{wanted}': {count} job(s) from it go past {MAX_JOB_ID}"
                )
            raise Conflict(
                f"no new job id left after job {wanted - 1} (job ids go up to "
                f"{MAX_JOB_ID}): choose free ones with id="
            )
        ids = list(range(wanted, wanted + count))
        taken = self.s.scalar(
            select(m.Job.id).where(m.Job.id.between(ids[0], ids[-1])).order_by(m.Job.id).limit(1)
        )
        if taken is not None:
            raise Conflict(f"job {taken} already exists (cancel it or choose another id=)")
        self._next_id = ids[-1] + 1
        return ids

    def _common(self, job: JobInput) -> tuple:
        """The values of :data:`COMMON_COLUMNS`, after checking the state and filling the
        times it implies: submit defaults to now, or to an earlier start= or begin=; a
        started job starts at its submit time by default. A pending LSF job may have a
        start=: its planned start, for which the scheduler reserves its slots (bqueues'
        RESERVED)."""
        now = self.admin.now
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

    def _lsf_row(self, job: JobInput, common: tuple) -> tuple:
        queue = job.queue.lower()
        if self.s.scalar(select(m.LsfQueue.id).where(m.LsfQueue.name == queue)) is None:
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
        if self.cluster is None:
            raise NotFound("the store holds no cluster yet: add one with 'fscli cluster add NAME'")
        user = job.user.lower()
        account = job.account.lower() if job.account else lookup.default_account(user)
        names = tuple(job.partitions)
        partitions = lookup.checked_partitions.get(names)
        if partitions is None:
            partitions = lookup.checked_partitions[names] = self._partitions(
                names, lookup.partitions
            )
        assoc = None
        own = lookup.assocs(user, account)
        for part in partitions or (None,):
            found = own.get(part) or own.get(None)
            if found is None:
                where = f" and partition '{part}'" if part else ""
                raise NotFound(
                    f"{R.ERR_INVALID_ACCOUNT} (user '{user}' has no association "
                    f"with account '{account}'{where} on cluster {self.cluster.name})"
                )
            assoc = assoc or found
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

    # -- cancel --------------------------------------------------------------------
    def cancel(self, ids: list[int]) -> list[str]:
        """scancel: pending and running jobs become cancelled (end = now), each once."""
        ids = list(dict.fromkeys(ids))
        rows = self._active_jobs(
            ids,
            lambda i: f"Kill job error on job id {i}: Invalid job id specified",
            lambda j: f"Kill job error on job id {j.id}: Job/step already completing or completed",
        )
        lines = []
        for job_id in ids:
            row = rows[job_id]
            was = row.state
            row.state, row.end = "cancelled", max(self.admin.now, row.start or row.submit)
            self.admin.log("cancel job", str(job_id), f"was {was}")
            lines.append(f"cancelled job {job_id} (was {was})")
        return lines

    def _active_jobs(self, ids: list[int], missing, finished) -> dict[int, m.Job]:
        """The jobs by id, each of which must exist and be pending or running (checked in
        the order given, so the first bad id is the one named). Read in IN lists of
        :data:`~fscli.store.admin.IN_LIST`: a mass cancel may name more ids than a server
        binds (PostgreSQL: 65,535)."""
        rows = {
            j.id: j
            for part in chunked(ids)
            for j in self.s.scalars(select(m.Job).where(m.Job.id.in_(part)))
        }
        for job_id in ids:
            row = rows.get(job_id)
            if row is None:
                raise NotFound(missing(job_id))
            if row.state not in ACTIVE_STATES:
                raise Conflict(finished(row))
        return rows

    def _delete(self, ids: list[int]) -> None:
        """Delete the jobs of the sorted ``ids``, every one of which exists: each run of
        consecutive ids as one range (an import replacing 100,000 jobs of a queue dump
        deletes a few ranges, not 112 IN lists), the others in IN lists."""
        job = tables.job
        runs, single = _runs(ids)
        for first, last in runs:
            self.s.execute(delete(job).where(job.c.id.between(first, last)))
        for part in chunked(single):
            self.s.execute(delete(job).where(job.c.id.in_(part)))

    # -- modify --------------------------------------------------------------------
    def modify(self, ids: list[int], changes: dict[str, int | None]) -> list[str]:
        """scontrol update job: ``changes`` maps ``admin_priority``, ``nice`` or
        ``site_factor`` to the new value (``admin_priority`` None releases the job to the
        priority plugin again). Only pending and running jobs change, each once."""
        ids = list(dict.fromkeys(ids))
        rows = self._active_jobs(
            ids,
            lambda i: f"job {i} does not exist",
            lambda j: f"job {j.id} is {j.state}: only pending or running jobs can be modified",
        )
        lsf = next((i for i in ids if rows[i].queue is not None), None)
        if lsf is not None:
            raise UsageProblem(f"job {lsf} is an LSF job: it has no Slurm priority")
        lines = []
        for job_id in ids:
            row = rows[job_id]
            changed = [
                _shown(key, value) for key, value in changes.items() if getattr(row, key) != value
            ]
            for key, value in changes.items():
                setattr(row, key, value)
            if not changed:
                lines.append(f"job {job_id}: nothing to change")
                continue
            detail = " ".join(changed)
            self.admin.log("modify job", str(job_id), detail)
            lines.append(f"modified job {job_id}: {detail}")
        return lines

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
            between = m.Job.id.between(min(ids), max(ids))
            existing = {i for i in self.s.scalars(select(m.Job.id).where(between)) if i in wanted}
        if existing and not replace_existing:
            shown = ", ".join(map(str, sorted(existing)[:5]))
            raise Conflict(
                f"{len(existing)} job id(s) already in the store ({shown}): "
                "use --replace to overwrite them"
            )
        checked = self._rows(jobs, progress)
        self._delete(sorted(existing))
        rows = [(*row, job_id) for row, job_id in zip(checked, ids)]
        # the command ends soon after: freeing 100,000 jobs object by object is wasted time
        keep_until_exit(jobs, checked, rows, self._write(rows))
        counts = {state: n for state, n in states.items() if state in ACTIVE_STATES}
        summary = ", ".join(f"{n} {state}" for state, n in sorted(counts.items()))
        extra = "".join(
            [
                f", {len(existing)} replaced" if existing else "",
                f", {finished} finished skipped" if finished else "",
            ]
        )
        return [f"imported {len(jobs)} jobs ({summary or 'none'}{extra})"]


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


def _shown(key: str, value: int | None) -> str:
    """A job change as the user wrote it: ``priority=999``, ``priority=released``."""
    if key == "admin_priority":
        return "priority=" + {None: "released", 0: "0 (held)"}.get(value, str(value))
    return f"{key.replace('_', '')}={value}"


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
    wanted: str | None, allowed: list[str], default: str | None, known: set[str]
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
    :data:`~fscli.store.admin.IN_LIST` (every backend's bind-parameter limit), or read
    every row when the jobs name many of them (:func:`_matching`). The big
    reads come back as the driver's tuples (:mod:`fscli.store.sql`): SQLAlchemy's row
    objects cost as much as the query.
    """

    def __init__(self, s, cluster_id: int, jobs: list[JobInput]):
        p = tables.partition.c
        self.partitions = list(
            s.scalars(select(p.name).where(p.cluster_id == cluster_id).order_by(p.name))
        )
        self.known_qos = set(s.scalars(select(tables.qos.c.name)))
        self.every_qos = sorted(self.known_qos)  # what a chain without QOS lists allows
        self.checked_partitions: dict[tuple[str, ...], list[str]] = {}  # Jobs._slurm_row's
        users = sorted({j.user.lower() for j in jobs if not j.account})
        self._defaults = dict(
            _matching(
                s, "name, default_account", "user_account", "", ("name", "user_account"), users
            )
        )
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
                for part in chunked(missing)
                for r in sql.rows(
                    s,
                    *_where(f"SELECT {cols} FROM association WHERE", sql.in_list("id", "i", part)),
                )
            ]
        self._rules: dict[int, tuple[list[str] | None, str | None]] = {}

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

    def qos_rules(self, assoc_id: int) -> tuple[list[str] | None, str | None]:
        """(QOS list, default QOS) of the association, each the first one set on the way
        up its parent chain (an empty list where the first set one names none). Each
        association's pair is made once, from its parent's."""
        rules = self._rules.get(assoc_id)
        if rules is not None:  # the jobs of one association, after the first
            return rules
        path = []
        while assoc_id is not None and assoc_id not in self._rules:
            path.append(assoc_id)
            assoc_id = self._chain[assoc_id][0]
        rules = self._rules.get(assoc_id, (None, None))
        for aid in reversed(path):
            _, qos, default_qos = self._chain[aid]
            if qos or default_qos:  # else its parent's pair, as it is (most users')
                listed = qoslist.inherit(rules[0], qos_list(qos), self.known_qos)
                rules = (None if listed is None else list(listed), default_qos or rules[1])
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
    ``values``, as plain tuples: by IN lists of :data:`~fscli.store.admin.IN_LIST`; or,
    when there are more values than one list holds and at least 1/:data:`SCAN` of all
    names (an import of 100,000 jobs names 25,000 of 100,000 users), by one query that
    reads every row, whose extra rows cost less than the dozens of IN lists."""
    clause = f" WHERE {where}" if where else ""
    name, names = column
    if len(values) > store_admin.IN_LIST:
        count = sql.scalar(s, f"SELECT COUNT(*) FROM {names}")
        if len(values) * SCAN >= count:
            return sql.rows(s, f"SELECT {cols} FROM {table}{clause}", params)
    query = f"SELECT {cols} FROM {table}{clause} {'AND' if where else 'WHERE'}"
    return [
        r
        for part in chunked(values)
        for r in sql.rows(s, *_where(query, sql.in_list(name, "v", part), params))
    ]


def _where(query: str, condition: tuple[str, dict], params: dict | None = None) -> tuple:
    """(``query`` ending in WHERE/AND followed by ``condition``'s SQL, their parameters)."""
    text, values = condition
    return f"{query} {text}", {**(params or {}), **values}
