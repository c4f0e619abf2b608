"""Check one job request against the association/QOS/partition limits, as slurmctld would.

The checks run in the order of Slurm 22.05 (src/slurmctld/acct_policy.c, job_mgr.c):

1. submission (``_job_create``): unknown partition, no association for user/account
   (/partition), QOS not allowed; with ``enforce_part_limits`` the partition's time and
   node limits;
2. ``_acct_policy_validate``: QOS limits (first QOS, then second), then the association
   chain. Submit counts (GrpSubmitJobs, MaxSubmitJobs, MaxSubmitJobsPer*) always reject;
   size/time limits reject only under strict checking (DenyOnLimit on either QOS, or no
   QOS at all) — otherwise the job is accepted and pends on the same limit later;
3. ``job_limits_check``: the partition's MaxTime and Min/MaxNodes → PartitionTimeLimit,
   PartitionNodeLimit;
4. ``acct_policy_job_runnable_pre_select``: GrpJobs, GrpWall, MaxJobsPer*, MaxJobs, MaxWall
   (the time weighed as :class:`_Job` says);
5. ``acct_policy_job_runnable_post_select``: TRES-minute, GrpTRES, GrpTRESRunMins,
   per-job, per-node, per-account and per-user TRES limits.

Every violated limit is collected; the verdict comes from the first that decides it.
Counters are taken in one pass over the running and pending jobs, or over a store's
aggregates of them, for the :class:`~fscli.engine.limits.counting.JobScope` the check needs.
What each job counts for (its TRES, billing and the run-minutes it holds) is defined in
:mod:`fscli.engine.limits.counting`, which the store's aggregate and sshare read too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from fscli.engine import qoslist
from fscli.engine import reasons as R
from fscli.engine.config import DEFAULT_ENFORCE
from fscli.engine.limits import definitions as limitdefs
from fscli.engine.limits.counting import (
    JobGroup,
    JobScope,
    job_billable,
    job_groups,
    usage_factor,
)
from fscli.engine.limits.precedence import LimitEntry, Resolution, has_flag, resolve, resolve_detail
from fscli.engine.model import Assoc, Job, Partition, Qos
from fscli.engine.passes import last_pass
from fscli.engine.submit import MemoryDefaults, fill_memory
from fscli.engine.timestr import INFINITE_MINUTES
from fscli.engine.tree import ancestors
from fscli.engine.tres import request_tres
from fscli.errors import InvalidValue, UsageProblem

INF = math.inf
WALL = "wall"
"""Key of decayed wall-clock minutes in the usage dicts (for GrpWall)."""


@dataclass(slots=True)
class JobRequest:
    """A job as sbatch would submit it. ``time_limit`` is minutes, None when not given
    (:data:`~fscli.engine.timestr.INFINITE_MINUTES`: ``-t INFINITE``).
    ``user`` None (for :func:`effective` only) asks for the account's own association."""

    user: str | None
    account: str | None = None
    partition: str | None = None
    qos: str | None = None
    tres: dict[str, int] = field(default_factory=dict)
    time_limit: int | None = None


@dataclass(slots=True)
class LimitsState:
    """Plain data a check reads: copy it, change it and check again for a what-if.

    ``usage_mins`` maps an association id (or, for one not in ``assocs``, its nearest
    ancestor there) to its own decayed usage in TRES-minutes (the checker adds each
    association's usage to all its ancestors, as Slurm does);
    ``qos_usage_mins`` is the same per QOS name. The key :data:`WALL` holds wall minutes.
    """

    assocs: list[Assoc]
    qos: list[Qos]
    partitions: list[Partition] = field(default_factory=list)
    jobs: list[Job] = field(default_factory=list)
    usage_mins: dict[int, dict[str, float]] = field(default_factory=dict)
    qos_usage_mins: dict[str, dict[str, float]] = field(default_factory=dict)
    default_partition: str | None = None
    enforce: frozenset[str] = DEFAULT_ENFORCE
    enforce_part_limits: bool = False
    count_jobs: Callable[[JobScope], list[JobGroup]] | None = None
    """A store's aggregate of the running and pending jobs; None: count ``jobs``."""
    calc_period: int = 300
    calc_anchor: int = 0
    """The decay passes (PriorityCalcPeriod, seconds, and its anchor): a running job gives
    back its run time at them (GrpTRESRunMins)."""
    billing_weights: dict[str, float] = field(default_factory=dict)
    """TRESBillingWeights of partitions without their own (:func:`job_billable`)."""
    priority_flags: frozenset[str] = frozenset()
    """PriorityFlags (MAX_TRES changes how jobs are billed)."""
    memory: MemoryDefaults = field(default_factory=MemoryDefaults)
    """DefMemPerCPU/DefMemPerNode/MaxMemPerCPU: the memory of a job that gives none."""

    def groups_of(self, jobs: Iterable[Job], scope: JobScope) -> list[JobGroup]:
        """``jobs`` counted for ``scope`` (:func:`job_groups`) with this state's
        associations, partitions, QOS and billing."""
        return job_groups(
            jobs,
            scope,
            assocs=self.assocs,
            partitions=self.partitions,
            qos=self.qos,
            billing_weights=self.billing_weights,
            priority_flags=self.priority_flags,
        )


