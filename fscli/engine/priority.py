"""Multifactor job priority, the way Slurm's ``priority/multifactor`` plugin computes it.

Priority = site + Σ(weight × factor) + Σ(TRES weight × TRES factor) − nice, in double
precision; below 1 it becomes 1 (0 means "held"), then it is truncated to an integer and
capped at 4294967295. Factors are 0..1 unless a ``NO_NORMAL_*`` flag asks for the raw value:

* age: time since the job became eligible (since submit with ``ACCRUE_ALWAYS``) over
  ``PriorityMaxAge``, counted to the last decay pass: slurmctld sets a job's factors when
  it is submitted and again at each pass (``PriorityCalcPeriod``), and sprio shows the
  factors it set, so a job waits in steps of a pass, and one that came since the last
  pass has waited 0;
* assoc: the association's priority (inherited from its parents when unset) over the
  largest association priority;
* fair-share: the association's fair-share factor, computed by the fair-share engine and
  passed in as ``fs_factors``;
* job size: nodes and CPUs over the cluster's (``PriorityFavorSmall``,
  ``SMALL_RELATIVE_TO_TIME``);
* partition: ``PriorityJobFactor`` over the largest one;
* QOS: the QOS priority over the largest QOS priority;
* TRES: the job's count of each TRES named in ``PriorityWeightTRES`` over its partition's
  total.

A job gets one row per partition it asked for: only the partition and TRES factors differ.
Jobs with an admin-set priority keep it and show every factor as 0, as in Slurm.

Each factor that does not depend on the job (partition, QOS, association normalisation,
cluster size) is computed once, what depends on a job's shape (size, partitions, TRES) once
per shape, and the rest column by column (:class:`PriorityColumns`): a queue of 100,000
jobs costs a few C-level passes per factor, and no object per row unless asked for. The
queue comes as columns too (:class:`QueueColumns`; jobs made elsewhere come in through
``QueueColumns.of_jobs``), and the associations as the store reads them
(:class:`~fscli.engine.model.AssocColumns`): no object per job or association is made
either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import partial
from itertools import chain, compress, islice, repeat
from operator import add, attrgetter, gt, is_, itemgetter, le, mul, not_, sub
from typing import Any, cast

from fscli.engine.config import WEIGHT_KEYS as _WEIGHT_KEY_NAMES
from fscli.engine.config import PriorityConfig
from fscli.engine.model import AssocColumns, ClusterInfo, Job, Partition, Qos
from fscli.engine.passes import last_pass
from fscli.engine.timestr import INFINITE_MINUTES, format_secs
from fscli.engine.tres import request_tres, tres_order
from fscli.errors import InvalidValue, NotFound

FACTORS = ("age", "assoc", "fairshare", "jobsize", "partition", "qos")
"""The weighted factors, in sprio's column order."""

WEIGHT_KEYS = dict(zip(FACTORS, _WEIGHT_KEY_NAMES))
"""Factor name -> its slurm.conf weight key (``PriorityWeightAge`` ...)."""

PRIORITY_MAX = 0xFFFFFFFF
"""Job priorities are 32-bit; sprio's normalized PRIORITY is the sum divided by this."""

NICE_RANGE = 2147483645
"""Nice and site factor are stored offset by 0x80000000; this is the usable range."""

OVERFLOW_WARNING = "PriorityWeight values too high, job priority value may overflow"

_NO_NORMAL = {
    "assoc": "NO_NORMAL_ASSOC",
    "partition": "NO_NORMAL_PART",
    "qos": "NO_NORMAL_QOS",
    "tres": "NO_NORMAL_TRES",
}


@dataclass(slots=True)
class PriorityRow:
    """One job in one partition: sprio's row.

    ``factor_values`` are the factor values in :data:`FACTORS` order (normalized 0..1, or raw
    with ``NO_NORMAL_*``), ``weighted_values`` factor × weight as unrounded doubles; the TRES
    tuples follow ``tres_names`` (the TRES with a weight, in PriorityWeightTRES order).
    ``exact`` is sprio's sum (at least 1, before truncation) and ``priority`` the integer
    Slurm stores (truncated, capped at 4294967295). Tuples rather than dicts keep a queue of
    100,000 jobs cheap; ``factors``, ``weighted``, ``tres_factors`` and ``tres_weighted``
    give them as dicts.
    """

    job_id: int
    partition: str
    user: str
    account: str
    qos: str
    cluster: str
    assoc_id: int | None
    factor_values: tuple[float, ...]
    weighted_values: tuple[float, ...]
    tres_names: tuple[str, ...]
    tres_factor_values: tuple[float, ...]
    tres_weighted_values: tuple[float, ...]
    site: int
    nice: int
    exact: float
    priority: int
    admin_set: bool = False
    job: Job | None = field(default=None, repr=False, compare=False)
    context: _Context | None = field(default=None, repr=False, compare=False)

    @property
    def factors(self) -> dict[str, float]:
        return dict(zip(FACTORS, self.factor_values))

    @property
    def weighted(self) -> dict[str, float]:
        return dict(zip(FACTORS, self.weighted_values))

    @property
    def tres_factors(self) -> dict[str, float]:
        return dict(zip(self.tres_names, self.tres_factor_values))

    @property
    def tres_weighted(self) -> dict[str, float]:
        return dict(zip(self.tres_names, self.tres_weighted_values))

    @property
    def normalized_priority(self) -> float:
        """sprio's ``%y``: the unrounded sum over 4294967295 (admin-set: the value itself)."""
        return normalized_priority(self.exact, self.admin_set)


