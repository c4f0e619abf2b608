"""One pass of slurmctld's main scheduler over the pending jobs: the Reason each gets.

squeue's ``%r`` is the reason the last pass left on the job. ``schedule()`` in Slurm 22.05
(src/slurmctld/job_scheduler.c) walks the pending jobs by priority; for each one:

1. a limit that holds it before a start gives the limit's reason. schedule() tests a
   failed partition first, but the backfill scheduler (sched/backfill, every
   bf_interval: 30 s) runs ``acct_policy_job_runnable_pre/post_select`` on every pending
   job, which sets the limit's reason (and clears it once no limit holds the job); the
   failed-partition rule replaces only None and Resources, so the limit stays. Live
   22.05.8: a job over its MaxJobs behind a job waiting for Resources reads
   AssocMaxJobsLimit, not Priority;
2. a job whose partition already failed in this pass waits with ``Priority``;
3. when fewer nodes than the job needs are left to its partition (higher-priority
   partitions took theirs), ``Resources`` with the description squeue prints instead:
   "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority
   partitions"; the partition fails;
4. when its CPUs or memory are not free, ``Resources``, and the partition fails: its
   nodes are taken from every later job (step 3);
5. else the job starts (``None``): its CPUs and memory are taken, the limits count it.

The store knows no node list, only CPU, memory and node totals (cluster and partitions):
the free CPUs (memory) of a partition are the smaller of its total and the cluster's less
what runs there (a job's memory is its TRES's ``mem``, which squeue's tres-alloc gives);
a failed partition takes its node count (else the cluster's) from the nodes left. That is
exact when partitions share all their nodes or share none; unknown totals never block.
Held jobs (priority 0) are ``JobHeldAdmin``, jobs not yet eligible ``BeginTime``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from fscli.engine.limits.check import CheckResult
from fscli.engine.model import ClusterInfo, Job, Partition

PRIORITY = "Priority"
RESOURCES = "Resources"
NONE = "None"
HELD = "JobHeldAdmin"
BEGIN = "BeginTime"
_CLUSTER = "\0cluster"  # the key of the cluster's own totals in _Room.used
NODES_TAKEN = (
    "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions"
)
REFUSED = {
    "Invalid account or account/partition combination specified": "InvalidAccount",
    "Invalid qos specification": "InvalidQOS",
    "Invalid partition name specified": "PartitionConfig",
}
"""A stored job the checker would now refuse (its association, QOS or partition went away):
the reason slurmctld gives it."""


@dataclass(slots=True)
class Queued:
    """A pending job in one partition with its priority (None: no multifactor priority,
    first come first served)."""

    job: Job
    partition: str | None
    priority: int | None


@dataclass(slots=True)
class Outcome:
    """What the pass did with one job. ``kind``: start, limit, priority, resources, nodes,
    held, begin or refused. ``blocked_by``: the job whose failure closed the partition
    (``priority``), or the last one that took nodes (``nodes``); ``free_cpus``,
    ``free_mem``: the CPUs and memory (MB) it found free (None: unknown)."""

    job: Job
    partition: str | None
    priority: int | None
    reason: str
    kind: str
    order: int
    check: CheckResult | None = None
    blocked_by: int | None = None
    free_cpus: int | None = None
    free_mem: int | None = None


@dataclass(slots=True)
class _Room:
    """CPUs, memory (MB) and nodes still free in the pass (None: not known, never short)."""

    cluster: ClusterInfo
    partitions: dict[str, Partition]
    used: dict[tuple[str, str | None], int] = field(default_factory=dict)
    nodes_left: int | None = None

    def take(self, partition: str | None, job: Job) -> None:
        for name, amount in (("cpu", job.cpus), ("mem", job.tres.get("mem", 0))):
            for where in (partition, _CLUSTER):
                self.used[name, where] = self.used.get((name, where), 0) + amount

    def free(self, name: str, partition: str | None) -> int | None:
        """Free CPUs (``cpu``) or memory (``mem``) to a job in ``partition``: the smaller
        of the partition's and the cluster's total less what runs there."""
        part = self.partitions.get(partition or "")
        totals = (
            (part.cpus if name == "cpu" else part.tres.get(name)) if part else None,
            self.cluster.cpus if name == "cpu" else self.cluster.tres.get(name),
        )
        known = [
            total - self.used.get((name, where), 0)
            for total, where in zip(totals, (partition, _CLUSTER))
            if total is not None
        ]
        return max(0, min(known)) if known else None

    def nodes_for(self, partition: str | None) -> int | None:
        part = self.partitions.get(partition or "")
        known = [n for n in (part.nodes if part else None, self.nodes_left) if n is not None]
        return min(known) if known else None

    def fail(self, partition: str | None) -> None:
        """slurmctld's ``bit_and_not(avail_node_bitmap, part_ptr->node_bitmap)``."""
        if self.nodes_left is None:
            return
        part = self.partitions.get(partition or "")
        taken = part.nodes if part and part.nodes is not None else self.cluster.nodes
        self.nodes_left = max(0, self.nodes_left - (taken or 0))


def schedule_pass(
    queue: Iterable[Queued],
    running: Sequence[Job],
    cluster: ClusterInfo,
    partitions: Iterable[Partition],
    check: Callable[[Job, str | None, list[Job]], CheckResult],
    now: int,
) -> list[Outcome]:
    """The outcome of every queued job, in the order the pass takes them: priority high
    to low, then job id. ``running`` hold CPUs; ``check(job, partition, started)`` is the
    limit check of a submitted job with the jobs this pass started counted as running."""
    room = _Room(cluster, {p.name: p for p in partitions}, nodes_left=cluster.nodes)
    for job in running:
        room.take(job.partitions[0] if job.partitions else None, job)
    ordered = sorted(queue, key=lambda q: (-(q.priority or 0), q.job.id))
    failed: dict[str | None, int] = {}
    last_failed: int | None = None
    started: list[Job] = []
    out: list[Outcome] = []
    for order, q in enumerate(ordered, 1):
        job, part = q.job, q.partition
        outcome = Outcome(job, part, q.priority, NONE, "start", order)
        out.append(outcome)
        if job.admin_priority == 0:
            outcome.reason, outcome.kind = HELD, "held"
            continue
        if job.eligible is not None and job.eligible > now:
            outcome.reason, outcome.kind = BEGIN, "begin"
            continue
        result = check(job, part, started)
        outcome.check = result
        if result.verdict == "reject":
            outcome.reason = REFUSED.get(result.error or "", result.error or "")
            outcome.kind = "refused"
            continue
        if result.verdict == "pend":
            outcome.reason, outcome.kind = result.reason or "", "limit"
            continue
        if part in failed:
            outcome.reason, outcome.kind = PRIORITY, "priority"
            outcome.blocked_by = failed[part]
            continue
        nodes = room.nodes_for(part)
        outcome.free_cpus, outcome.free_mem = room.free("cpu", part), room.free("mem", part)
        short_mem = outcome.free_mem is not None and job.tres.get("mem", 0) > outcome.free_mem
        if nodes is not None and job.nodes > nodes:
            outcome.reason, outcome.kind = NODES_TAKEN, "nodes"
            outcome.blocked_by = last_failed
        elif (outcome.free_cpus is not None and job.cpus > outcome.free_cpus) or short_mem:
            outcome.reason, outcome.kind = RESOURCES, "resources"
        else:
            room.take(part, job)
            started.append(job)
            continue
        failed[part] = last_failed = job.id
        room.fail(part)
    return out


__all__ = ["NODES_TAKEN", "Outcome", "Queued", "schedule_pass"]