@dataclass(slots=True)
class Violation:
    """One limit the job breaks. ``limit`` is the name on the object holding it."""

    reason: str
    limit: str
    value: int | float
    level: str
    source: str
    tres: str | None = None
    current: int | float | None = None
    request: int | float | None = None
    rejects: bool = False
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"reason": self.reason, "limit": self.limit}
        if self.tres is not None:
            out["tres"] = self.tres
        out.update(
            value=self.value,
            current=_plain(self.current),
            request=_plain(self.request),
            level=self.level,
            source=self.source,
        )
        return out


@dataclass(slots=True)
class CheckResult:
    """``verdict`` is run, pend or reject; ``reason`` Slurm's reason string (for a policy
    rejection, the reason sbatch prints first); ``error`` sbatch's error text on reject."""

    verdict: str
    reason: str | None = None
    error: str | None = None
    violation: Violation | None = None
    others: list[Violation] = field(default_factory=list)
    qos: str | None = None
    partition: str | None = None
    time_limit: int | None = None
    strict: bool = False

    def sbatch_stderr(self) -> str:
        """What sbatch prints on stderr for a rejection (empty otherwise)."""
        if self.verdict != "reject":
            return ""
        lines = [f"sbatch: error: {self.reason}"] if self.reason else []
        lines.append(f"sbatch: error: Batch job submission failed: {self.error}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verdict": self.verdict, "reason": self.reason}
        if self.error:
            out["error"] = self.error
        v = self.violation
        out.update(
            limit=v.limit if v else None,
            tres=v.tres if v else None,
            value=v.value if v else None,
            current=_plain(v.current) if v else None,
            request=_plain(v.request) if v else None,
            level=v.level if v else None,
            source=v.source if v else None,
            others=[o.to_dict() for o in self.others],
            qos=self.qos,
            partition=self.partition,
            time_limit=self.time_limit,
        )
        return out


def _plain(value: float | None) -> int | float | None:
    """JSON-safe numbers: infinity (an unlimited time) becomes None, whole floats ints."""
    if value is None or value == INF:
        return None
    return int(value) if float(value).is_integer() else value


class _Usage:
    """Running/pending counters of one association subtree, QOS, or QOS user/account."""

    __slots__ = ("jobs", "run_secs", "submit", "tres")

    def __init__(self) -> None:
        self.jobs = 0
        self.submit = 0
        self.tres: dict[str, int] = {}
        self.run_secs: dict[str, int] = {}

    def add(self, group: JobGroup) -> None:
        self.submit += group.count
        if not group.running:
            return
        self.jobs += group.count
        used, run = self.tres, self.run_secs
        for name, amount in group.tres.items():
            used[name] = used.get(name, 0) + amount
        for name, secs in group.run_secs.items():
            run[name] = run.get(name, 0) + secs

    def run_mins(self, name: str) -> int:
        """TRES-minutes the running jobs hold, in whole minutes as slurmctld divides its
        seconds counter (``grp_used_tres_run_secs / 60``) and sshare's TRESRunMins shows it."""
        return self.run_secs.get(name, 0) // 60


JOB_COUNTS = frozenset(
    {
        "GrpJobs",
        "GrpSubmitJobs",
        "MaxJobs",
        "MaxSubmitJobs",
        "MaxJobsPerUser",
        "MaxJobsPerAccount",
        "MaxSubmitJobsPerUser",
        "MaxSubmitJobsPerAccount",
    }
)
"""Limits on numbers of jobs: they read the counters whatever the request."""
TRES_COUNTS = frozenset(
    {"GrpTRES", "GrpTRESMins", "GrpTRESRunMins", "MaxTRESPerUser", "MaxTRESPerAccount"}
)
"""TRES limits that read the counters, for the TRES the job requests only."""


def _reads_jobs(entry: LimitEntry, job: _Job) -> bool:
    """Whether checking ``entry`` for ``job`` reads counts of other jobs."""
    return entry.own_name in JOB_COUNTS or (
        entry.own_name in TRES_COUNTS and entry.tres is not None and job.req(entry.tres) != 0
    )


def _climber(parent: dict[int, int | None], members: set[int]):
    """``up(aid)``: the ``members`` at or above ``aid`` (memoised walk up the tree)."""
    cache: dict[int | None, tuple[int, ...]] = {None: ()}

    def up(aid: int | None) -> tuple[int, ...]:
        path = []
        node = aid
        while node is not None and node not in cache:  # None (above root) is cached
            path.append(node)
            node = parent.get(node)
        found = cache[node]
        for member in reversed(path):
            found = (member, *found) if member in members else found
            cache[member] = found
        return found

    return up