def normalized_priority(exact: float, admin_set: bool) -> float:
    """sprio's ``%y`` of a row: ``exact`` over 4294967295, or itself if an admin set it."""
    return exact if admin_set else exact / PRIORITY_MAX


@dataclass(repr=False)  # 100,000 jobs: never printed whole
class QueueColumns:
    """A queue of jobs as columns: one sequence per field of :class:`Job` that the
    priority reads (named as in Job), one item per job, for :func:`compute_priorities`.

    The store reads sprio's queue this way: 100,000 jobs took 200 ms to read as objects
    and 40 ms more to be read back into columns here, 150 ms to read as columns. The jobs
    are made only when one is asked for (``--explain``, :attr:`PriorityColumns.rows`):
    then every one at once (40 ms, one by one 150) and once only. The columns are not
    to be changed.
    """

    id: Sequence[int]
    user: Sequence[str]
    account: Sequence[str | None]
    assoc_id: Sequence[int | None]
    partitions: Sequence[tuple[str, ...]]
    qos: Sequence[str | None]
    state: Sequence[str]
    submit: Sequence[int]
    eligible: Sequence[int | None]
    cpus: Sequence[int]
    nodes: Sequence[int]
    tres: Sequence[dict[str, int]]
    time_limit: Sequence[int | None]
    nice: Sequence[int]
    site_factor: Sequence[int]
    admin_priority: Sequence[int | None]
    _jobs: list[Job] | None = field(default=None, init=False, compare=False)

    @classmethod
    def of_jobs(cls, jobs: Sequence[Job]) -> QueueColumns:
        return cls(*(list(map(attrgetter(name), jobs)) for name in _QUEUE_FIELDS))

    def __len__(self) -> int:
        return len(self.id)

    def __getitem__(self, i: int) -> Job:
        """The job at position ``i`` (what the priority does not read, such as run times
        and LSF fields, left at Job's defaults)."""
        if self._jobs is None:
            columns = [
                getattr(self, f.name) if f.name in _QUEUE_FIELDS else repeat(f.default)
                for f in fields(Job)
            ]
            self._jobs = list(map(Job, *columns))
        return self._jobs[i]

    def take(self, positions: list[int]) -> QueueColumns:
        """The jobs at ``positions``, in that order."""
        return QueueColumns(*(_picked(positions, getattr(self, name)) for name in _QUEUE_FIELDS))


_QUEUE_FIELDS = tuple(f.name for f in fields(QueueColumns) if f.init)


@dataclass(eq=False, repr=False)  # 100,000 rows: never compared or printed whole
class PriorityColumns:
    """sprio's rows as columns: one list per field of :class:`PriorityRow`, one item per
    row (``factors`` and ``weighted``: one list per factor, in :data:`FACTORS` order; each
    row's job: its position in ``queue``, ``job_index``).

    A queue of 100,000 jobs is scored column by column, and sprio's text is made from the
    columns; the row objects (110,000 of them cost 40 ms) are made only for who asks for
    :attr:`rows` (JSON, tables, ``--explain``, library callers).
    """

    job_id: list[int]
    partition: list[str]
    user: list[str]
    account: list[str]
    qos: list[str]
    cluster: list[str]
    assoc_id: list[int | None]
    factors: list[list[float]]
    weighted: list[list[float]]
    tres_names: list[tuple[str, ...]]
    tres_factor_values: list[tuple[float, ...]]
    tres_weighted_values: list[tuple[float, ...]]
    site: list[int]
    nice: list[int]
    exact: list[float]
    priority: list[int]
    admin_set: list[bool]
    job_index: list[int]
    queue: Sequence[Job | None] | QueueColumns
    context: _Context | None = None

    def __len__(self) -> int:
        return len(self.job_id)

    @property
    def rows(self) -> list[PriorityRow]:
        return list(map(PriorityRow, *self.row_fields(), repeat(self.context, len(self))))

    def row_fields(self) -> list[Iterable]:
        """Each field of :class:`PriorityRow` but ``context``, in its order, as one iterable
        over the rows (the factors' tuples, and the jobs, made as they are read). Each row's
        job is the one at its ``job_index`` in ``queue``: a list of jobs, or the
        :class:`QueueColumns` they were read as (which makes a job when asked for one)."""
        columns: list[Iterable] = [getattr(self, f.name) for f in fields(self)[:-3]]
        columns[7:9] = zip(*self.factors), zip(*self.weighted)
        return [*columns, map(self.queue.__getitem__, self.job_index)]

    @classmethod
    def of_rows(cls, rows: Sequence[PriorityRow]) -> PriorityColumns:
        """The columns of rows made elsewhere (by hand, or picked from :attr:`rows`)."""
        columns: list[Any] = [list(map(attrgetter(f.name), rows)) for f in fields(PriorityRow)[:-2]]
        width = len(FACTORS)
        columns[7:9] = _columns(columns[7], width), _columns(columns[8], width)
        columns += [list(range(len(rows))), list(map(attrgetter("job"), rows))]
        return cls(*columns)

    def take(self, positions: Iterable[int]) -> PriorityColumns:
        """The rows at ``positions``, in that order."""
        pick = partial(_picked, list(positions))
        columns: dict[str, Any] = {
            f.name: pick(getattr(self, f.name))
            for f in fields(self)
            if f.name not in ("factors", "weighted", "queue", "context")
        }
        columns["factors"] = list(map(pick, self.factors))
        columns["weighted"] = list(map(pick, self.weighted))
        return replace(self, **columns)


