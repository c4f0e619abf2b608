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

from fscli.engine.config import PriorityConfig
from fscli.engine.model import Assoc, ClusterInfo, Job, Partition, Qos
from fscli.engine.timestr import format_secs
from fscli.engine.tres import tres_order
from fscli.errors import InvalidValue, NotFound

FACTORS = ("age", "assoc", "fairshare", "jobsize", "partition", "qos")
"""The weighted factors, in sprio's column order."""

WEIGHT_KEYS = {
    "age": "PriorityWeightAge",
    "assoc": "PriorityWeightAssoc",
    "fairshare": "PriorityWeightFairshare",
    "jobsize": "PriorityWeightJobSize",
    "partition": "PriorityWeightPartition",
    "qos": "PriorityWeightQOS",
}

PRIORITY_MAX = 0xFFFFFFFF
"""Job priorities are 32-bit; sprio's normalized PRIORITY is the sum divided by this."""

NICE_RANGE = 2147483645
"""Nice and site factor are stored offset by 0x80000000; this is the usable range."""

INFINITE_MINUTES = 0xFFFFFFFE
"""Slurm's INFINITE time limit, which SMALL_RELATIVE_TO_TIME divides by as it is."""

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

    ``factors`` are the factor values (normalized 0..1, or raw with ``NO_NORMAL_*``),
    ``weighted`` are factor × weight as unrounded doubles; the TRES dicts hold only
    TRES with a weight. ``exact`` is sprio's sum (at least 1, before truncation) and
    ``priority`` the integer Slurm stores (truncated, capped at 4294967295).
    """

    job_id: int
    partition: str
    user: str
    account: str
    qos: str
    cluster: str
    assoc_id: int | None
    factors: dict[str, float]
    weighted: dict[str, float]
    tres_factors: dict[str, float]
    tres_weighted: dict[str, float]
    site: int
    nice: int
    exact: float
    priority: int
    admin_set: bool = False
    job: Job | None = field(default=None, repr=False, compare=False)
    context: _Context | None = field(default=None, repr=False, compare=False)

    @property
    def normalized_priority(self) -> float:
        """sprio's ``%y``: the unrounded sum over 4294967295 (admin-set: the value itself)."""
        return self.exact if self.admin_set else self.exact / PRIORITY_MAX


@dataclass
class PriorityResult:
    """Rows sorted by job id (then the job's partition order) and warnings for the user."""

    rows: list[PriorityRow]
    warnings: list[str]