class _Counters:
    """Counts for the associations of one chain and the QOS of one job, in one pass.

    Only what some limit reads for this job is counted: the user association, the
    ancestors and QOS whose limits on job counts, or on a TRES the job requests, apply;
    run-minutes only when a run-minute limit exists, or a GrpTRESMins under ``safe`` (its
    look-ahead adds what running jobs hold to the request). The jobs come from
    ``state.count_jobs`` (a store's aggregate query for that :class:`JobScope`) or else
    from ``state.jobs``. Decayed usage is summed for the ancestors with a Grp limit.
    """

    def __init__(
        self,
        state: LimitsState,
        chain: list[Assoc],
        res: Resolution,
        job: _Job,
        user: str | None,
        account: str,
        parts: dict[str, Partition],
        now: int,
    ) -> None:
        self.assoc = {a.id: _Usage() for a in chain}
        self.usage: dict[int, dict[str, float]] = {a.id: {} for a in chain}
        qos_names = {q.name for q, _ in res.qos_order}
        self.qos = {name: _Usage() for name in qos_names}
        self.qos_user = {name: _Usage() for name in qos_names}
        self.qos_account = {name: _Usage() for name in qos_names}
        entries = res.qos_entries + res.assoc_entries
        counted_qos = {e.origin for e in res.qos_entries if _reads_jobs(e, job)}
        grp = [e for e in res.assoc_entries if e.name.startswith("Grp")]
        counted = {chain[0].id} | {e.origin for e in grp if _reads_jobs(e, job)}
        part_qos = {p.name: p.qos for p in parts.values()}
        scope = JobScope(
            frozenset(counted),
            frozenset(counted_qos),
            frozenset(p for p, q in part_qos.items() if q in counted_qos),
            user,
            account,
            any(
                "RunMins" in e.own_name or (e.own_name == "GrpTRESMins" and "safe" in state.enforce)
                for e in entries
            ),
            last_pass(now, state.calc_period, state.calc_anchor),
            any(e.tres == "billing" and _reads_jobs(e, job) for e in res.qos_entries + grp),
            state.calc_period,
            state.calc_anchor,
            now,
        )
        reads = counted_qos or any(_reads_jobs(e, job) for e in res.assoc_entries)
        groups = (
            []  # no limit here counts jobs: nothing to count
            if not reads
            else state.count_jobs(scope)
            if state.count_jobs
            else state.groups_of(state.jobs, scope)
        )
        parent = {a.id: a.parent_id for a in state.assocs}
        ancestors = _climber(parent, counted)
        for group in groups:
            targets = [self.assoc[a] for a in ancestors(group.assoc_id)]
            if counted_qos:
                for name in {group.qos, part_qos.get(group.partition or "")}:
                    if name is not None and name in counted_qos:
                        targets.append(self.qos[name])
                        if group.user == user:
                            targets.append(self.qos_user[name])
                        if group.account == account:
                            targets.append(self.qos_account[name])
            for usage in targets:
                usage.add(group)
        holders = _climber(parent, {chain[0].id} | {e.origin for e in grp})
        for aid, mins in state.usage_mins.items():
            for member in holders(aid):
                target = self.usage[member]
                for name, amount in mins.items():
                    target[name] = target.get(name, 0.0) + amount


def _weigh(time: float, qos: Qos | None) -> float:
    """``time`` as slurmctld weighs a job's time limit before it starts: times the job
    QOS's UsageFactor when that QOS has the flag UsageFactorSafe (an INFINITE time only
    when the factor is below 1), truncated as the uint32 it is kept in; else ``time``."""
    factor = usage_factor(qos)
    if has_flag(qos, "UsageFactorSafe") and (time != INF or factor < 1):
        return int(min(time, INFINITE_MINUTES) * factor)
    return time


@dataclass(slots=True)
class _Job:
    """The request as the checks see it: TRES, nodes, time (INF = unlimited).

    Before it starts slurmctld checks ``run_time``, the time weighed by :func:`_weigh`:
    against MaxWall, against GrpWall under ``safe`` (``acct_policy_job_runnable_pre_select``)
    and in the TRES-minute limits (``..._post_select``); submission checks use the time.
    A QOS's MaxWall sees ``run_time_twice`` when that QOS's GrpWall was checked first:
    ``_qos_job_runnable_pre_select`` weighs the time it already weighed for GrpWall again.
    ``free`` (UsageFactor 0) clears the used and running TRES-minutes, so such jobs can run.
    """

    tres: dict[str, int]
    time: float
    time_given: bool
    run_time: float
    run_time_twice: float
    free: bool = False

    @classmethod
    def of(cls, tres: dict[str, int], time: float, given: bool, qos: Qos | None) -> _Job:
        run_time = _weigh(time, qos)
        return cls(tres, time, given, run_time, _weigh(run_time, qos), usage_factor(qos) == 0)

    @property
    def nodes(self) -> int:
        return self.tres.get("node", 1) or 1

    def req(self, name: str) -> int:
        return self.tres.get(name, 0)

    def per_node(self, name: str) -> float:
        return self.req(name) // self.nodes

    def mins(self, name: str) -> float:
        amount = self.tres.get(name, 0)
        return amount * self.time if amount else 0

    def run_mins(self, name: str) -> float:
        amount = self.tres.get(name, 0)
        return amount * self.run_time if amount else 0


