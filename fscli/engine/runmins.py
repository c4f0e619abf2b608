"""TRES run-minutes: the TRES-time running jobs still hold (sshare's TRESRunMins).

slurmctld keeps ``grp_used_tres_run_secs`` per association (with limits enforced): when a
job starts it adds ``alloc x time limit`` (seconds, times the QOS UsageFactor) to the
job's association and every ancestor, and each decay pass takes back ``alloc x`` the
seconds the job ran since the previous pass (never past its time limit). So between
passes the figure stands still, and at time ``T`` a job holds

    alloc x (trunc(limit x UF) - sum over passes of trunc(seconds run x UF))

where the passes are those after its start up to ``P(T)``, the last pass at or before
``T`` (:func:`fscli.engine.passes.last_pass`), as for usage charges. The truncations are
Slurm's integer arithmetic (the counters are ``uint64``); sshare prints the sum over an
association's subtree divided by 60, an integer division too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from fscli.engine.passes import last_pass
from fscli.engine.timestr import INFINITE_MINUTES
from fscli.engine.tree import subtree_totals

NOT_HELD = frozenset({"energy"})
"""TRES a job never holds run time of (Slurm skips energy), in sshare and in limits alike."""


class Allocation(NamedTuple):
    """A running job as the run-minutes counters see it."""

    assoc_id: int
    start: int
    time_limit: int | None  # minutes; None = no limit (Slurm's INFINITE)
    tres: Mapping[str, int]  # what the job holds: cpu, mem (MB), node, billing, gres/...
    usage_factor: float = 1.0


def held_seconds(job: Allocation, at: int, period: int, anchor: int = 0) -> int:
    """Seconds of ``job``'s time limit (times UsageFactor) not yet taken back at ``at``."""
    uf = job.usage_factor
    limit = (INFINITE_MINUTES if job.time_limit is None else job.time_limit) * 60
    held = int(limit * uf)
    stop = min(last_pass(at, period, anchor), job.start + limit)  # taken back up to here
    if stop <= job.start:
        return held
    first = last_pass(job.start, period, anchor) + period  # the first pass after the start
    if first >= stop:
        return held - int((stop - job.start) * uf)
    whole, rest = divmod(stop - first, period)  # rest > 0 only when the limit came first
    taken = int((first - job.start) * uf) + whole * int(period * uf) + int(rest * uf)
    return max(0, held - taken)


def run_minutes(
    jobs: Iterable[Allocation],
    parent_of: Mapping[int, int | None],
    at: int,
    period: int,
    anchor: int = 0,
) -> dict[int, dict[str, int]]:
    """TRES run-minutes per association (its jobs and its descendants'), only for the
    associations that hold some. ``parent_of`` maps an association id to its parent's
    (None for the root); jobs of associations not in it are left out."""
    seconds: dict[int, dict[str, int]] = {}
    for job in jobs:
        held = held_seconds(job, at, period, anchor)
        own = seconds.setdefault(job.assoc_id, {})
        for name, count in job.tres.items():
            if count and held and name not in NOT_HELD:
                own[name] = own.get(name, 0) + count * held
    return {
        assoc_id: {name: secs // 60 for name, secs in total.items()}
        for assoc_id, total in subtree_totals(seconds, parent_of).items()
        if total
    }
