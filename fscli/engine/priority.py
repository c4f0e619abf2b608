"""Multifactor job priority, the way Slurm's ``priority/multifactor`` plugin computes it.

Priority = site + Σ(weight × factor) + Σ(TRES weight × TRES factor) − nice, in double
precision; below 1 it becomes 1 (0 means "held"), then it is truncated to an integer and
capped at 4294967295. Factors are 0..1 unless a ``NO_NORMAL_*`` flag asks for the raw value:

* age: time since the job became eligible (since submit with ``ACCRUE_ALWAYS``) over
  ``PriorityMaxAge``;
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
cluster size) is computed once, so a queue of 100,000 jobs costs a few dict lookups per job.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import attrgetter

from fscli.engine.config import WEIGHT_KEYS as _WEIGHT_KEY_NAMES
from fscli.engine.config import PriorityConfig
from fscli.engine.model import Assoc, ClusterInfo, Job, Partition, Qos
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
        return self.exact if self.admin_set else self.exact / PRIORITY_MAX


@dataclass
class PriorityResult:
    """Rows sorted by job id (then the job's partition order) and warnings for the user."""

    rows: list[PriorityRow]
    warnings: list[str]


@dataclass(eq=False, repr=False)  # a call's lookup tables: never compared or printed
class _Context:
    """Everything that does not depend on the job, computed once per call."""

    config: PriorityConfig
    now: int
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
    assocs: dict[int, Assoc]
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
        if w["assoc"]:
            self.assoc_factor = {
                assoc_id: _ratio(value, self.max_assoc_priority, raw["assoc"])
                for assoc_id, value in self.assoc_priority.items()
            }
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


def _effective_assoc_priority(assocs: dict[int, Assoc]) -> dict[int, int]:
    """Association priority with Slurm's inheritance: unset takes the parent's, root's is 0."""
    found: dict[int, int] = {}
    for assoc_id in assocs:
        chain = []
        current: int | None = assoc_id
        while current is not None and current not in found:
            assoc = assocs.get(current)
            if assoc is None:
                break
            if assoc.priority is not None:
                found[current] = assoc.priority
                break
            chain.append(current)
            current = assoc.parent_id
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


def _assoc_index(assocs: dict[int, Assoc]) -> dict[tuple, int]:
    return {(a.user, a.account, a.partition): a.id for a in assocs.values() if a.is_user}


def listed_states(config: PriorityConfig) -> tuple[str, ...]:
    """The job states sprio lists: pending, and running too with ``CALCULATE_RUNNING``."""
    return ("pending", "running") if "CALCULATE_RUNNING" in config.flags else ("pending",)


def compute_priorities(
    jobs: Iterable[Job],
    assocs: dict[int, Assoc],
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
    eligible and not held (admin priority 0).
    """
    weights = {name: int(config.weights.get(key, 0)) for name, key in WEIGHT_KEYS.items()}
    assoc_priority = _effective_assoc_priority(assocs) if weights["assoc"] else {}
    nodes, cpus = cluster_size(cluster, partitions)
    ctx = _Context(
        config=config,
        now=int(now),
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
    )
    warnings = config_warnings(config)
    if ctx.weights["jobsize"] and not (ctx.cluster_nodes and ctx.cluster_cpus):
        warnings.append(
            f"job size factor is 0: cluster '{cluster.name}' has no node and CPU counts "
            "(set them with `fscli cluster modify NAME nodes=N cpus=N`)"
        )
    states = listed_states(config)
    always = "ACCRUE_ALWAYS" in config.flags
    now = ctx.now
    listed = [
        j
        for j in sorted(jobs, key=attrgetter("id"))
        if j.state in states
        and j.admin_priority != 0
        and (j.submit if always or j.eligible is None else j.eligible) <= now
    ]
    return PriorityResult(rows=_score(listed, ctx, warnings), warnings=warnings)


def _shape(job: Job, ctx: _Context) -> tuple[float, tuple[tuple, ...]]:
    """What depends only on the job's size, time limit, TRES and partitions: the job-size
    factor and, per partition, (name, partition factor, weighted, TRES factors, weighted
    TRES). Jobs of the same shape share it."""
    if not job.partitions:
        raise InvalidValue(f"job {job.id} has no partition")
    w = ctx.weights
    size = _job_size_factor(job, ctx) if w["jobsize"] else 0.0
    counts = _job_tres(job) if ctx.tres_names else None
    per_part = []
    for name in job.partitions:
        part = ctx.partitions.get(name)
        if part is None:
            raise NotFound(f"job {job.id}: partition '{name}' does not exist")
        part_f = ctx.part_factor[name]
        tres_f = _tres_factors(counts, part, ctx) if counts is not None else ()
        tres_w = tuple(v * ctx.config.tres_weights[n] for n, v in zip(ctx.tres_names, tres_f))
        per_part.append((name, part_f, part_f * w["partition"], tres_f, tres_w))
    return size, tuple(per_part)


def _score(jobs: list[Job], ctx: _Context, warnings: list[str]) -> list[PriorityRow]:
    """The rows of the listed jobs. The per-job work is a handful of dict lookups and
    additions: what does not depend on the job comes from ``ctx``, what depends on its
    shape only (size, partitions, TRES) is computed once per shape."""
    w = ctx.weights
    w_age, w_assoc, w_fs, w_size, w_qos = (
        w["age"],
        w["assoc"],
        w["fairshare"],
        w["jobsize"],
        w["qos"],
    )
    assocs, assoc_factor, fs_factors = ctx.assocs, ctx.assoc_factor, ctx.fs_factors
    qos_factor, tres_names = ctx.qos_factor, ctx.tres_names
    now, max_age, cluster = ctx.now, ctx.config.max_age, ctx.cluster
    always = "ACCRUE_ALWAYS" in ctx.config.flags
    index: dict[tuple, int] | None = None
    shapes: dict[tuple, tuple[float, tuple[tuple, ...]]] = {}
    zeros = (0.0,) * len(FACTORS)
    rows: list[PriorityRow] = []
    append = rows.append
    for job in jobs:
        key = (
            job.partitions,
            job.nodes,
            job.cpus,
            job.time_limit,
            tuple(job.tres.items()) if job.tres else (),
        )
        shape = shapes.get(key)
        if shape is None:
            shape = shapes[key] = _shape(job, ctx)
        size, per_part = shape
        qos = job.qos or ""
        if qos and qos not in qos_factor:
            raise NotFound(f"job {job.id}: QOS '{qos}' does not exist")
        assoc_id = job.assoc_id
        if assoc_id is None or assoc_id not in assocs:
            if index is None:
                index = _assoc_index(assocs)
            user_account = (job.user, job.account)
            assoc_id = index.get(
                (*user_account, job.partitions[0]), index.get((*user_account, None))
            )
        account = job.account or (assocs[assoc_id].account if assoc_id is not None else "")
        if job.admin_priority:
            prio = job.admin_priority
            for part in per_part:
                append(
                    PriorityRow(
                        job.id,
                        part[0],
                        job.user,
                        account,
                        qos,
                        cluster,
                        assoc_id,
                        zeros,
                        zeros,
                        (),
                        (),
                        (),
                        0,
                        0,
                        float(prio),
                        prio,
                        True,
                        job,
                        ctx,
                    )
                )
            continue
        if w_age:
            waited = now - (job.submit if always or job.eligible is None else job.eligible)
            age = waited / max_age if waited < max_age else 1.0
        else:
            age = 0.0
        assoc_f = assoc_factor.get(assoc_id, 0.0)
        fs = float(fs_factors.get(assoc_id, 0.0)) if w_fs and assoc_id is not None else 0.0
        qos_f = qos_factor[qos] if qos else 0.0
        wa, wb, wf, wj, wq = age * w_age, assoc_f * w_assoc, fs * w_fs, size * w_size, qos_f * w_qos
        site, nice = job.site_factor, job.nice
        for name, part_f, wp, tres_f, tres_w in per_part:
            # sprio's order of additions, so that truncation agrees to the last bit
            exact = wa + wb + wf + wj + wp + wq + site - nice
            for value in tres_w:
                exact += value
            exact = max(exact, 1.0)
            priority = int(exact)
            if priority > PRIORITY_MAX:
                warnings.append(
                    f"job {job.id} priority '{priority}' exceeds 32 bits. "
                    "Reducing it to 4294967295 (2^32 - 1)"
                )
                priority = PRIORITY_MAX
            append(
                PriorityRow(
                    job.id,
                    name,
                    job.user,
                    account,
                    qos,
                    cluster,
                    assoc_id,
                    (age, assoc_f, fs, size, part_f, qos_f),
                    (wa, wb, wf, wj, wp, wq),
                    tres_names,
                    tres_f,
                    tres_w,
                    site,
                    nice,
                    exact,
                    priority,
                    False,
                    job,
                    ctx,
                )
            )
    return rows


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
        waited = max(0, ctx.now - _accrue_time(job, ctx.config))
        lines.append(
            f"age: waited {format_secs(waited)} (since {since}) of PriorityMaxAge "
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


def filter_rows(
    rows: list[PriorityRow],
    jobs: Iterable[int] | None = None,
    users: Iterable[str] | None = None,
    partitions: Iterable[str] | None = None,
) -> list[PriorityRow]:
    """sprio's ``-j``, ``-u`` and ``-p`` selections; asked-for jobs that match nothing
    raise sprio's "Unable to find jobs matching user/id(s) specified"."""
    if jobs is None and users is None and partitions is None:
        return rows
    job_set = set(jobs) if jobs is not None else None
    user_set = set(users) if users is not None else None
    part_set = set(partitions) if partitions is not None else None
    kept = [
        r
        for r in rows
        if (job_set is None or r.job_id in job_set)
        and (user_set is None or r.user in user_set)
        and (part_set is None or r.partition in part_set)
    ]
    if not kept and (job_set or user_set):
        raise NotFound("Unable to find jobs matching user/id(s) specified")
    return kept
