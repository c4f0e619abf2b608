"""What a job counts for against the limits: its TRES, its billing, the run-minutes it
holds, and the running and pending jobs counted as groups.

These rules sit apart from the checker (:mod:`fscli.engine.limits.check`) because three
readers must apply them alike: the checker, counting ``LimitsState.jobs`` itself
(:func:`job_groups`); the store's SQL aggregate (``fscli/store/limits/state.py``), which
answers the same :class:`JobScope` with :class:`JobGroup` sums and must bill and hold
run time exactly as :func:`job_groups` does per job; and sshare's TRESRunMins
(``fscli/engine/cluster_state.py``), which must show what the GrpTRESRunMins checks count. One
definition of each rule keeps ``limits check`` and ``sshare -l`` in agreement.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from fscli.engine.config import parse_tres_weights
from fscli.engine.model import Assoc, Job, Partition, Qos
from fscli.engine.runmins import NOT_HELD, Allocation, held_seconds
from fscli.engine.timestr import INFINITE_MINUTES
from fscli.engine.tres import request_tres
from fscli.engine.usage import billable

_RUNNING = "running"
_PENDING = "pending"


_weights_of = functools.lru_cache(maxsize=256)(parse_tres_weights)
"""A partition's TRESBillingWeights text parsed once, not once per job (shared: read only)."""


def job_billable(
    cpus: int,
    nodes: int,
    tres: Mapping[str, int],
    partition: Partition | None,
    weights: Mapping[str, float],
    flags: Iterable[str] = (),
) -> float:
    """Billing TRES of a job with ``cpus`` CPUs and ``nodes`` nodes (unless ``tres`` names
    cpu or node: slurmctld's allocation always counts both, so a Node weight bills every job)
    and ``tres``.

    The weights are the partition's TRESBillingWeights, else ``weights`` (slurm.conf's
    DEFAULT partition line); no weights bill the CPUs; PriorityFlags MAX_TRES bills only
    the largest node TRES (:func:`fscli.engine.usage.billable`). A ``billing`` in ``tres``
    is ignored: slurmctld always computes it. The float is what usage is charged with
    (``calc_job_billable_tres``); slurmctld's TRES counters (the request's and a running
    job's ``billing``) hold it truncated to a whole number.
    """
    if partition is not None and partition.billing_weights:
        weights = _weights_of(partition.billing_weights)
    return billable({"cpu": cpus, "node": nodes, **tres}, weights, flags)


def usage_factor(qos: Qos | None) -> float:
    """The UsageFactor a job in ``qos`` is charged with: 1.0 without a QOS, or when the
    QOS leaves it unset (negative, as slurmctld tests it: ``usage_factor >= 0``)."""
    return qos.usage_factor if qos is not None and qos.usage_factor >= 0 else 1.0


def running_time_limit(time_limit: int | None, partition: Partition | None) -> int | None:
    """The time limit (minutes) a running job holds run time for: its own, else its
    partition's MaxTime, which slurmctld gives a job without one (None: INFINITE)."""
    if time_limit is None and partition is not None:
        return partition.max_time
    return time_limit


def running_end(
    start: int | None, time_limit: int | None, partition: Partition | None
) -> int | None:
    """When a running job ends at the latest: its start plus the time limit it runs under
    (:func:`running_time_limit`); slurmctld ends it then. None: it has no start, or no
    limit (INFINITE), and runs on.

    The one rule for a job stored as running whose end is not known: usage charges it and
    the limits and TRESRunMins count it until this moment, not at any later ``--at``.
    """
    limit = running_time_limit(time_limit, partition)
    if start is None or limit is None or limit >= INFINITE_MINUTES:
        return None
    return start + limit * 60


def runs_at(
    state: str, start: int | None, time_limit: int | None, partition: Partition | None, at: int
) -> bool:
    """Whether a job in ``state`` still runs at ``at``: it is stored as running and has not
    reached its :func:`running_end`."""
    if state != _RUNNING:
        return False
    end = running_end(start, time_limit, partition)
    return end is None or at < end


class JobScope(NamedTuple):
    """The running and pending jobs a check counts, for a store that aggregates them itself.

    Jobs count when they run under (a descendant of) one of ``assoc_ids``, or when their
    QOS or first partition's QOS is in ``qos``. ``run_mins`` asks for the TRES run time
    running jobs still hold (:func:`held_run_seconds`): they have given back their run
    time up to ``charged_until``, the last decay pass (of the passes every
    ``calc_period`` seconds from ``calc_anchor``), times their QOS UsageFactor, as
    sshare's TRESRunMins shows. ``billing`` asks for the running jobs' billing TRES
    (:func:`job_billable`, whole per job), which a store's sums cannot give unless it
    groups jobs by what they are billed for.
    """

    assoc_ids: frozenset[int]
    qos: frozenset[str]
    partitions: frozenset[str]
    """The partitions whose QOS is in ``qos``."""
    user: str | None  # None: an account's own check (``effective``), no user's jobs
    account: str
    run_mins: bool
    charged_until: int
    billing: bool = False
    calc_period: int = 300
    calc_anchor: int = 0
    now: int | None = None
    """The moment checked: a running job past its :func:`running_end` then counts no more
    (None: every running job counts)."""