@dataclass
class PriorityResult:
    """Rows sorted by job id (then the job's partition order), as columns, and warnings
    for the user."""

    columns: PriorityColumns
    warnings: list[str]

    @property
    def rows(self) -> list[PriorityRow]:
        return self.columns.rows


@dataclass(eq=False, repr=False)  # a call's lookup tables: never compared or printed
class _Context:
    """Everything that does not depend on the job, computed once per call."""

    config: PriorityConfig
    now: int
    factors_at: int  # the last decay pass: when slurmctld last set the jobs' factors
    cluster: str
    weights: dict[str, int]
    raw: dict[str, bool]
    cluster_nodes: int | None
    cluster_cpus: int | None
    assoc_priority: dict[int, int]
    max_assoc_priority: int
    max_qos_priority: int
    max_part_factor: int
    fs_factors: dict[int, float]
    partitions: dict[str, Partition]
    qos: dict[str, Qos]
    assocs: AssocColumns
    assoc_at: dict[int, int]
    part_factor: dict[str, float] = field(default_factory=dict)
    part_tres: dict[str, dict[str, int]] = field(default_factory=dict)
    qos_factor: dict[str, float] = field(default_factory=dict)
    assoc_factor: dict[int | None, float] = field(default_factory=dict)
    tres_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """The per-partition, per-QOS and per-association factors, once for all jobs."""
        w, raw = self.weights, self.raw
        self.part_factor = {
            name: _ratio(p.priority_job_factor, self.max_part_factor, raw["partition"])
            if w["partition"] and p.priority_job_factor
            else 0.0
            for name, p in self.partitions.items()
        }
        self.part_tres = {name: _partition_tres(p) for name, p in self.partitions.items()}
        self.qos_factor = {
            name: _ratio(q.priority, self.max_qos_priority, raw["qos"])
            if w["qos"] and q.priority
            else 0.0
            for name, q in self.qos.items()
        }
        if w["assoc"]:  # a factor per distinct priority, then each association's
            priorities = self.assoc_priority
            of_value = {
                value: _ratio(value, self.max_assoc_priority, raw["assoc"])
                for value in set(priorities.values())
            }
            self.assoc_factor = dict(
                zip(priorities, map(of_value.__getitem__, priorities.values()))
            )
        self.tres_names = tuple(self.config.tres_weights)


def config_warnings(config: PriorityConfig) -> list[str]:
    """Slurm's read_config warning when the (non-TRES) weights can overflow 32 bits."""
    total = sum(config.weights.get(key, 0) for key in WEIGHT_KEYS.values())
    return [OVERFLOW_WARNING] if total > PRIORITY_MAX else []


def check_site_factor(value: int) -> int:
    """``scontrol update job sitefactor=``: the value, or Slurm's out-of-range error."""
    if not -NICE_RANGE <= int(value) <= NICE_RANGE:
        raise InvalidValue("SiteFactor value out of range")
    return int(value)


def check_admin_priority(value: int) -> int:
    """``scontrol update job priority=N``: 0 (held) to 4294967294 (4294967295 is Slurm's
    INFINITE, which gives the job back to the plugin)."""
    if not 0 <= int(value) < PRIORITY_MAX:
        raise InvalidValue(
            f"invalid priority {value}: expected 0 to {PRIORITY_MAX - 1}, "
            "or -1 to give the job back to the priority plugin"
        )
    return int(value)


def check_nice(value: int) -> int:
    """A job's nice value, or an error naming the valid range."""
    if not -NICE_RANGE <= int(value) <= NICE_RANGE:
        raise InvalidValue(f"invalid nice value {value}: expected -{NICE_RANGE} to {NICE_RANGE}")
    return int(value)


def cluster_size(
    cluster: ClusterInfo, partitions: dict[str, Partition]
) -> tuple[int | None, int | None]:
    """(nodes, CPUs) for the job-size factor: the cluster's own counts, else the largest
    partition's. Partitions usually share nodes, so summing them would overcount."""
    if cluster.nodes and cluster.cpus:
        return cluster.nodes, cluster.cpus
    sized = [p for p in partitions.values() if p.cpus or p.nodes]
    if not sized:
        return cluster.nodes or None, cluster.cpus or None
    largest = max(sized, key=lambda p: (p.cpus or 0, p.nodes or 0))
    return cluster.nodes or largest.nodes, cluster.cpus or largest.cpus