class _Checker:
    """Walks the checks in Slurm's order and records every violation."""

    def __init__(
        self,
        res: Resolution,
        chain: list[Assoc],
        counters: _Counters,
        job: _Job,
        strict: bool,
        state: LimitsState,
    ) -> None:
        self.res = res
        self.chain = chain
        self.c = counters
        self.job = job
        self.strict = strict
        self.state = state
        self.found: list[Violation] = []
        self.by_source: dict[Any, list[LimitEntry]] = {}
        for entry in res.qos_entries + res.assoc_entries:
            self.by_source.setdefault(entry.origin, []).append(entry)
        self.user_max = [e for e in res.assoc_entries if not e.name.startswith("Grp")]

    # -- helpers ---------------------------------------------------------------------
    def _qos_limits(self, qos: Qos, name: str) -> list[LimitEntry]:
        return [e for e in self.by_source.get(qos.name, ()) if e.own_name == name]

    def _assoc_limits(self, assoc: Assoc, name: str) -> list[LimitEntry]:
        return [
            e
            for e in self.by_source.get(assoc.id, ())
            if e.name == name and e.name.startswith("Grp")
        ]

    def _max_limits(self, name: str) -> list[LimitEntry]:
        return [e for e in self.user_max if e.name == name]

    def _add(
        self,
        entry: LimitEntry,
        reason: str,
        current: float | None,
        request: float | None,
        rejects: bool = False,
    ) -> None:
        self.found.append(
            Violation(
                reason,
                entry.own_name,
                entry.value,
                entry.level,
                entry.source,
                entry.tres,
                current,
                request,
                rejects,
                R.ERR_ACCOUNTING_POLICY if rejects else None,
            )
        )

    def _tres(
        self,
        entries: Iterable[LimitEntry],
        check: str,
        amount,
        current=None,
        rejects: bool = False,
        minimum: bool = False,
    ) -> None:
        """Per-TRES comparison: ``amount(tres)`` against the limit (``current`` adds in)."""
        for e in entries:
            assert e.tres is not None, "a per-TRES limit names its TRES"
            ask = amount(e.tres)
            if not ask and not minimum:
                continue
            used = current(e.tres) if current else 0
            bad = ask < e.value if minimum else (ask > e.value or used + ask > e.value)
            if bad:
                self._add(e, R.tres_reason(check, e.tres), used if current else None, ask, rejects)

    # -- 2. _acct_policy_validate ----------------------------------------------------------
    def validate(self) -> None:
        job, strict = self.job, self.strict
        timed = strict and job.time_given
        for qos, _ in self.res.qos_order:
            if strict:
                self._tres(
                    self._qos_limits(qos, "MaxTRESPerAccount"),
                    "qos_max_per_account",
                    job.req,
                    rejects=True,
                )
                self._tres(
                    self._qos_limits(qos, "MaxTRESPerUser"),
                    "qos_max_per_user",
                    job.req,
                    rejects=True,
                )
                self._tres(self._qos_limits(qos, "GrpTRES"), "qos_grp", job.req, rejects=True)
            for e in self._qos_limits(qos, "GrpSubmitJobs"):
                self._count(e, R.QOS_GRP_SUBMIT, self.c.qos[qos.name].submit, True)
            if timed:
                for name, check in (
                    ("MaxTRESMinsPerJob", "qos_max_mins_per_job"),
                    ("GrpTRESMins", "qos_grp_mins"),
                    ("GrpTRESRunMins", "qos_grp_run_mins"),
                ):
                    self._tres(self._qos_limits(qos, name), check, job.mins, rejects=True)
                self._time(
                    self._qos_limits(qos, "MaxWallDurationPerJob"), R.QOS_MAX_WALL, job.time, True
                )
                self._time(self._qos_limits(qos, "GrpWall"), R.QOS_GRP_WALL, job.time, True)
            if strict:
                self._tres(
                    self._qos_limits(qos, "MaxTRESPerJob"), "qos_max_per_job", job.req, rejects=True
                )
                self._tres(
                    self._qos_limits(qos, "MaxTRESPerNode"),
                    "qos_max_per_node",
                    job.per_node,
                    rejects=True,
                )
            for e in self._qos_limits(qos, "MaxSubmitJobsPerAccount"):
                self._count(
                    e, R.QOS_MAX_SUBMIT_PER_ACCOUNT, self.c.qos_account[qos.name].submit, True
                )
            for e in self._qos_limits(qos, "MaxSubmitJobsPerUser"):
                self._count(e, R.QOS_MAX_SUBMIT_PER_USER, self.c.qos_user[qos.name].submit, True)
            if strict:
                self._tres(
                    self._qos_limits(qos, "MinTRESPerJob"),
                    "qos_min_per_job",
                    job.req,
                    rejects=True,
                    minimum=True,
                )
        for assoc in self.chain:
            usage = self.c.assoc[assoc.id]
            if strict:
                self._tres(self._assoc_limits(assoc, "GrpTRES"), "assoc_grp", job.req, rejects=True)
            for e in self._assoc_limits(assoc, "GrpSubmitJobs"):
                self._count(e, R.ASSOC_GRP_SUBMIT, usage.submit, True)
            if timed:
                self._tres(
                    self._assoc_limits(assoc, "GrpTRESMins"),
                    "assoc_grp_mins",
                    job.mins,
                    rejects=True,
                )
                self._tres(
                    self._assoc_limits(assoc, "GrpTRESRunMins"),
                    "assoc_grp_run_mins",
                    job.mins,
                    rejects=True,
                )
                self._time(self._assoc_limits(assoc, "GrpWall"), R.ASSOC_GRP_WALL, job.time, True)
            if assoc is not self.chain[0]:
                continue
            if strict:
                self._tres(
                    self._max_limits("MaxTRESPerJob"), "assoc_max_per_job", job.req, rejects=True
                )
                self._tres(
                    self._max_limits("MaxTRESPerNode"),
                    "assoc_max_per_node",
                    job.per_node,
                    rejects=True,
                )
            for e in self._max_limits("MaxSubmitJobs"):
                self._count(e, R.ASSOC_MAX_SUBMIT, usage.submit, True)
            if timed:
                self._tres(
                    self._max_limits("MaxTRESMinsPerJob"),
                    "assoc_max_mins_per_job",
                    job.mins,
                    rejects=True,
                )
                self._time(
                    self._max_limits("MaxWallDurationPerJob"), R.ASSOC_MAX_WALL, job.time, True
                )

    def _count(self, entry: LimitEntry, reason: str, used: int, submit: bool) -> None:
        """Job counts: a submission needs room for one more, a start needs used < limit."""
        if (used + 1 > entry.value) if submit else (used >= entry.value):
            self._add(entry, reason, used, 1, rejects=submit)

    def _time(
        self, entries: Iterable[LimitEntry], reason: str, time: float, rejects: bool = False
    ) -> None:
        for e in entries:
            if time > e.value:
                self._add(e, reason, None, time, rejects)

    def _wall(self, entries: Iterable[LimitEntry], reason: str, used: float) -> None:
        """GrpWall before start: blocked once the decayed wall minutes reach the limit and,
        under ``safe``, when the weighed time would take them past it (slurmctld adds
        the time to whole minutes: ``grp_used_wall / 60`` in a uint32)."""
        safe = "safe" in self.state.enforce
        for e in entries:
            if used >= e.value:
                self._add(e, reason, used, self.job.time)
            elif safe and int(used) + self.job.run_time > e.value:
                self._add(e, reason, used, self.job.run_time)

    # -- 3. job_limits_check --------------------------------------------------------------
    def partition(self, part: Partition | None) -> None:
        """The partition's MaxTime and Min/MaxNodes, and (``_part_access_check``) its
        total CPUs and nodes: refused at submission under EnforcePartLimits, else pending."""
        enforce = self.state.enforce_part_limits
        part_name = part.name if part else ""
        sizes = (
            (
                (
                    part.cpus,
                    self.job.req("cpu"),
                    "TotalCPUs",
                    R.PARTITION_CONFIG,
                    R.ERR_TOO_MANY_CPUS,
                ),
                (
                    part.nodes,
                    self.job.nodes,
                    "TotalNodes",
                    R.PARTITION_NODES,
                    R.ERR_INVALID_NODE_COUNT,
                ),
            )
            if part
            else ()
        )
        for total, ask, name, reason, error in sizes:
            if total is not None and ask > total:
                self.found.append(
                    Violation(
                        reason,
                        name,
                        total,
                        "partition",
                        part_name,
                        None,
                        None,
                        ask,
                        enforce,
                        error if enforce else None,
                    )
                )
        for e in self.res.partition_entries:
            asked: float
            if e.name == "MaxWallDurationPerJob":
                asked = self.job.time
                bad = asked > e.value
                reason, error = R.PARTITION_TIME, R.ERR_INVALID_TIME_LIMIT
            else:
                asked = self.job.nodes
                bad = asked < e.value if e.name.startswith("Min") else asked > e.value
                reason, error = R.PARTITION_NODES, R.ERR_INVALID_NODE_COUNT
            if bad:
                self.found.append(
                    Violation(
                        reason,
                        e.own_name,  # a partition's MaxTime, as the partition names it
                        e.value,
                        e.level,
                        e.source,
                        e.tres,
                        None,
                        asked,
                        enforce,
                        error if enforce else None,
                    )
                )

    # -- 4. acct_policy_job_runnable_pre_select --------------------------------------------
    def pre_select(self) -> None:
        for qos, _ in self.res.qos_order:
            counts = self.c.qos[qos.name]
            for e in self._qos_limits(qos, "GrpJobs"):
                self._count(e, R.QOS_GRP_JOBS, counts.jobs, False)
            wall = self.state.qos_usage_mins.get(qos.name, {}).get(WALL, 0.0)
            grp_wall = self._qos_limits(qos, "GrpWall")
            self._wall(grp_wall, R.QOS_GRP_WALL, wall)
            for e in self._qos_limits(qos, "MaxJobsPerAccount"):
                self._count(e, R.QOS_MAX_JOBS_PER_ACCOUNT, self.c.qos_account[qos.name].jobs, False)
            for e in self._qos_limits(qos, "MaxJobsPerUser"):
                self._count(e, R.QOS_MAX_JOBS_PER_USER, self.c.qos_user[qos.name].jobs, False)
            self._time(
                self._qos_limits(qos, "MaxWallDurationPerJob"),
                R.QOS_MAX_WALL,
                self.job.run_time_twice if grp_wall else self.job.run_time,
            )
        for assoc in self.chain:
            counts = self.c.assoc[assoc.id]
            for e in self._assoc_limits(assoc, "GrpJobs"):
                self._count(e, R.ASSOC_GRP_JOBS, counts.jobs, False)
            wall = self.c.usage[assoc.id].get(WALL, 0.0)
            self._wall(self._assoc_limits(assoc, "GrpWall"), R.ASSOC_GRP_WALL, wall)
            if assoc is self.chain[0]:
                for e in self._max_limits("MaxJobs"):
                    self._count(e, R.ASSOC_MAX_JOBS, counts.jobs, False)
                self._time(
                    self._max_limits("MaxWallDurationPerJob"), R.ASSOC_MAX_WALL, self.job.run_time
                )

    # -- 5. acct_policy_job_runnable_post_select -------------------------------------------
    def _held(self, counts: _Usage) -> Callable[[str], int]:
        """Run-minutes ``counts`` hold per TRES, as post-select reads them."""
        return (lambda t: 0) if self.job.free else counts.run_mins

    def _minutes(self, entries, check: str, usage: dict[str, float], counts: _Usage):
        """GrpTRESMins: blocked once usage reaches the limit (and, under ``safe``, when
        the job could not finish within what is left with what running jobs hold)."""
        safe = "safe" in self.state.enforce
        held = self._held(counts)
        for e in entries:
            ask = self.job.run_mins(e.tres)
            if not ask:
                continue
            used = 0.0 if self.job.free else usage.get(e.tres, 0.0)
            unsafe = safe and (ask > e.value or ask + held(e.tres) > e.value - used)
            if used >= e.value or unsafe:
                self._add(e, R.tres_reason(check, e.tres), used, ask)

    def post_select(self) -> None:
        job = self.job
        for qos, _ in self.res.qos_order:
            counts = self.c.qos[qos.name]
            usage = self.state.qos_usage_mins.get(qos.name, {})
            self._minutes(self._qos_limits(qos, "GrpTRESMins"), "qos_grp_mins", usage, counts)
            self._tres(
                self._qos_limits(qos, "GrpTRES"),
                "qos_grp",
                job.req,
                lambda t, u=counts: u.tres.get(t, 0),
            )
            self._tres(
                self._qos_limits(qos, "GrpTRESRunMins"),
                "qos_grp_run_mins",
                job.run_mins,
                self._held(counts),
            )
            self._tres(
                self._qos_limits(qos, "MaxTRESMinsPerJob"), "qos_max_mins_per_job", job.run_mins
            )
            self._tres(self._qos_limits(qos, "MaxTRESPerJob"), "qos_max_per_job", job.req)
            self._tres(self._qos_limits(qos, "MaxTRESPerNode"), "qos_max_per_node", job.per_node)
            self._tres(
                self._qos_limits(qos, "MinTRESPerJob"), "qos_min_per_job", job.req, minimum=True
            )
            self._tres(
                self._qos_limits(qos, "MaxTRESPerAccount"),
                "qos_max_per_account",
                job.req,
                lambda t, u=self.c.qos_account[qos.name]: u.tres.get(t, 0),
            )
            self._tres(
                self._qos_limits(qos, "MaxTRESPerUser"),
                "qos_max_per_user",
                job.req,
                lambda t, u=self.c.qos_user[qos.name]: u.tres.get(t, 0),
            )
        for assoc in self.chain:
            counts = self.c.assoc[assoc.id]
            self._minutes(
                self._assoc_limits(assoc, "GrpTRESMins"),
                "assoc_grp_mins",
                self.c.usage[assoc.id],
                counts,
            )
            self._tres(
                self._assoc_limits(assoc, "GrpTRES"),
                "assoc_grp",
                job.req,
                lambda t, u=counts: u.tres.get(t, 0),
            )
            self._tres(
                self._assoc_limits(assoc, "GrpTRESRunMins"),
                "assoc_grp_run_mins",
                job.run_mins,
                self._held(counts),
            )
            if assoc is self.chain[0]:
                self._tres(
                    self._max_limits("MaxTRESMinsPerJob"), "assoc_max_mins_per_job", job.run_mins
                )
                self._tres(self._max_limits("MaxTRESPerJob"), "assoc_max_per_job", job.req)
                self._tres(self._max_limits("MaxTRESPerNode"), "assoc_max_per_node", job.per_node)


