"""A cluster's state as of one moment, and what the views compute from it before the
fair-share engine: each association's RawUsage from usage charges and the store's
running and completed jobs (Slurm's discrete decay, :mod:`fscli.engine.usage`),
sshare's TRESRunMins and GrpTRESRaw, and the fair-share engine's result. sshare, sprio,
tree, limits check, compare and demo all start here, so they agree on every number;
``fscli.store.state`` reads the state, this computes on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from fscli.engine.config import PriorityConfig
from fscli.engine.model import AssocColumns, ClusterInfo, Job, Partition, Qos
from fscli.engine.usage import Charges, Run

CHARGED = ("running", "completed", "cancelled")
"""The states whose run time is charged as usage (:func:`job_runs`)."""


@dataclass
class ClusterState:
    """Everything the views compute on for one cluster, loaded in one read transaction
    (``charges`` are emptied by the last :func:`fairshare` that reads them)."""

    cluster_id: int
    cluster: ClusterInfo
    assocs: AssocColumns  # the engine's form, whether read with settings or not
    qos: dict[str, Qos]
    partitions: dict[str, Partition]
    config: PriorityConfig
    charges: Charges = field(default_factory=Charges)
    jobs: list[Job] = field(default_factory=list)


def job_billing(job: Job, state: ClusterState) -> float:
    """Billing TRES per second of a job: as recorded (sacct's AllocTRES ``billing=``), else
    in its first partition under the settings in force at its start, which slurmctld
    computes once then and keeps (:func:`fscli.engine.limits.counting.job_billable`, which
    the limit checker bills with too)."""
    return billing_at_start(job, state.partitions, state.config)


def billing_at_start(job: Job, partitions: dict[str, Partition], config: PriorityConfig) -> float:
    """:func:`job_billing` with the cluster's partitions and settings (with their history)."""
    from fscli.engine.limits.counting import job_billable

    if job.billing is not None:
        return job.billing
    if job.start is not None:
        config = config.at(job.start)
    part = partitions.get(job.partitions[0]) if job.partitions else None
    return job_billable(job.cpus, job.nodes, job.tres, part, config.billing_weights, config.flags)


def job_qos(state: ClusterState, job: Job) -> tuple[Qos | None, float]:
    """The job's QOS, and the UsageFactor its run time is charged with
    (:func:`fscli.engine.limits.counting.usage_factor`, which the limit checker charges with)."""
    from fscli.engine.limits.counting import usage_factor

    qos = state.qos.get(job.qos or "")
    return qos, usage_factor(qos)


def _charged_jobs(state: ClusterState, now: int) -> list[Job]:
    """The Slurm jobs whose run time is charged as usage by ``now``."""
    return [
        job
        for job in state.jobs
        if job.assoc_id is not None
        and job.start is not None
        and job.start <= now
        and job.state in CHARGED
    ]


def _partition(state: ClusterState, job: Job):
    """The job's first partition (None: none, or not in the store)."""
    return state.partitions.get(job.partitions[0]) if job.partitions else None


def job_end(state: ClusterState, job: Job) -> int | None:
    """When ``job`` ends: its end, or for a running job its start plus its time limit
    (:func:`fscli.engine.limits.counting.running_end`; None: it runs on)."""
    from fscli.engine.limits.counting import running_end

    if job.state != "running":
        return job.end
    return running_end(job.start, job.time_limit, _partition(state, job))


def _run(state: ClusterState, job: Job) -> Run:
    """A charged job (:func:`_charged_jobs`: with an association and a start) as a Run."""
    assert job.assoc_id is not None and job.start is not None
    end = job_end(state, job)
    return Run(job.assoc_id, job.start, end, job_billing(job, state), job_qos(state, job)[1])


def job_runs(state: ClusterState, now: int) -> list[Run]:
    """Running and completed Slurm jobs (with a start) as the engine's ``Run`` records."""
    return [_run(state, job) for job in _charged_jobs(state, now)]


def reset_at(state: ClusterState) -> int | None:
    """When ``PriorityUsageResetPeriod=NOW`` reset the usage (None: no such reset)."""
    if state.config.usage_reset_period != "NOW":
        return None
    return state.config.usage_reset_at


def _parent_of(state: ClusterState) -> dict[int, int | None]:
    return {a.id: a.parent_id for a in state.assocs}


def run_minutes(
    state: ClusterState, now: int, parent_of: Mapping[int, int | None] | None = None
) -> dict[int, dict[str, int]]:
    """sshare's TRESRunMins per association at ``now`` (:mod:`fscli.engine.runmins`).

    Slurm keeps these counters only when it enforces limits (AccountingStorageEnforce),
    so without that every association holds none. A job without a time limit gets its
    first partition's MaxTime, as slurmctld gives it
    (:func:`fscli.engine.limits.counting.running_time_limit`, as the limit checker does).
    ``parent_of`` (association id -> parent id; default: ``state``'s associations) lets
    a state read without its tree ask.
    """
    from fscli.engine.limits.counting import running_time_limit, runs_at
    from fscli.engine.runmins import Allocation
    from fscli.engine.runmins import run_minutes as held_minutes
    from fscli.engine.tres import request_tres

    if "limits" not in state.config.enforce:
        return {}
    jobs = []
    for job in _charged_jobs(state, now):
        part = _partition(state, job)
        if not runs_at(job.state, job.start, job.time_limit, part, now):
            continue  # finished, or ended at its time limit: it holds nothing
        assert job.assoc_id is not None and job.start is not None  # charged jobs have both
        limit = running_time_limit(job.time_limit, part)
        tres = request_tres(job.cpus, job.nodes, job.tres)
        tres["billing"] = int(job_billing(job, state))
        jobs.append(Allocation(job.assoc_id, job.start, limit, tres, job_qos(state, job)[1]))
    if not jobs:
        return {}
    parents = _parent_of(state) if parent_of is None else parent_of
    return held_minutes(jobs, parents, now, state.config.calc_period, state.config.calc_anchor)


def tres_usage(
    state: ClusterState, now: int, parent_of: Mapping[int, int | None] | None = None
) -> dict[int, dict[str, float]]:
    """Decayed TRES-seconds per association and its descendants from the store's jobs
    (sshare's GrpTRESRaw, whose billing is the RawUsage; see
    :func:`fscli.engine.usage.tres_seconds`). Usage charged without a job (``usage
    add/set/import``) is billing only: it adds to no other TRES. ``parent_of``: as
    :func:`run_minutes`'s."""
    from fscli.engine.tree import subtree_totals
    from fscli.engine.usage import tres_seconds

    runs = [(run, alloc) for _, run, alloc in charged_allocations(state, now)]
    if not runs:
        return {}
    own = tres_seconds(runs, now, state.config, reset_at(state))
    return subtree_totals(own, _parent_of(state) if parent_of is None else parent_of)


def charged_allocations(state: ClusterState, now: int) -> list[tuple[Job, Run, dict[str, int]]]:
    """Each job charged by ``now``, its ``Run`` and the TRES it holds (cpu and node
    counts included): what usage per TRES (sshare's GrpTRESRaw, the checker's GrpTRESMins)
    is computed from."""
    from fscli.engine.tres import request_tres

    return [
        (job, _run(state, job), request_tres(job.cpus, job.nodes, job.tres))
        for job in _charged_jobs(state, now)
    ]


def raw_usage_of(state: ClusterState, now: int, runs: list[Run]) -> dict[int, float]:
    """RawUsage charged to each association itself at ``now`` (charges + jobs, decayed),
    with the job runs already made (:func:`job_runs`)."""
    from fscli.engine.usage import raw_usage

    return raw_usage(state.charges, now, state.config, runs, reset_at=reset_at(state))


def fairshare(state: ClusterState, now: int, algorithm: str | None = None, *, last: bool = False):
    """The fair-share engine's result for this state (algorithm from PriorityFlags by default).

    Classic and depth-oblivious get the usage as the last pass began too: slurmctld's
    account rows lag one pass behind (:func:`fscli.engine.fairshare.compute`).

    ``last``: no later call needs the state's charges, so they are let go (``charges``
    becomes empty) once read into the usage, before the engine runs: at 100,000
    associations they hold 20 MB, a seventh of what ``sshare`` needs at its peak.
    """
    from fscli.engine.fairshare import compute
    from fscli.engine.usage import pass_start_usage, raw_usage, with_runs

    algorithm = algorithm or state.config.algorithm
    runs = job_runs(state, now)
    if algorithm == "fair_tree" or not runs:
        usage = raw_usage_of(state, now, runs)
        if last:
            state.charges = Charges()
        return compute(state.assocs, usage, algorithm, state.config.dampening)
    cfg, reset = state.config, reset_at(state)
    charged = raw_usage(state.charges, now, cfg, reset_at=reset)
    if last:
        state.charges = Charges()
    before = pass_start_usage(charged, runs, now, cfg, reset)
    usage = with_runs(charged, runs, now, cfg, reset)
    return compute(state.assocs, usage, algorithm, cfg.dampening, before)