def _effective_assoc_priority(assocs: AssocColumns, at: dict[int, int]) -> dict[int, int]:
    """Association priority with Slurm's inheritance: unset takes the parent's, root's is 0.
    The set ones are taken first, all in one step, and only the unset ones walk up (``at``:
    each association's position; 100,000 associations, 3,000 unset: 6 ms)."""
    ids, own = assocs.field("id"), assocs.field("priority")
    found = dict(zip(ids, own))
    unset = list(compress(ids, map(is_, own, repeat(None))))
    for assoc_id in unset:
        del found[assoc_id]
    parents = assocs.field("parent_id") if unset else []
    for assoc_id in unset:
        chain = []
        current: int | None = assoc_id
        while current is not None and current not in found and current in at:
            chain.append(current)
            current = parents[at[current]]
        value = found.get(current, 0) if current is not None else 0
        for item in chain:
            found[item] = value
    return found


def _raw_flags(flags: frozenset[str]) -> dict[str, bool]:
    every = "NO_NORMAL_ALL" in flags
    return {name: every or flag in flags for name, flag in _NO_NORMAL.items()}


def _ratio(value: float, maximum: float, raw: bool) -> float:
    if raw:
        return float(value)
    return value / maximum if maximum else 0.0


def _accrue_time(job: Job, config: PriorityConfig) -> int:
    """When the job started to age: submit with ACCRUE_ALWAYS, else when it became eligible."""
    if "ACCRUE_ALWAYS" in config.flags or job.eligible is None:
        return job.submit
    return job.eligible


def _time_limit(job: Job, ctx: _Context) -> int:
    if job.time_limit is not None:
        return max(1, job.time_limit)
    part = ctx.partitions.get(job.partitions[0]) if job.partitions else None
    if part is not None and part.max_time is not None:
        return max(1, part.max_time)
    return INFINITE_MINUTES


def _job_size_factor(job: Job, ctx: _Context) -> float:
    nodes, cpus = ctx.cluster_nodes, ctx.cluster_cpus
    if not nodes or not cpus:
        return 0.0
    favor_small = ctx.config.favor_small
    if "SMALL_RELATIVE_TO_TIME" in ctx.config.flags:
        size = max(job.nodes * cpus / nodes, float(job.cpus))
        size = size / _time_limit(job, ctx) / cpus
        value = 1.0 - size if favor_small else size
    elif favor_small:
        value = (nodes - job.nodes) / nodes
        if job.cpus:
            value = (value + (cpus - job.cpus) / cpus) / 2
    else:
        value = job.nodes / nodes
        if job.cpus:
            value = (value + job.cpus / cpus) / 2
    return min(1.0, max(0.0, value))


def _job_tres(job: Job) -> dict[str, int]:
    """The job's TRES request: ``Job.tres`` with cpu and node from ``Job.cpus``/``nodes``."""
    return request_tres(job.cpus, job.nodes, job.tres)


def _partition_tres(part: Partition) -> dict[str, int]:
    totals = dict(part.tres)
    if part.cpus:
        totals.setdefault("cpu", part.cpus)
    if part.nodes:
        totals.setdefault("node", part.nodes)
    return totals


def _tres_factors(counts: dict[str, int], part: Partition, ctx: _Context) -> tuple[float, ...]:
    """Per weighted TRES: job count over the partition total (0 when the total is unknown)."""
    if ctx.raw["tres"]:
        return tuple(float(counts.get(name, 0)) for name in ctx.tres_names)
    totals = ctx.part_tres[part.name]
    factors = []
    for name in ctx.tres_names:
        value, total = counts.get(name, 0), totals.get(name)
        factors.append(value / total if value and total else 0.0)
    return tuple(factors)


def _assoc_index(assocs: AssocColumns) -> dict[tuple, int]:
    """(user, account, partition) -> id of the users' associations."""
    keys = zip(*(assocs.field(name) for name in ("user", "account", "partition")))
    return {key: i for key, i in zip(keys, assocs.field("id")) if key[0] is not None}


def listed_states(config: PriorityConfig) -> tuple[str, ...]:
    """The job states sprio lists: pending, and running too with ``CALCULATE_RUNNING``."""
    return ("pending", "running") if "CALCULATE_RUNNING" in config.flags else ("pending",)


