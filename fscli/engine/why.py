"""Why a pending job waits: its scheduling outcome explained, and what would let it run.

:func:`explain` takes the job's :class:`~fscli.engine.schedule.Outcome` from a pass, the
other outcomes (its rank and the jobs ahead in its partition), the running jobs, its
sprio row and the account tree, and says: the Reason, the limit that holds it and where,
the priority factor that costs it most, and the changes that would let it start — which
running jobs must end (earliest expected end first), or the value a limit would need.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fscli.engine.limits.check import JOB_COUNTS, Violation
from fscli.engine.limits.counting import running_end
from fscli.engine.limits.definitions import limit_text
from fscli.engine.model import Job, Partition
from fscli.engine.priority import PriorityRow
from fscli.engine.schedule import Outcome
from fscli.engine.tres import request_tres

_HELD_BY_RUNNING = frozenset(
    {"GrpTRES", "MaxTRESPerUser", "MaxTRESPerAccount"}
) | JOB_COUNTS.difference({"GrpSubmitJobs", "MaxSubmitJobs"})
"""Limits on what running jobs hold: jobs ending free room under them."""
_PER_JOB = frozenset(
    {
        "MaxTRESPerJob",
        "MaxTRESPerNode",
        "MaxTRESMinsPerJob",
        "MaxWallDurationPerJob",
        "MaxTime",
        "MaxNodes",
        "MinTRESPerJob",
        "MinNodes",
    }
)
"""Limits on the job's own size: only a larger (smaller) limit lets it run."""


@dataclass(slots=True)
class Unblock:
    """One way the job could start: ``jobs`` ending, or ``limit`` set to ``value``."""

    kind: str  # "jobs_end", "limit", "jobs_ahead", "never"
    text: str
    jobs: list[int] = field(default_factory=list)
    limit: str | None = None
    tres: str | None = None
    level: str | None = None
    source: str | None = None
    value: int | float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.jobs:
            out["jobs"] = self.jobs
        if self.limit is not None:
            out.update(
                limit=self.limit,
                tres=self.tres,
                level=self.level,
                source=self.source,
                value=self.value,
            )
        return out


@dataclass(slots=True)
class Cost:
    """The priority factor that costs the job most: ``lost`` = weight - weighted value."""

    factor: str
    value: float
    weight: float
    weighted: float
    lost: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "factor": self.factor,
            "value": self.value,
            "weight": self.weight,
            "weighted": round(self.weighted, 2),
            "lost": round(self.lost, 2),
        }

    def text(self) -> str:
        return (
            f"{self.factor} {self.value:.6g} x {self.weight:g} = {self.weighted:.2f} "
            f"({self.lost:.2f} below its weight)"
        )


@dataclass(slots=True)
class Why:
    """``job why``: the answer for one job (``reason`` is squeue's ``%r``)."""

    job: Job
    state: str
    reason: str
    kind: str
    partition: str | None = None
    priority: int | None = None
    rank: int | None = None
    queued: int | None = None
    ahead: list[int] = field(default_factory=list)
    violation: Violation | None = None
    others: list[Violation] = field(default_factory=list)
    limit_line: str | None = None
    cost: Cost | None = None
    unblock: list[Unblock] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        j = self.job
        return {
            "job_id": j.id,
            "user": j.user,
            "account": j.account,
            "partition": self.partition,
            "qos": j.qos,
            "state": self.state,
            "reason": self.reason,
            "kind": self.kind,
            "limit": self.violation.to_dict() if self.violation else None,
            "other_limits": [v.to_dict() for v in self.others],
            "priority": self.priority,
            "rank": self.rank,
            "pending_in_partition": self.queued,
            "ahead": self.ahead,
            "costliest_factor": self.cost.to_dict() if self.cost else None,
            "would_run": [u.to_dict() for u in self.unblock],
        }

    def lines(self) -> list[str]:
        """The answer for people, one fact a line."""
        j = self.job
        head = (
            f"job {j.id} (user {j.user}, account {j.account or '-'}, "
            f"partition {self.partition or '-'}, QOS {j.qos or '-'}) is {self.state}"
        )
        out = [head, f"Reason: {self.reason}"]
        if self.limit_line:
            out.append(f"limit: {self.limit_line}")
        out += [f"also: {_violation_text(v)}" for v in self.others]
        if self.rank is not None:
            where = f"rank {self.rank} of {self.queued} in partition {self.partition}"
            ahead = f"; ahead: {', '.join(map(str, self.ahead))}" if self.ahead else ""
            prio = f"priority {self.priority}, " if self.priority is not None else ""
            out.append(f"{prio}{where}{ahead}")
        if self.cost is not None:
            out.append(f"costs it most: {self.cost.text()}")
        out += [f"would run: {u.text}" for u in self.unblock]
        return out


