"""Why pending jobs wait: one scheduling pass over the store's queue at a moment.

The pass (:func:`fscli.engine.schedule.schedule_pass`) takes the pending jobs by sprio's
priority, checks each one's limits as a submitted job with the jobs the pass starts before
it counted as running (``limits check``'s checker and counts), and its CPUs against what
runs. ``job why`` explains one job (:func:`fscli.engine.why.explain`); ``job list`` shows
every pending job's Reason.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fscli.api.store import Store
    from fscli.engine.model import Job, Partition
    from fscli.engine.priority import PriorityRow
    from fscli.engine.schedule import Outcome
    from fscli.engine.why import Why


@dataclass
class Schedule:
    """A pass's outcomes (in pass order), the jobs running then, each pending job's sprio
    row in its partition, and each account with every account below it."""

    outcomes: list[Outcome]
    running: list[Job]
    partitions: list[Partition]
    rows: dict[tuple[int, str], PriorityRow] = field(default_factory=dict)
    below: dict[str, set[str]] = field(default_factory=dict)

    def reasons(self) -> dict[int, str]:
        """squeue's ``%r`` of every pending job."""
        return {o.job.id: o.reason for o in self.outcomes}


def _below(parents: dict[str, str | None]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {name: {name} for name in parents}
    for name in parents:
        up = parents.get(name)
        seen = {name}
        while up is not None and up not in seen:
            out.setdefault(up, {up}).add(name)
            seen.add(up)
            up = parents.get(up)
    return out


def _priority_rows(store: Store, cluster: str | None, at: int, config) -> dict:
    """(job id, partition) -> sprio row; empty under priority/basic (first come, first
    served: the pass then goes by job id)."""
    from fscli.api.priorities import priorities

    if config.priority_type != "priority/multifactor":
        return {}
    result = priorities(store, cluster, at)
    return {(r.job_id, r.partition): r for r in result.columns.rows}


def schedule(store: Store, cluster: str | None, at: int, rows: bool = True) -> Schedule:
    """The pass at ``at`` over the cluster's pending jobs (``rows``: keep their sprio rows,
    which ``job why`` explains)."""
    from fscli.api.limits_usage import pass_usage
    from fscli.engine.limits.check import JobRequest, LimitsState, check
    from fscli.engine.limits.counting import runs_at
    from fscli.engine.schedule import Queued, schedule_pass
    from fscli.engine.tres import request_tres
    from fscli.store import snapshot
    from fscli.store.limits import state as limit_state

    with store.viewing() as conn:
        cid = snapshot.cluster_id_for(conn, cluster)
        config = snapshot.load_priority_config(conn, cid)
    prio = _priority_rows(store, cluster, at, config)
    with store.viewing() as conn:
        info = snapshot.load_cluster(conn, cid)
        parts = snapshot.load_partitions(conn, cid)
        jobs = snapshot.load_jobs(conn, cid, states=("pending", "running"))
        below = _below(snapshot.account_parents(conn, cid))
        running = [
            j
            for j in jobs
            if runs_at(
                j.state,
                j.start,
                j.time_limit,
                parts.get(j.partitions[0] if j.partitions else ""),
                at,
            )
        ]
        queue = []
        for j in jobs:
            if j.state != "pending":
                continue
            part = j.partitions[0] if j.partitions else None
            row = prio.get((j.id, part or ""))
            queue.append(Queued(j, part, row.priority if row else None))
        states: dict[tuple, LimitsState] = {}
        # the cluster's decayed usage once for every user of the queue, from the pass cache
        usage = functools.cache(pass_usage(conn, info.name, at))

        def check_job(job: Job, partition: str | None, started: list[Job]):
            key = (job.user, job.account)
            if key not in states:
                state = limit_state.load(conn, info.name, job.user, job.account)
                limit_state.attach_jobs(conn, info.name, state, at, started, usage=usage)
                states[key] = state
            req = JobRequest(
                job.user,
                job.account,
                partition,
                job.qos,
                request_tres(job.cpus, job.nodes, job.tres),
                job.time_limit,
            )
            return check(req, states[key], at, submitted=True)

        outcomes = schedule_pass(queue, running, info, parts.values(), check_job, at)
    started = [o.job for o in outcomes if o.kind == "start"]
    return Schedule(
        outcomes,
        running + started,
        sorted(parts.values(), key=lambda p: p.name),
        prio if rows else {},
        below,
    )


def why(store: Store, job_id: int, cluster: str | None, at: int) -> Why:
    """Why job ``job_id`` waits at ``at`` (a running or finished job: its state)."""
    from fscli.api.jobs import stored_job
    from fscli.engine.why import Why, explain

    job = stored_job(store, job_id, cluster)
    if job.state != "pending":
        return Why(job, job.state, "None", job.state, job.partitions[0] if job.partitions else None)
    plan = schedule(store, cluster, at)
    outcome = next(o for o in plan.outcomes if o.job.id == job_id)
    row = plan.rows.get((job_id, outcome.partition or ""))
    return explain(outcome, plan.outcomes, plan.running, row, plan.below, plan.partitions)


__all__ = ["Schedule", "schedule", "why"]