def compute_priorities(
    queue: QueueColumns,
    assocs: AssocColumns,
    qos: dict[str, Qos],
    partitions: dict[str, Partition],
    cluster: ClusterInfo,
    config: PriorityConfig,
    fs_factors: dict[int, float],
    now: int,
) -> PriorityResult:
    """sprio rows for every listed job, one per partition, sorted by job id.

    ``fs_factors`` maps association id to its fair-share factor. A job names its
    association by ``assoc_id`` or by (user, account[, partition]). Unknown partitions or
    QOS raise :class:`NotFound`; a job without partition raises :class:`InvalidValue`.
    sprio lists pending jobs (and running ones with ``CALCULATE_RUNNING``) that are
    eligible and not held (admin priority 0). Each row's job is made from ``queue`` when
    asked for.
    """
    weights = {name: int(config.weights.get(key, 0)) for name, key in WEIGHT_KEYS.items()}
    assoc_at = dict(zip(assocs.field("id"), range(len(assocs))))
    assoc_priority = _effective_assoc_priority(assocs, assoc_at) if weights["assoc"] else {}
    nodes, cpus = cluster_size(cluster, partitions)
    ctx = _Context(
        config=config,
        now=int(now),
        factors_at=last_pass(int(now), config.calc_period, config.calc_anchor),
        cluster=cluster.name,
        weights=weights,
        raw=_raw_flags(config.flags),
        cluster_nodes=nodes,
        cluster_cpus=cpus,
        assoc_priority=assoc_priority,
        max_assoc_priority=max(assoc_priority.values(), default=0),
        max_qos_priority=max((q.priority for q in qos.values()), default=0),
        max_part_factor=max((p.priority_job_factor for p in partitions.values()), default=0),
        fs_factors=fs_factors,
        partitions=partitions,
        qos=qos,
        assocs=assocs,
        assoc_at=assoc_at,
    )
    warnings = config_warnings(config)
    if ctx.weights["jobsize"] and not (ctx.cluster_nodes and ctx.cluster_cpus):
        warnings.append(
            f"job size factor is 0: cluster '{cluster.name}' has no node and CPU counts "
            "(set them with `fscli cluster modify NAME nodes=N cpus=N`)"
        )
    return PriorityResult(_score(queue, ctx, warnings), warnings)


def _listed(queue: QueueColumns, ctx: _Context) -> list[int] | None:
    """The positions of the jobs sprio lists, by job id (equal ids as given): in a listed
    state, not held (admin priority 0), accruing by now. None when that is every job, as
    they come: the store's queue, where a look at each column costs 4 ms, choosing the
    jobs one by one and sorting them 10."""
    states, now = listed_states(ctx.config), ctx.now
    accrue = accrue_times(queue, ctx.config)
    ids = queue.id
    if (
        set(queue.state) <= set(states)
        and 0 not in queue.admin_priority
        and max(accrue, default=now) <= now
        and all(map(le, ids, islice(ids, 1, None)))
    ):
        return None
    kept = [
        i
        for i, state, admin, accrue_time in zip(
            range(len(ids)), queue.state, queue.admin_priority, accrue
        )
        if state in states and admin != 0 and accrue_time <= now
    ]
    return sorted(kept, key=ids.__getitem__)


def _shape(job: Job, ctx: _Context) -> tuple[tuple, ...]:
    """What depends only on the job's size, time limit, TRES and partitions, one row per
    partition: (name, job-size factor, weighted job-size factor, partition factor,
    weighted partition factor, TRES factors, weighted TRES). Jobs of the same shape share
    it: their weighted factors are looked up, not multiplied again, and the rows' columns
    come from these tuples in one pass."""
    if not job.partitions:
        raise InvalidValue(f"job {job.id} has no partition")
    w = ctx.weights
    size = _job_size_factor(job, ctx) if w["jobsize"] else 0.0
    size_w = size * w["jobsize"]
    counts = _job_tres(job) if ctx.tres_names else None
    per_part = []
    for name in job.partitions:
        part = ctx.partitions.get(name)
        if part is None:
            raise NotFound(f"job {job.id}: partition '{name}' does not exist")
        tres_f = _tres_factors(counts, part, ctx) if counts is not None else ()
        tres_w = tuple(v * ctx.config.tres_weights[n] for n, v in zip(ctx.tres_names, tres_f))
        part_f = ctx.part_factor[name]
        per_part.append((name, size, size_w, part_f, part_f * w["partition"], tres_f, tres_w))
    return tuple(per_part)


def _shapes(queue: QueueColumns, qos: list[str], ctx: _Context) -> list[tuple]:
    """Each job's shape (:func:`_shape`), computed once per distinct shape. A job with an
    unknown QOS fails here too, so that the first faulty job (by id) names the error, its
    partitions checked before its QOS."""
    unknown = set(qos) - ctx.qos_factor.keys() - {""}
    bad_qos = next(i for i, q in enumerate(qos) if q in unknown) if unknown else -1
    keys = zip(
        queue.partitions,
        queue.nodes,
        queue.cpus,
        queue.time_limit,
        [tuple(t.items()) if t else () for t in queue.tres],
    )
    shapes: dict[tuple, tuple] = {}
    out = []
    for i, key in enumerate(keys):
        shape = shapes.get(key)
        if shape is None:
            # the job alone: queue[i] would make every job of the queue
            shape = shapes[key] = _shape(queue.take([i])[0], ctx)
        if i == bad_qos:
            raise NotFound(f"job {queue.id[i]}: QOS '{qos[i]}' does not exist")
        out.append(shape)
    return out