def _violation_text(v: Violation) -> str:
    what = f"{v.limit}[{v.tres}]" if v.tres else v.limit
    used = "" if v.current is None else f", {limit_text(v.limit, v.tres, v.current)} in use"
    asked = "" if v.request is None else f", asks {limit_text(v.limit, v.tres, v.request)}"
    return (
        f"{v.reason}: {what}={limit_text(v.limit, v.tres, v.value)} at {v.level} "
        f"{v.source}{used}{asked}"
    )


def costliest(row: PriorityRow | None) -> Cost | None:
    """The factor (or TRES factor, or nice) whose shortfall from its weight is largest,
    as ``sprio --explain`` weighs them; None without factors (admin-set priority)."""
    if row is None or row.admin_set or row.context is None:
        return None
    weights = row.context.weights
    costs = [
        Cost(name, value, weights[name], row.weighted[name], weights[name] - row.weighted[name])
        for name, value in row.factors.items()
        if weights[name]
    ]
    tres_weights = row.context.config.tres_weights
    costs += [
        Cost(f"tres {name}", value, tres_weights[name], weighted, tres_weights[name] - weighted)
        for (name, value), weighted in zip(row.tres_factors.items(), row.tres_weighted_values)
    ]
    if row.nice > 0:
        costs.append(Cost("nice", row.nice, 1, -row.nice, row.nice))
    return max(costs, key=lambda c: c.lost) if costs else None


def _ends(job: Job, partitions: Mapping[str, Partition]) -> float:
    part = partitions.get(job.partitions[0]) if job.partitions else None
    end = running_end(job.start, job.time_limit, part)
    return math.inf if end is None else end


def _first_to_end(
    jobs: Sequence[Job], need: float, amount, partitions: Mapping[str, Partition]
) -> list[int] | None:
    """The fewest jobs, earliest expected end first, whose ``amount`` adds up to ``need``
    (None: all of them do not)."""
    picked, freed = [], 0.0
    for job in sorted(jobs, key=lambda j: (_ends(j, partitions), j.id)):
        if freed >= need:
            break
        picked.append(job.id)
        freed += amount(job)
    return picked if freed >= need else None


def _counted(
    v: Violation, job: Job, running: Sequence[Job], below: Mapping[str, set[str]], parts
) -> list[Job]:
    """The running jobs that count against ``v``'s limit for ``job``."""
    if v.level in ("qos", "partition-qos"):

        def in_qos(r: Job) -> bool:
            part = parts.get(r.partitions[0]) if r.partitions else None
            return v.source in (r.qos, part.qos if part else None)

        found = [r for r in running if in_qos(r)]
        if v.limit.endswith("PerUser"):
            found = [r for r in found if r.user == job.user]
        elif v.limit.endswith("PerAccount"):
            found = [r for r in found if r.account == job.account]
        return found
    if not v.limit.startswith("Grp"):  # Max* limits count the job's own association
        return [r for r in running if (r.user, r.account) == (job.user, job.account)]
    if v.level == "root":
        return list(running)
    if v.level == "account":
        accounts = below.get(v.source, {v.source})
        return [r for r in running if r.account in accounts]
    user, _, account = v.source.partition("@")
    return [r for r in running if (r.user, r.account) == (user, account.split(":")[0])]


def _limit_unblock(
    v: Violation,
    job: Job,
    running: Sequence[Job],
    below: Mapping[str, set[str]],
    parts: Mapping[str, Partition],
) -> list[Unblock]:
    """What lifts limit ``v``: jobs ending (limits on what runs), and the limit's value."""
    out = []
    request = v.request if v.request is not None else 0
    current = v.current if v.current is not None else 0
    count = v.limit in JOB_COUNTS
    if v.limit in _HELD_BY_RUNNING and request <= v.value:
        need = current + (1 if count else request) - v.value
        counted = _counted(v, job, running, below, parts)

        def amount(r: Job) -> float:
            return 1 if count else request_tres(r.cpus, r.nodes, r.tres).get(v.tres or "", 0)

        ending = _first_to_end(counted, need, amount, parts) if need > 0 else None
        if ending:
            out.append(
                Unblock("jobs_end", f"when jobs {', '.join(map(str, ending))} end", jobs=ending)
            )
    if v.limit in ("TotalCPUs", "TotalNodes"):
        what = "CPUs" if v.limit == "TotalCPUs" else "nodes"
        return [
            Unblock("never", f"never: partition {v.source} has {v.value} {what}, it asks {request}")
        ]
    if v.limit in _PER_JOB:
        needed: float = request
    elif count:
        needed = current + 1
    else:
        needed = current + request
    needed = math.ceil(needed) if needed != math.inf else needed
    if needed != math.inf:
        what = f"{v.limit}={v.tres}" if v.tres else v.limit
        shown = limit_text(v.limit, v.tres, needed)
        out.append(
            Unblock(
                "limit",
                f"if {what} at {v.level} {v.source} were {shown}",
                limit=v.limit,
                tres=v.tres,
                level=v.level,
                source=v.source,
                value=needed,
            )
        )
    return out