@dataclass(slots=True)
class JobGroup:
    """Running or pending jobs counted together: ``count`` jobs, their summed TRES and
    the TRES-seconds of run time they hold (:func:`held_run_seconds`),
    when :attr:`JobScope.run_mins` asks for them. The TRES hold the jobs' billing (each
    job's whole billing TRES) when :attr:`JobScope.billing` asks for it.

    ``assoc_id`` is the jobs' association or its nearest ancestor among the checked
    state's (``fscli.engine.limits.check.LimitsState.assocs``); ``user`` and ``account``
    only need to be right for the checked user and account.
    """

    assoc_id: int | None
    running: bool
    count: int
    tres: dict[str, int]
    run_secs: dict[str, int] = field(default_factory=dict)
    qos: str | None = None
    partition: str | None = None
    user: str | None = None
    account: str | None = None


def held_run_seconds(
    scope: JobScope,
    tres: Mapping[str, int],
    start: int | None,
    time_limit: int | None,
    partition: Partition | None,
    qos: Qos | None,
) -> dict[str, int]:
    """TRES-seconds of run time a running job holding ``tres`` (or jobs alike in all else,
    their ``tres`` summed) holds at ``scope.charged_until``, per TRES but energy
    (:data:`~fscli.engine.runmins.NOT_HELD`): slurmctld adds ``time limit x UsageFactor``
    of its QOS when the job starts and takes back ``seconds run x UsageFactor`` at each
    decay pass (:func:`fscli.engine.runmins.held_seconds`, sshare's TRESRunMins), for its
    associations and its QOS alike. A job without a start holds all of it."""
    job = Allocation(
        0,
        scope.charged_until if start is None else start,
        running_time_limit(time_limit, partition),
        {},
        usage_factor(qos),
    )
    held = held_seconds(job, scope.charged_until, scope.calc_period, scope.calc_anchor)
    return {name: amount * held for name, amount in tres.items() if amount and name not in NOT_HELD}


def job_groups(
    jobs: Iterable[Job],
    scope: JobScope,
    *,
    assocs: Iterable[Assoc],
    partitions: Iterable[Partition],
    qos: Iterable[Qos],
    billing_weights: Mapping[str, float],
    priority_flags: Iterable[str],
) -> list[JobGroup]:
    """``jobs`` as one group per running or pending job, for a check given the jobs
    themselves rather than a store's aggregate. ``assocs`` name the account of a job that
    has none, ``partitions`` and ``qos`` give its billing weights, MaxTime and
    UsageFactor. When the scope reads billing, a running job holds its billing TRES as
    slurmctld computes it (:func:`job_billable` with ``billing_weights`` and
    ``priority_flags``), whatever billing its ``tres`` name."""
    account_of: dict[int | None, str] = {a.id: a.account for a in assocs}
    parts = {p.name: p for p in partitions}
    qos_by_name = {q.name: q for q in qos}
    out = []
    for job in jobs:
        part = parts.get(job.partitions[0]) if job.partitions else None
        running = job.state == _RUNNING
        if running and scope.now is not None:
            if not runs_at(job.state, job.start, job.time_limit, part, scope.now):
                continue  # ended at its time limit
        elif not running and job.state != _PENDING:
            continue
        tres = request_tres(job.cpus, job.nodes, job.tres) if running else {}
        if running and scope.billing:
            tres["billing"] = int(
                job_billable(job.cpus, job.nodes, job.tres, part, billing_weights, priority_flags)
            )
        run: dict[str, int] = {}
        if running and scope.run_mins:
            run = held_run_seconds(
                scope, tres, job.start, job.time_limit, part, qos_by_name.get(job.qos or "")
            )
        out.append(
            JobGroup(
                job.assoc_id,
                running,
                1,
                tres,
                run,
                job.qos,
                job.partitions[0] if job.partitions else None,
                job.user,
                job.account or account_of.get(job.assoc_id),
            )
        )
    return out


__all__ = [
    "JobGroup",
    "JobScope",
    "held_run_seconds",
    "job_billable",
    "job_groups",
    "running_end",
    "running_time_limit",
    "runs_at",
    "usage_factor",
]