@dataclass
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
    assoc_factor: dict[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """The per-partition, per-QOS and per-association factors, once for all jobs."""
        w, raw = self.weights, self.raw
        self.part_factor = {
            name: _ratio(p.priority_job_factor, self.max_part_factor, raw["partition"])
            if w["partition"] and p.priority_job_factor else 0.0
            for name, p in self.partitions.items()
        }
        self.part_tres = {name: _partition_tres(p) for name, p in self.partitions.items()}
        self.qos_factor = {
            name: _ratio(q.priority, self.max_qos_priority, raw["qos"])
            if w["qos"] and q.priority else 0.0
            for name, q in self.qos.items()
        }
        self.assoc_factor = {
            assoc_id: _ratio(value, self.max_assoc_priority, raw["assoc"]) if w["assoc"] else 0.0
            for assoc_id, value in self.assoc_priority.items()
        }


def config_warnings(config: PriorityConfig) -> list[str]:
    """Slurm's read_config warning when the (non-TRES) weights can overflow 32 bits."""
    total = sum(config.weights.get(key, 0) for key in WEIGHT_KEYS.values())
    return [OVERFLOW_WARNING] if total > PRIORITY_MAX else []


def check_site_factor(value: int) -> int:
    """``scontrol update job sitefactor=``: the value, or Slurm's out-of-range error."""
    if not -NICE_RANGE <= int(value) <= NICE_RANGE:
        raise InvalidValue("SiteFactor value out of range")
    return int(value)


def check_nice(value: int) -> int:
    """A job's nice value, or an error naming the valid range."""
    if not -NICE_RANGE <= int(value) <= NICE_RANGE:
        raise InvalidValue(
            f"invalid nice value {value}: expected -{NICE_RANGE} to {NICE_RANGE}"
        )
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


def _build_context(
    assocs: dict[int, Assoc],
    qos: dict[str, Qos],
    partitions: dict[str, Partition],
    cluster: ClusterInfo,
    config: PriorityConfig,
    fs_factors: dict[int, float],
    now: int,
) -> _Context:
    assoc_priority = _effective_assoc_priority(assocs)
    nodes, cpus = cluster_size(cluster, partitions)
    return _Context(
        config=config,
        now=int(now),
        cluster=cluster.name,
        weights={name: int(config.weights.get(key, 0)) for name, key in WEIGHT_KEYS.items()},
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


def _ratio(value: float, maximum: float, raw: bool) -> float:
    if raw:
        return float(value)
    return value / maximum if maximum else 0.0


def _accrue_time(job: Job, config: PriorityConfig) -> int:
    """When the job started to age: submit with ACCRUE_ALWAYS, else when it became eligible."""
    if "ACCRUE_ALWAYS" in config.flags or job.eligible is None:
        return job.submit
    return job.eligible


def _age_factor(job: Job, ctx: _Context) -> float:
    waited = max(0, ctx.now - _accrue_time(job, ctx.config))
    max_age = ctx.config.max_age
    return waited / max_age if waited < max_age else 1.0


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
    counts = dict(job.tres)
    counts.setdefault("cpu", job.cpus)
    counts.setdefault("node", job.nodes)
    return counts


def _partition_tres(part: Partition) -> dict[str, int]:
    totals = dict(part.tres)
    if part.cpus:
        totals.setdefault("cpu", part.cpus)
    if part.nodes:
        totals.setdefault("node", part.nodes)
    return totals


def _tres_factors(counts: dict[str, int], part: Partition, ctx: _Context) -> dict[str, float]:
    """Per weighted TRES: job count over the partition total (0 when the total is unknown)."""
    raw = ctx.raw["tres"]
    totals = ctx.part_tres[part.name]
    factors = {}
    for name in ctx.config.tres_weights:
        value = counts.get(name, 0)
        if raw:
            factors[name] = float(value)
        elif value and totals.get(name):
            factors[name] = value / totals[name]
        else:
            factors[name] = 0.0
    return factors


def _find_assoc(job: Job, index: dict[tuple, int], ctx: _Context) -> Assoc | None:
    if job.assoc_id is not None and job.assoc_id in ctx.assocs:
        return ctx.assocs[job.assoc_id]
    part = job.partitions[0] if job.partitions else None
    assoc_id = index.get((job.user, job.account, part), index.get((job.user, job.account, None)))
    return ctx.assocs.get(assoc_id) if assoc_id is not None else None


def _listed(job: Job, ctx: _Context, running_too: bool) -> bool:
    """sprio's filter: pending (or running with CALCULATE_RUNNING), eligible, not held."""
    if job.state != "pending" and not (running_too and job.state == "running"):
        return False
    if job.admin_priority == 0:
        return False
    return _accrue_time(job, ctx.config) <= ctx.now


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
    """
    ctx = _build_context(assocs, qos, partitions, cluster, config, fs_factors, now)
    warnings = config_warnings(config)
    if ctx.weights["jobsize"] and not (ctx.cluster_nodes and ctx.cluster_cpus):
        warnings.append(
            f"job size factor is 0: cluster '{cluster.name}' has no node and CPU counts "
            "(set them with `fscli cluster modify NAME nodes=N cpus=N`)"
        )
    index = {(a.user, a.account, a.partition): a.id for a in assocs.values() if a.is_user}
    running_too = "CALCULATE_RUNNING" in config.flags
    rows: list[PriorityRow] = []
    for job in sorted(jobs, key=lambda j: j.id):
        if _listed(job, ctx, running_too):
            rows.extend(_job_rows(job, ctx, index, warnings))
    return PriorityResult(rows=rows, warnings=warnings)


def _job_rows(job: Job, ctx: _Context, index: dict, warnings: list[str]) -> list[PriorityRow]:
    if not job.partitions:
        raise InvalidValue(f"job {job.id} has no partition")
    parts = []
    for name in job.partitions:
        part = ctx.partitions.get(name)
        if part is None:
            raise NotFound(f"job {job.id}: partition '{name}' does not exist")
        parts.append(part)
    qos = ctx.qos.get(job.qos) if job.qos else None
    if job.qos and qos is None:
        raise NotFound(f"job {job.id}: QOS '{job.qos}' does not exist")
    assoc = _find_assoc(job, index, ctx)
    account = job.account or (assoc.account if assoc else "")
    common = {
        "job_id": job.id, "user": job.user, "account": account, "qos": job.qos or "",
        "cluster": ctx.cluster, "assoc_id": assoc.id if assoc else None, "job": job,
        "context": ctx,
    }
    if job.admin_priority:
        return [
            PriorityRow(partition=p.name, factors=dict.fromkeys(FACTORS, 0.0),
                        weighted=dict.fromkeys(FACTORS, 0.0), tres_factors={},
                        tres_weighted={}, site=0, nice=0, exact=float(job.admin_priority),
                        priority=job.admin_priority, admin_set=True, **common)
            for p in parts
        ]
    w = ctx.weights
    age = _age_factor(job, ctx) if w["age"] else 0.0
    assoc_f = ctx.assoc_factor.get(assoc.id, 0.0) if assoc is not None else 0.0
    fs = float(ctx.fs_factors.get(assoc.id, 0.0)) if w["fairshare"] and assoc else 0.0
    size = _job_size_factor(job, ctx) if w["jobsize"] else 0.0
    qos_f = ctx.qos_factor[qos.name] if qos is not None else 0.0
    weighted_job = {"age": age * w["age"], "assoc": assoc_f * w["assoc"],
                    "fairshare": fs * w["fairshare"], "jobsize": size * w["jobsize"]}
    counts = _job_tres(job) if ctx.config.tres_weights else None
    rows = []
    for part in parts:
        part_f = ctx.part_factor[part.name]
        factors = {"age": age, "assoc": assoc_f, "fairshare": fs, "jobsize": size,
                   "partition": part_f, "qos": qos_f}
        weighted = {**weighted_job, "partition": part_f * w["partition"], "qos": qos_f * w["qos"]}
        tres_factors = _tres_factors(counts, part, ctx) if counts else {}
        tres_weighted = {n: v * ctx.config.tres_weights[n] for n, v in tres_factors.items()}
        # sprio's order of additions, so that truncation agrees to the last bit
        exact = (weighted["age"] + weighted["assoc"] + weighted["fairshare"]
                 + weighted["jobsize"] + weighted["partition"] + weighted["qos"]
                 + job.site_factor - job.nice)
        for value in tres_weighted.values():
            exact += value
        exact = max(exact, 1.0)
        priority = int(exact)
        if priority > PRIORITY_MAX:
            warnings.append(
                f"job {job.id} priority '{priority}' exceeds 32 bits. "
                "Reducing it to 4294967295 (2^32 - 1)"
            )
            priority = PRIORITY_MAX
        rows.append(PriorityRow(
            partition=part.name, factors=factors, weighted=weighted, tres_factors=tres_factors,
            tres_weighted=tres_weighted, site=job.site_factor, nice=job.nice, exact=exact,
            priority=priority, **common,
        ))
    return rows


def _num(value: float) -> str:
    """A factor for people: six significant digits."""
    return f"{value:.6g}"


def _weigh(row: PriorityRow, name: str) -> str:
    weight = row.context.weights[name] if row.context else 0
    return f"-> {_num(row.factors[name])} x {weight} = {row.weighted[name]:.2f}"


def explain(row: PriorityRow) -> list[str]:
    """Each factor with its inputs and the weighted sum, one line each."""
    job, ctx = row.job, row.context
    title = (f"job {row.job_id} in partition {row.partition} "
             f"(user {row.user}, account {row.account or '-'}, QOS {row.qos or '-'})")
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
        lines.append(f"age: waited {format_secs(waited)} (since {since}) of PriorityMaxAge "
                     f"{format_secs(ctx.config.max_age)} {_weigh(row, 'age')}")
    if w["assoc"]:
        value = ctx.assoc_priority.get(row.assoc_id, 0) if row.assoc_id is not None else 0
        of = "raw (NO_NORMAL_ASSOC)" if ctx.raw["assoc"] else f"of max {ctx.max_assoc_priority}"
        lines.append(f"assoc: association priority {value} {of} {_weigh(row, 'assoc')}")
    if w["fairshare"]:
        source = (f"association {row.assoc_id} ({row.user}/{row.account})"
                  if row.assoc_id is not None else "no association: factor 0")
        lines.append(f"fair-share: {source} {_weigh(row, 'fairshare')}")
    if w["jobsize"]:
        lines.append(_job_size_line(row, job, ctx))
    if w["partition"]:
        part = ctx.partitions[row.partition]
        of = "raw (NO_NORMAL_PART)" if ctx.raw["partition"] else f"of max {ctx.max_part_factor}"
        lines.append(f"partition: PriorityJobFactor {part.priority_job_factor} {of} "
                     f"{_weigh(row, 'partition')}")
    if w["qos"]:
        qos = ctx.qos.get(row.qos)
        prio = qos.priority if qos else 0
        of = "raw (NO_NORMAL_QOS)" if ctx.raw["qos"] else f"of max {ctx.max_qos_priority}"
        lines.append(f"qos: {row.qos or 'none'} priority {prio} {of} {_weigh(row, 'qos')}")
    return lines


def _job_size_line(row: PriorityRow, job: Job, ctx: _Context) -> str:
    nodes, cpus = ctx.cluster_nodes, ctx.cluster_cpus
    if not nodes or not cpus:
        return f"job size: cluster node/CPU counts unknown {_weigh(row, 'jobsize')}"
    if "SMALL_RELATIVE_TO_TIME" in ctx.config.flags:
        how = (f"max({job.nodes} nodes x {cpus}/{nodes} CPUs per node, {job.cpus} CPUs) / "
               f"{_time_limit(job, ctx)} min / {cpus} CPUs")
        if ctx.config.favor_small:
            how = f"1 - {how}"
    elif ctx.config.favor_small:
        how = f"(({nodes}-{job.nodes})/{nodes} nodes + ({cpus}-{job.cpus})/{cpus} CPUs) / 2"
    else:
        how = f"({job.nodes}/{nodes} nodes + {job.cpus}/{cpus} CPUs) / 2"
    return f"job size: {how} {_weigh(row, 'jobsize')}"


def _tres_line(row: PriorityRow, job: Job, ctx: _Context, name: str) -> str:
    count = _job_tres(job).get(name, 0)
    weight = ctx.config.tres_weights[name]
    if ctx.raw["tres"]:
        how = f"{count} (raw, NO_NORMAL_TRES)"
    else:
        total = _partition_tres(ctx.partitions[row.partition]).get(name)
        how = f"{count} of {total} in {row.partition}" if total else (
            f"{count} (partition total unknown: factor 0)")
    return (f"tres {name}: {how} -> {_num(row.tres_factors[name])} x {weight:g} "
            f"= {row.tres_weighted[name]:.2f}")


def filter_rows(
    rows: list[PriorityRow],
    jobs: Iterable[int] | None = None,
    users: Iterable[str] | None = None,
    partitions: Iterable[str] | None = None,
) -> list[PriorityRow]:
    """sprio's ``-j``, ``-u`` and ``-p`` selections; asked-for jobs that match nothing
    raise sprio's "Unable to find jobs matching user/id(s) specified"."""
    job_set = set(jobs) if jobs is not None else None
    user_set = set(users) if users is not None else None
    part_set = set(partitions) if partitions is not None else None
    kept = [
        r for r in rows
        if (job_set is None or r.job_id in job_set)
        and (user_set is None or r.user in user_set)
        and (part_set is None or r.partition in part_set)
    ]
    if not kept and (job_set or user_set):
        raise NotFound("Unable to find jobs matching user/id(s) specified")
    return kept