def _find_assoc(state: LimitsState, req: JobRequest, partition: str | None) -> Assoc | None:
    mine = [a for a in state.assocs if a.user == req.user]
    account = req.account
    if account is None:
        accounts = sorted({a.account for a in mine})
        if len(accounts) > 1:
            raise UsageProblem(
                f"user {req.user} has several accounts ({', '.join(accounts)}): name one "
                "with account="
            )
        account = accounts[0] if accounts else None
    fits = [a for a in mine if a.account == account and a.partition in (partition, None)]
    fits.sort(key=lambda a: a.partition is None)
    return fits[0] if fits else None


def _first_up(chain: list[Assoc], attr: str):
    return next((getattr(a, attr) for a in chain if getattr(a, attr)), None)


def _pick_qos(
    req: JobRequest, chain: list[Assoc], qos_by_name: dict[str, Qos], enforce: frozenset[str]
) -> tuple[Qos | None, bool]:
    """The job's QOS and whether it is allowed (``_get_default_qos`` + validation).

    An association chain with no QOS list at all allows every QOS: a store that never
    recorded the lists should not turn every check into a rejection. A list made by
    ``qos-=`` may be empty: then none is allowed.
    """
    listed = qoslist.effective(chain, qos_by_name)
    allowed = tuple(qos_by_name) if listed is None else listed
    name = req.qos or _first_up(chain, "default_qos")
    if name is None:
        name = allowed[0] if len(allowed) == 1 else "normal"
    qos = qos_by_name.get(name)
    if req.qos is not None and qos is None:
        return None, False
    ok = "qos" not in enforce or qos is None or name in allowed
    return qos, ok