def _assoc_ids(queue: QueueColumns, ctx: _Context) -> list[int | None]:
    """Each job's association: its own id if known, else the one of its (user, account,
    first partition), else of its (user, account)."""
    ids = list(queue.assoc_id)
    known = list(map(ctx.assoc_at.__contains__, ids))
    if not all(known):
        index = _assoc_index(ctx.assocs)
        for i in compress(range(len(ids)), map(not_, known)):
            user_account = (queue.user[i], queue.account[i])
            first = queue.partitions[i][0]
            ids[i] = index.get((*user_account, first), index.get((*user_account, None)))
    return ids


def _accounts(queue: QueueColumns, assoc_ids: list[int | None], ctx: _Context) -> list[str]:
    """Each job's account, else its association's ("" without either)."""
    accounts = list(queue.account)
    if not all(accounts):
        of_assoc = ctx.assocs.field("account")
        for i in compress(range(len(accounts)), map(not_, accounts)):
            assoc_id = assoc_ids[i]
            accounts[i] = of_assoc[ctx.assoc_at[assoc_id]] if assoc_id is not None else ""
    return cast("list[str]", accounts)  # every None replaced


def accrue_times(queue: QueueColumns, config: PriorityConfig) -> Sequence[int]:
    """When each job began to age, as :func:`_accrue_time`: sprio lists a job from then
    on, so these are the moments at which its list can change while the store does not
    (the answer cache's window: :mod:`fscli.api.priorities`)."""
    submit, eligible = queue.submit, queue.eligible
    if "ACCRUE_ALWAYS" in config.flags or eligible.count(None) == len(eligible):
        return submit
    return [s if e is None else e for s, e in zip(submit, eligible)]


def _ages(queue: QueueColumns, ctx: _Context) -> list[float]:
    """The age factor: time since the job began to accrue over PriorityMaxAge, at most 1."""
    n, max_age = len(queue), ctx.config.max_age
    if not ctx.weights["age"]:
        return [0.0] * n
    if max_age <= 0:  # waited >= 0 (only eligible jobs are listed): never below it
        return [1.0] * n
    # min(waited / max_age, 1.0) to the bit (the quotient is at least 1.0 when waited >=
    # max_age, at most 1.0 otherwise) without a call of the builtin min per job: 4 ms, not
    # 11; a job accruing since the pass has waited 0 (slurmctld's diff stays 0 there)
    waited = map(sub, repeat(ctx.factors_at, n), accrue_times(queue, ctx.config))
    return [w / max_age if 0 < w < max_age else float(w > 0) for w in waited]


def _job_factors(
    ages: list[float], assoc_ids: list[int | None], qos: list[str], ctx: _Context
) -> list[list[float]]:
    """The factors that depend on the job, not its shape, a column each: age,
    association, fair-share, QOS (the shape's come with the rows)."""
    n, w = len(ages), ctx.weights
    # no association (None) has no factor: 0
    fs_of = cast("Callable[[int | None, float], float]", ctx.fs_factors.get)
    fs = list(map(float, map(fs_of, assoc_ids, repeat(0.0, n)))) if w["fairshare"] else [0.0] * n
    return [
        ages,
        list(map(ctx.assoc_factor.get, assoc_ids, repeat(0.0, n))),
        fs,
        list(map(ctx.qos_factor.get, qos, repeat(0.0, n))),
    ]


def _score(queue: QueueColumns, ctx: _Context, warnings: list[str]) -> PriorityColumns:
    """The rows of the listed jobs of ``queue``, column by column: a few C-level passes
    per factor instead of a Python step per row (what does not depend on the job comes
    from ``ctx``, what depends on its shape only is computed once per shape). Jobs are
    checked and shaped one by one, then each job stands once for each of its partitions
    (rows) and every column is made row by row. Sums are made in sprio's order of
    additions, so that truncation agrees to the last bit. Each row's job is made from
    ``queue`` (as given) when asked for.

    What needs the job's own fields (association, account, age) is found job by job;
    then only the columns the rows take are repeated for jobs of several partitions
    (repeating every column of the queue, and the shapes, cost 44 ms at 110,000 rows,
    these 20); what the shape decides comes out of its rows' tuples in one pass."""
    listed, given = _listed(queue, ctx), queue
    if listed is not None:
        queue = queue.take(listed)
    qos = [q or "" for q in queue.qos]
    shapes = _shapes(queue, qos, ctx)
    assoc_ids = _assoc_ids(queue, ctx)
    per_job: list[Any] = [  # the columns of one job each the rows take
        list(range(len(queue))) if listed is None else listed,
        queue.id,
        queue.user,
        _accounts(queue, assoc_ids, ctx),
        qos,
        assoc_ids,
        _ages(queue, ctx),
        queue.site_factor,
        queue.nice,
        queue.admin_priority,
    ]
    counts = list(map(len, shapes))
    if counts.count(1) != len(counts):  # some job has several partitions
        row_job = list(chain.from_iterable(map(repeat, range(len(queue)), counts)))
        per_job = [_picked(row_job, column) for column in per_job]
    positions, ids, users, accounts, qos, assoc_ids, ages, site, nice, admin = per_job
    n = len(ids)
    names, size, size_w, part_f, part_w, tres_f, tres_w = _columns(chain.from_iterable(shapes), 7)
    age, assoc_f, fs, qos_f = _job_factors(ages, assoc_ids, qos, ctx)
    factors = [age, assoc_f, fs, size, part_f, qos_f]
    w = ctx.weights
    # what a job's shape or QOS decides is weighted once per shape or QOS, the rest here
    weighted = [list(map(mul, f, repeat(w[name], n))) for name, f in zip(FACTORS[:3], factors)]
    qos_w = {name: f * w["qos"] for name, f in ctx.qos_factor.items()}
    weighted += [
        size_w,
        part_w,
        list(map(qos_w.get, qos, repeat(0.0 * w["qos"], n))),
    ]
    site, nice = list(site), list(nice)  # changed below for admin-set rows
    exact = _sums(weighted, site, nice, tres_w, len(ctx.tres_names))
    rows = PriorityColumns(
        list(ids),
        names,
        list(users),
        accounts,
        qos,
        [ctx.cluster] * n,
        assoc_ids,
        factors,
        weighted,
        [ctx.tres_names] * n,
        tres_f,
        tres_w,
        site,
        nice,
        exact,
        list(map(int, exact)),
        [False] * n,
        positions,
        given,
        ctx,
    )
    _set_by_admins(rows, admin)
    _cap(rows, warnings)
    return rows