def _resource_unblock(
    outcome: Outcome, running: Sequence[Job], parts: Mapping[str, Partition]
) -> list[Unblock]:
    """The running jobs whose end frees the CPUs and memory the job lacks."""
    job = outcome.job
    part = parts.get(outcome.partition or "")
    if part is not None and part.cpus is not None and job.cpus > part.cpus:
        return [Unblock("never", f"never: partition {part.name} has {part.cpus} CPUs")]
    short = {"cpu": job.cpus - (outcome.free_cpus or 0)} if outcome.free_cpus is not None else {}
    if outcome.free_mem is not None:
        short["mem"] = job.tres.get("mem", 0) - outcome.free_mem
    short = {name: need for name, need in short.items() if need > 0}
    picked: list[int] = []
    for name, need in short.items():
        amount = (lambda r: r.cpus) if name == "cpu" else (lambda r: r.tres.get("mem", 0))
        freed = sum(amount(r) for r in running if r.id in picked)
        more = _first_to_end(
            [r for r in running if r.id not in picked], need - freed, amount, parts
        )
        if more is None:
            return []
        picked += more
    if not picked:
        return []
    what = " and ".join("CPUs" if name == "cpu" else "memory" for name in short)
    text = f"when jobs {', '.join(map(str, picked))} end (not enough {what} free now)"
    return [Unblock("jobs_end", text, jobs=picked)]


def explain(
    outcome: Outcome,
    outcomes: Sequence[Outcome],
    running: Sequence[Job],
    row: PriorityRow | None,
    below: Mapping[str, set[str]],
    partitions: Sequence[Partition],
) -> Why:
    """The :class:`Why` of ``outcome``. ``running``: the running jobs (and those the pass
    starts); ``below``: each account's name with the names of every account under it."""
    parts = {p.name: p for p in partitions}
    job = outcome.job
    same = [o for o in outcomes if o.partition == outcome.partition and o.kind != "held"]
    ahead = [o.job.id for o in same if o.order < outcome.order]
    why = Why(
        job,
        "pending",
        outcome.reason,
        outcome.kind,
        outcome.partition,
        outcome.priority,
        len(ahead) + 1 if outcome.kind != "held" else None,
        len(same),
        ahead,
        cost=costliest(row),
    )
    check = outcome.check
    if outcome.kind == "limit" and check is not None and check.violation is not None:
        why.violation, why.others = check.violation, list(check.others)
        why.limit_line = _violation_text(check.violation)
        for v in [check.violation, *check.others]:
            why.unblock += _limit_unblock(v, job, running, below, parts)
    elif outcome.kind == "resources":
        pool = [r for r in running if r.partitions[:1] == (outcome.partition,)] or list(running)
        why.unblock = _resource_unblock(outcome, pool, parts)
    elif outcome.kind in ("priority", "nodes"):
        first = outcome.blocked_by
        if first is None:
            text = "when the jobs of higher-priority partitions ahead of it have started"
        elif outcome.kind == "priority":
            text = f"after job {first} starts (first in partition {outcome.partition})"
        else:
            text = f"after job {first} starts (its partition holds the nodes)"
        why.unblock = [Unblock("jobs_ahead", text, jobs=[first] if first else [])]
    elif outcome.kind == "held":
        why.unblock = [Unblock("release", f"when released: fscli job modify {job.id} priority=-1")]
    elif outcome.kind == "begin":
        why.unblock = [Unblock("begin", "at its begin time")]
    elif outcome.kind == "start":
        why.unblock = [Unblock("now", "now: the next scheduling pass starts it")]
    return why


__all__ = ["Cost", "Unblock", "Why", "costliest", "explain"]