def _fill_time(
    req: JobRequest,
    tres: dict[str, int],
    res: Resolution,
    strict: bool,
    partition: Partition | None,
) -> tuple[float, bool]:
    """The job's time limit in minutes (INF = none), filled like ``_set_time_limit``:
    without ``-t`` the tightest wall limit (and, under strict checking, TRES-minute limit
    divided by the request's ``tres``) becomes the time limit, else the partition's MaxTime."""
    if req.time_limit is not None:
        return (INF if req.time_limit >= INFINITE_MINUTES else float(req.time_limit)), True
    walls = ("MaxWallDurationPerJob", "GrpWall")
    mins = ("MaxTRESMinsPerJob", "GrpTRESMins", "GrpTRESRunMins")
    caps: list[float] = []
    for e in res.qos_entries + res.assoc_entries:
        if e.own_name in walls:
            caps.append(e.value)
        elif strict and e.own_name in mins and e.tres is not None and tres.get(e.tres):
            caps.append(e.value // tres[e.tres])
    if caps:
        return float(min(caps)), False
    if partition is not None and partition.max_time is not None:
        return float(partition.max_time), False
    return INF, False


class _Refused(Exception):
    """Slurm refuses the request at submission: ``args`` are sbatch's error text and the
    partition or QOS named (None when no association fits)."""


def _place(
    req: JobRequest, state: LimitsState
) -> tuple[list[Assoc], Qos | None, Partition | None, Qos | None]:
    """(association chain, job QOS, partition, partition QOS) as ``_job_create`` finds
    them, or :class:`_Refused`. With ``req.user`` None, the account's own association."""
    part_name = req.partition or state.default_partition
    partition = next((p for p in state.partitions if p.name == part_name), None)
    if part_name and partition is None:
        raise _Refused(R.ERR_INVALID_PARTITION, part_name)
    if req.user is None:
        assoc = next((a for a in state.assocs if a.user is None and a.account == req.account), None)
    else:
        assoc = _find_assoc(state, req, part_name)
    if assoc is None:
        raise _Refused(R.ERR_INVALID_ACCOUNT, None)
    chain = ancestors(assoc.id, {a.id: a for a in state.assocs})
    qos_by_name = {q.name: q for q in state.qos}
    job_qos, allowed = _pick_qos(req, chain, qos_by_name, state.enforce)
    if not allowed:
        raise _Refused(R.ERR_INVALID_QOS, str(req.qos))
    part_qos = qos_by_name.get(partition.qos) if partition and partition.qos else None
    return chain, job_qos, partition, part_qos


def _billed(req: JobRequest, partition: Partition | None, state: LimitsState) -> dict[str, int]:
    """The request's TRES with its default memory (:func:`fill_memory`, which may add CPUs)
    and its billing TRES, whole, as ``_job_create`` sets ``tres_req_cnt[billing]`` before
    any limit is checked. A billing the request names itself is kept: a what-if for a
    figure the store's weights do not give."""
    tres = dict(req.tres) or request_tres()
    tres["cpu"], tres = fill_memory(
        tres.get("cpu", 1), tres.get("node", 1), tres, state.memory.under(partition)
    )
    if "billing" not in tres:
        tres["billing"] = int(
            job_billable(
                tres.get("cpu", 0),
                tres.get("node", 0),
                tres,
                partition,
                state.billing_weights,
                state.priority_flags,
            )
        )
    return tres


def check(req: JobRequest, state: LimitsState, now: int, submitted: bool = False) -> CheckResult:
    """Whether ``req`` would run now, pend (with Slurm's reason) or be rejected at submit.

    ``now`` (epoch seconds) dates the running jobs' remaining time for GrpTRESRunMins (as
    of the last decay pass before it). ``submitted``: ``req`` is a pending job Slurm
    already accepted (``job why``): the submission checks are behind it (its own place in
    the submit counts would refuse it again), so only what holds it before a start is
    checked, and a limit that would have refused it makes it pend.
    """
    part_name = req.partition or state.default_partition
    try:
        chain, job_qos, partition, part_qos = _place(req, state)
    except _Refused as no:
        error = no.args[0]
        return CheckResult(
            "reject",
            error=error,
            partition=part_name,
            qos=req.qos if error == R.ERR_INVALID_QOS else None,
        )
    res = resolve_detail(chain, job_qos, partition, part_qos)
    strict = not res.qos_order or any(has_flag(q, "DenyOnLimit") for q, _ in res.qos_order)
    tres = _billed(req, partition, state)
    time, given = _fill_time(req, tres, res, strict, partition)
    job = _Job.of(tres, time, given, job_qos)
    result = CheckResult(
        "run",
        qos=job_qos.name if job_qos else None,
        partition=part_name,
        time_limit=None if time == INF else int(time),
        strict=strict,
    )
    if "limits" not in state.enforce:
        return result
    parts = {p.name: p for p in state.partitions}
    counters = _Counters(state, chain, res, job, req.user, chain[0].account, parts, now)
    checker = _Checker(res, chain, counters, job, strict, state)
    checker.partition(partition)
    part_found, checker.found = checker.found, []
    if submitted:
        for v in part_found:
            v.rejects, v.error = False, None
    else:
        checker.validate()
    checker.found = (
        [v for v in part_found if v.rejects]
        + checker.found
        + [v for v in part_found if not v.rejects]
    )
    checker.pre_select()
    checker.post_select()
    found = _dedupe(checker.found)
    if not found:
        return result
    first = next((v for v in found if v.rejects), found[0])
    result.verdict = "reject" if first.rejects else "pend"
    result.violation = first
    result.others = [v for v in found if v is not first]
    result.error = first.error
    if first.error in (None, R.ERR_ACCOUNTING_POLICY):
        result.reason = first.reason
    return result


def effective(req: JobRequest, state: LimitsState) -> list[LimitEntry]:
    """The limits in force for jobs like ``req`` (``limits show --effective``).

    The association, job QOS and partition are found as :func:`check` finds them; with
    ``req.user`` None the account's own association is used. A request Slurm would refuse
    at submission (unknown partition, no association, QOS not allowed) raises
    :class:`InvalidValue` with Slurm's error text.
    """
    try:
        return resolve(*_place(req, state))
    except _Refused as no:
        error, name = no.args
        raise InvalidValue(error if name is None else f"{error}: {name}") from None


def _dedupe(found: list[Violation]) -> list[Violation]:
    """Drop repeats: a strict per-job limit is seen at submit and again before start."""
    seen: set[tuple] = set()
    out = []
    for v in found:
        key = (v.reason, v.limit, v.tres, v.source)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def describe(result: CheckResult) -> str:
    """One line for humans: verdict, reason and the limit that decided it."""
    v = result.violation
    if result.verdict == "run":
        return "run: no limit stops this job"
    head = f"{result.verdict}: {result.reason or result.error}"
    if v is None:
        return head
    what = f"{v.limit}[{v.tres}]" if v.tres else v.limit
    return (
        f"{head} ({what}={limitdefs.limit_text(v.limit, v.tres, v.value)} at {v.level} {v.source})"
    )


__all__ = [
    "WALL",
    "CheckResult",
    "JobRequest",
    "LimitsState",
    "Violation",
    "check",
    "describe",
    "effective",
]