def _picked(positions: list[int], column: list) -> list:
    return list(map(column.__getitem__, positions))


def _columns(records: Iterable[tuple], width: int) -> list[list]:
    """Tuples of ``width`` items as ``width`` columns."""
    return list(map(list, zip(*records))) or [[] for _ in range(width)]


def _sums(
    weighted: list[list[float]],
    site: list[int],
    nice: list[int],
    tres_w: list[tuple[float, ...]],
    tres_count: int,
) -> list[float]:
    """sprio's sum of each row in its order of additions (the weighted factors, the site
    factor, minus nice, then each weighted TRES), at least 1."""
    total: Iterable[float] = weighted[0]
    for column in weighted[1:]:
        total = map(add, total, column)
    if any(site) or any(nice):  # + 0 - 0 changes no sum but a zero's sign, and 0 ends as 1
        total = map(sub, map(add, total, site), nice)
    for k in range(tres_count):
        total = map(add, total, map(itemgetter(k), tres_w))
    # max(total, 1.0) to the bit (1.0 only where it is greater: NaN stays NaN) without a
    # call of the builtin max per row: 4 ms, not 9, at 110,000 rows
    return [1.0 if t < 1.0 else t for t in total]


def _set_by_admins(rows: PriorityColumns, admin: Sequence[int | None]) -> None:
    """The rows of jobs whose priority an administrator set (``admin``: each row's job's
    admin priority): that priority, every factor 0."""
    for i, priority in zip(compress(range(len(admin)), admin), filter(None, admin)):
        for column in (*rows.factors, *rows.weighted):
            column[i] = 0.0
        rows.tres_names[i] = rows.tres_factor_values[i] = rows.tres_weighted_values[i] = ()
        rows.site[i] = rows.nice[i] = 0
        rows.exact[i], rows.priority[i], rows.admin_set[i] = float(priority), priority, True


def _cap(rows: PriorityColumns, warnings: list[str]) -> None:
    """Computed priorities above 32 bits become 4294967295, each with Slurm's warning."""
    priority = rows.priority
    if max(priority, default=0) <= PRIORITY_MAX:
        return
    for i in compress(range(len(priority)), map(gt, priority, repeat(PRIORITY_MAX))):
        if not rows.admin_set[i]:
            warnings.append(
                f"job {rows.job_id[i]} priority '{priority[i]}' exceeds 32 bits. "
                "Reducing it to 4294967295 (2^32 - 1)"
            )
            priority[i] = PRIORITY_MAX


def _num(value: float) -> str:
    """A factor for people: six significant digits."""
    return f"{value:.6g}"


def _weigh(row: PriorityRow, ctx: _Context, name: str) -> str:
    return f"-> {_num(row.factors[name])} x {ctx.weights[name]} = {row.weighted[name]:.2f}"


def explain(row: PriorityRow) -> list[str]:
    """Each factor with its inputs and the weighted sum, one line each."""
    job, ctx = row.job, row.context
    title = (
        f"job {row.job_id} in partition {row.partition} "
        f"(user {row.user}, account {row.account or '-'}, QOS {row.qos or '-'})"
    )
    lines = [title]
    if job is None or ctx is None:
        return lines + [f"priority {row.priority}"]
    if row.admin_set:
        return lines + [f"priority {row.priority} set by an administrator: factors are not used"]
    lines.extend(_factor_lines(row, job, ctx))
    if row.tres_weighted:
        for name in tres_order(row.tres_weighted):
            lines.append(_tres_line(row, job, ctx, name))
    if row.site:
        lines.append(f"site factor: {row.site:+d}")
    if row.nice:
        lines.append(f"nice: {-row.nice:+d}")
    unused = [WEIGHT_KEYS[n] for n in FACTORS if not ctx.weights[n]]
    if unused:
        lines.append(f"not used (weight 0): {', '.join(unused)}")
    total = f"{row.exact:.2f}"
    capped = " (capped at 4294967295)" if row.priority < int(row.exact) else ""
    lines.append(f"priority: {total} -> {row.priority}{capped}")
    return lines


def _factor_lines(row: PriorityRow, job: Job, ctx: _Context) -> list[str]:
    lines = []
    w = ctx.weights
    if w["age"]:
        since = "submit" if "ACCRUE_ALWAYS" in ctx.config.flags else "eligible"
        waited = max(0, ctx.factors_at - _accrue_time(job, ctx.config))
        lines.append(
            f"age: waited {format_secs(waited)} (since {since}, to the last pass) of PriorityMaxAge "
            f"{format_secs(ctx.config.max_age)} {_weigh(row, ctx, 'age')}"
        )
    if w["assoc"]:
        value = ctx.assoc_priority.get(row.assoc_id, 0) if row.assoc_id is not None else 0
        of = "raw (NO_NORMAL_ASSOC)" if ctx.raw["assoc"] else f"of max {ctx.max_assoc_priority}"
        lines.append(f"assoc: association priority {value} {of} {_weigh(row, ctx, 'assoc')}")
    if w["fairshare"]:
        source = (
            f"association {row.assoc_id} ({row.user}/{row.account})"
            if row.assoc_id is not None
            else "no association: factor 0"
        )
        lines.append(f"fair-share: {source} {_weigh(row, ctx, 'fairshare')}")
    if w["jobsize"]:
        lines.append(_job_size_line(row, job, ctx))
    if w["partition"]:
        part = ctx.partitions[row.partition]
        of = "raw (NO_NORMAL_PART)" if ctx.raw["partition"] else f"of max {ctx.max_part_factor}"
        lines.append(
            f"partition: PriorityJobFactor {part.priority_job_factor} {of} "
            f"{_weigh(row, ctx, 'partition')}"
        )
    if w["qos"]:
        qos = ctx.qos.get(row.qos)
        prio = qos.priority if qos else 0
        of = "raw (NO_NORMAL_QOS)" if ctx.raw["qos"] else f"of max {ctx.max_qos_priority}"
        lines.append(f"qos: {row.qos or 'none'} priority {prio} {of} {_weigh(row, ctx, 'qos')}")
    return lines


def _job_size_line(row: PriorityRow, job: Job, ctx: _Context) -> str:
    nodes, cpus = ctx.cluster_nodes, ctx.cluster_cpus
    if not nodes or not cpus:
        return f"job size: cluster node/CPU counts unknown {_weigh(row, ctx, 'jobsize')}"
    if "SMALL_RELATIVE_TO_TIME" in ctx.config.flags:
        how = (
            f"max({job.nodes} nodes x {cpus}/{nodes} CPUs per node, {job.cpus} CPUs) / "
            f"{_time_limit(job, ctx)} min / {cpus} CPUs"
        )
        if ctx.config.favor_small:
            how = f"1 - {how}"
    elif ctx.config.favor_small:
        how = f"(({nodes}-{job.nodes})/{nodes} nodes + ({cpus}-{job.cpus})/{cpus} CPUs) / 2"
    else:
        how = f"({job.nodes}/{nodes} nodes + {job.cpus}/{cpus} CPUs) / 2"
    return f"job size: {how} {_weigh(row, ctx, 'jobsize')}"


def _tres_line(row: PriorityRow, job: Job, ctx: _Context, name: str) -> str:
    count = _job_tres(job).get(name, 0)
    weight = ctx.config.tres_weights[name]
    if ctx.raw["tres"]:
        how = f"{count} (raw, NO_NORMAL_TRES)"
    else:
        total = _partition_tres(ctx.partitions[row.partition]).get(name)
        how = (
            f"{count} of {total} in {row.partition}"
            if total
            else (f"{count} (partition total unknown: factor 0)")
        )
    return (
        f"tres {name}: {how} -> {_num(row.tres_factors[name])} x {weight:g} "
        f"= {row.tres_weighted[name]:.2f}"
    )


def filter_columns(
    rows: PriorityColumns,
    jobs: Iterable[int] | None = None,
    users: Iterable[str] | None = None,
    partitions: Iterable[str] | None = None,
) -> PriorityColumns:
    """sprio's ``-j``, ``-u`` and ``-p`` selections; asked-for jobs that match nothing
    raise sprio's "Unable to find jobs matching user/id(s) specified"."""
    if jobs is None and users is None and partitions is None:
        return rows
    job_set = set(jobs) if jobs is not None else None
    user_set = set(users) if users is not None else None
    part_set = set(partitions) if partitions is not None else None
    kept = [
        i
        for i, (job_id, user, partition) in enumerate(zip(rows.job_id, rows.user, rows.partition))
        if (job_set is None or job_id in job_set)
        and (user_set is None or user in user_set)
        and (part_set is None or partition in part_set)
    ]
    if not kept and (job_set or user_set):
        raise NotFound("Unable to find jobs matching user/id(s) specified")
    return rows.take(kept)
