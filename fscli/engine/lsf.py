"""LSF queue-level fairshare: parameters, share resolution, dynamic user priority.

LSF ranks the users (or groups) of a fairshare queue by a *dynamic priority*::

    priority = shares / ( cpu_time * CPU_TIME_FACTOR
                        + (historical_run_time + run_time) * RUN_TIME_FACTOR
                        + (committed_run_time - run_time) * COMMITTED_RUN_TIME_FACTOR
                        + (1 + job_slots) * RUN_JOB_FACTOR
                        + fairshare_adjustment * FAIRSHARE_ADJUSTMENT_FACTOR )

with times in hours. Usage is counted per queue from plain :class:`~fscli.engine.model.Job`
records (``queue``, ``slots``, ``state``, ``start``, ``end``, ``cputime`` seconds,
``time_limit`` minutes) at an explicit ``now`` (epoch seconds):

* running job: its CPU time counts in full; its run time is ``now - start`` (decayed only with
  RUN_TIME_DECAY=Y, each second from the moment it was used); its committed run time is its run
  limit (or its run time when it has none, so the committed term adds nothing); its slots are
  STARTED;
* pending job with a ``start`` (a planned start: the scheduler holds slots for it): its slots
  are RESERVED. Other pending jobs cost nothing;
* finished job (any other state with an ``end``): CPU time, and with ENABLE_HIST_RUN_TIME=Y its
  run time, decay from the end by ``t * 0.1 ** (hours_since_end / HIST_HOURS)``.

This module is pure computation; the parser of ``USER_SHARES[...]`` lives in
:mod:`fscli.io.lsf_shares`, the ``bqueues`` text in :mod:`fscli.render.bqueues`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from fscli.engine.model import Job
from fscli.errors import InvalidValue, NotFound, UsageProblem, closest, did_you_mean

# --------------------------------------------------------------------------- parameters


def _number(name: str, text: str, low: float = 0.0, high: float | None = None) -> str:
    try:
        value = float(str(text).strip())
    except ValueError:
        raise InvalidValue(f"invalid {name} '{text}': expected a number") from None
    if not math.isfinite(value):
        raise InvalidValue(f"invalid {name} '{text}': expected a finite number")
    if value < low or (high is not None and value > high):
        span = f"from {low:g} to {high:g}" if high is not None else f">= {low:g}"
        raise InvalidValue(f"invalid {name} '{text}': must be {span}")
    return f"{value:.12g}"


def _fraction(name: str, text: str) -> str:
    return _number(name, text, 0.0, 1.0)


def _yes_no(name: str, text: str) -> str:
    value = str(text).strip().upper()
    if value in ("Y", "YES"):
        return "Y"
    if value in ("N", "NO"):
        return "N"
    raise InvalidValue(f"invalid {name} '{text}': expected Y or N")


PARAMS: dict[str, tuple[str, object]] = {
    "CPU_TIME_FACTOR": ("0.7", _number),
    "RUN_TIME_FACTOR": ("0.7", _number),
    "RUN_JOB_FACTOR": ("3", _number),
    "COMMITTED_RUN_TIME_FACTOR": ("0", _fraction),
    "HIST_HOURS": ("5", _number),
    "RUN_TIME_DECAY": ("N", _yes_no),
    "ENABLE_HIST_RUN_TIME": ("N", _yes_no),
    "FAIRSHARE_ADJUSTMENT_FACTOR": ("0", _number),
}
"""Canonical LSF parameter name -> (LSF default as text, validator)."""

PARAM_DEFAULTS: dict[str, str] = {name: default for name, (default, _) in PARAMS.items()}


def canonical_param(name: str) -> str:
    """The canonical (upper-case) spelling of an LSF parameter, or :class:`UsageProblem`."""
    canon = str(name).strip().upper()
    if canon not in PARAMS:
        near = closest(str(name).strip(), PARAMS, 3)
        hint = f"; did you mean {', '.join(near)}?" if near else f"; known: {', '.join(PARAMS)}"
        raise UsageProblem(f"unknown LSF parameter '{name}'{hint}")
    return canon


def validate_param(name: str, value: str) -> tuple[str, str]:
    """(canonical name, normalized value text), or :class:`InvalidValue` for a bad value."""
    canon = canonical_param(name)
    return canon, PARAMS[canon][1](canon, value)  # type: ignore[operator]


@dataclass(frozen=True, slots=True)
class LsfParams:
    """Typed fairshare parameters; field names are the LSF names in lower case."""

    cpu_time_factor: float = 0.7
    run_time_factor: float = 0.7
    run_job_factor: float = 3.0
    committed_run_time_factor: float = 0.0
    hist_hours: float = 5.0
    run_time_decay: bool = False
    enable_hist_run_time: bool = False
    fairshare_adjustment_factor: float = 0.0

    @classmethod
    def from_mapping(cls, *layers: Mapping[str, str] | None) -> LsfParams:
        """Validate and merge layers of ``name -> text``; later layers win.

        Pass the global (lsb.params) values first and the queue's overrides after them.
        """
        merged = dict(PARAM_DEFAULTS)
        for layer in layers:
            for key, value in (layer or {}).items():
                canon, text = validate_param(key, value)
                merged[canon] = text
        values: dict[str, Any] = {
            k.lower(): (v == "Y" if v in ("Y", "N") else float(v)) for k, v in merged.items()
        }
        return cls(**values)


# --------------------------------------------------------------------------- usage


def decayed(seconds: float, elapsed: float, hist_hours: float) -> float:
    """``seconds`` used ``elapsed`` seconds ago, weighed by ``0.1 ** (hours / HIST_HOURS)``."""
    if hist_hours <= 0:
        return seconds
    return seconds * 0.1 ** (max(elapsed, 0.0) / (hist_hours * 3600.0))


def _decayed_span(length: float, hist_hours: float) -> float:
    """Run time accrued evenly over the last ``length`` seconds, each second decayed since
    it was used: the integral of ``0.1 ** (age / HIST_HOURS)`` over the span."""
    if hist_hours <= 0 or length <= 0:
        return max(length, 0.0)
    scale = hist_hours * 3600.0
    return scale / math.log(10) * (1.0 - 0.1 ** (length / scale))


@dataclass(slots=True)
class Usage:
    """What a user (or a group, summed) has consumed in one queue; times in seconds."""

    cpu_time: float = 0.0
    run_time: float = 0.0
    hist_run_time: float = 0.0
    committed_run_time: float = 0.0
    started: int = 0
    reserved: int = 0

    @property
    def job_slots(self) -> int:
        return self.started + self.reserved

    def add(self, other: Usage) -> None:
        self.cpu_time += other.cpu_time
        self.run_time += other.run_time
        self.hist_run_time += other.hist_run_time
        self.committed_run_time += other.committed_run_time
        self.started += other.started
        self.reserved += other.reserved


def job_usage(job: Job, now: int, params: LsfParams) -> Usage:
    """One job's contribution at ``now`` (see the module docstring for the rules)."""
    if job.state == "pending":
        return Usage(reserved=job.slots if job.start is not None else 0)
    cpu = float(job.cputime or 0.0)
    if job.state == "running":
        ran = max(now - job.start, 0) if job.start is not None else 0
        run = _decayed_span(ran, params.hist_hours) if params.run_time_decay else float(ran)
        committed = job.time_limit * 60.0 if job.time_limit is not None else run
        return Usage(cpu_time=cpu, run_time=run, committed_run_time=committed, started=job.slots)
    if job.end is None:
        return Usage()
    age = now - job.end
    hist = 0.0
    if params.enable_hist_run_time and job.start is not None:
        hist = decayed(max(job.end - job.start, 0), age, params.hist_hours)
    return Usage(cpu_time=decayed(cpu, age, params.hist_hours), hist_run_time=hist)


def usage_by_user(jobs: Iterable[Job], queue: str, now: int, params: LsfParams) -> dict[str, Usage]:
    """Usage per user from the jobs of one queue."""
    usage: dict[str, Usage] = {}
    for job in jobs:
        if job.queue == queue:
            usage.setdefault(job.user, Usage()).add(job_usage(job, now, params))
    return usage


def priority_terms(usage: Usage, params: LsfParams, adjustment: float = 0.0) -> dict[str, float]:
    """The five terms of the denominator, in formula order."""
    hours = 1 / 3600.0
    return {
        "cpu_time": usage.cpu_time * hours * params.cpu_time_factor,
        "run_time": (usage.hist_run_time + usage.run_time) * hours * params.run_time_factor,
        "committed_run_time": (usage.committed_run_time - usage.run_time)
        * hours
        * params.committed_run_time_factor,
        "job_slots": (1 + usage.job_slots) * params.run_job_factor,
        "adjustment": adjustment * params.fairshare_adjustment_factor,
    }


def dynamic_priority(
    shares: int, usage: Usage, params: LsfParams, adjustment: float = 0.0
) -> float:
    """LSF's dynamic priority. A denominator that is not positive (static fairshare: all
    factors 0) leaves the shares alone as the priority."""
    denominator = sum(priority_terms(usage, params, adjustment).values())
    return shares / denominator if denominator > 0 else float(shares)


# --------------------------------------------------------------------------- shares

USER, GROUP, EACH, DEFAULT, OTHERS = "user", "group", "group@", "default", "others"
SHARE_KINDS = (USER, GROUP, EACH, DEFAULT, OTHERS)


@dataclass(frozen=True, slots=True)
class ShareEntry:
    """One ``[name, shares]`` pair of USER_SHARES; ``kind`` is one of :data:`SHARE_KINDS`."""

    name: str
    shares: int
    kind: str = USER

    @property
    def label(self) -> str:
        """The name as written in USER_SHARES (``group@`` for per-member shares)."""
        return f"{self.name}@" if self.kind == EACH else self.name


@dataclass(slots=True)
class UserGroup:
    """An lsb.users group: members are user or group names; ``shares`` (USER_SHARES of the
    group) make it a level of a hierarchical share tree instead of one collective holder."""

    name: str
    members: tuple[str, ...] = ()
    shares: tuple[ShareEntry, ...] = ()


@dataclass(slots=True)
class LsfQueue:
    """A queue: no ``shares`` means first come first served; ``params`` override lsb.params."""

    name: str
    priority: int = 1
    shares: tuple[ShareEntry, ...] = ()
    params: dict[str, str] = field(default_factory=dict)
    description: str = ""


@dataclass(slots=True)
class ShareNode:
    """A holder of shares at one level: its usage is the sum over ``users``; ``children`` is
    the next level of a hierarchical tree (empty for a user or a collective group)."""

    name: str
    kind: str
    shares: int
    users: frozenset[str]
    children: list[ShareNode] = field(default_factory=list)


def group_users(
    name: str, groups: Mapping[str, UserGroup], _path: tuple[str, ...] = ()
) -> frozenset[str]:
    """All users of a group, through its subgroups."""
    if name in _path:
        raise InvalidValue(f"user group '{name}' contains itself ({' -> '.join(_path + (name,))})")
    group = groups.get(name)
    if group is None:
        raise NotFound(f"unknown user group '{name}'{did_you_mean(name, groups)}")
    users: set[str] = set()
    for member in group.members:
        if member in groups:
            users |= group_users(member, groups, _path + (name,))
        else:
            users.add(member)
    return frozenset(users)


def resolve_shares(
    entries: Sequence[ShareEntry], groups: Mapping[str, UserGroup], universe: Iterable[str]
) -> list[ShareNode]:
    """Turn USER_SHARES into the holders of one level.

    Users and groups named explicitly come first; ``group@`` gives each member not named
    explicitly its own holder; ``default`` gives each remaining user of ``universe`` its own
    holder; ``others`` is one holder for all remaining users. A group with USER_SHARES of its
    own gets its members resolved as its children (a share tree).
    """
    nodes: list[ShareNode] = []
    covered: set[str] = set()
    for entry in entries:
        if entry.kind == USER:
            nodes.append(ShareNode(entry.name, USER, entry.shares, frozenset({entry.name})))
            covered.add(entry.name)
        elif entry.kind == GROUP:
            members = group_users(entry.name, groups)
            sub = groups[entry.name].shares
            children = resolve_shares(sub, groups, members) if sub else []
            nodes.append(ShareNode(entry.name, GROUP, entry.shares, members, children))
            covered |= members
    for entry in entries:
        if entry.kind == EACH:
            fresh = sorted(group_users(entry.name, groups) - covered)
            nodes += [ShareNode(u, USER, entry.shares, frozenset({u})) for u in fresh]
            covered.update(fresh)
    rest = sorted(set(universe) - covered)
    for entry in entries:
        if entry.kind == DEFAULT:
            nodes += [ShareNode(u, USER, entry.shares, frozenset({u})) for u in rest]
            rest = []
    for entry in entries:
        if entry.kind == OTHERS:
            nodes.append(ShareNode(OTHERS, OTHERS, entry.shares, frozenset(rest)))
    return nodes


# --------------------------------------------------------------------------- SHARE_INFO_FOR


@dataclass(frozen=True, slots=True)
class ShareRow:
    """One line of a SHARE_INFO_FOR block. Times in seconds; ``adjust`` is the adjustment
    term (``adjustment * FAIRSHARE_ADJUSTMENT_FACTOR``); ``share_fraction`` is the holder's
    shares over the sum at its level."""

    name: str
    kind: str
    shares: int
    share_fraction: float
    priority: float
    started: int
    reserved: int
    cpu_time: float
    run_time: float
    hist_run_time: float
    committed_run_time: float
    adjustment: float
    adjust: float

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ShareBlock:
    """A level of the share tree: ``path`` is ``QUEUE/`` or ``QUEUE/group/...``;
    ``total_shares`` is the sum of the shares at this level."""

    path: str
    total_shares: int
    rows: tuple[ShareRow, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "total_shares": self.total_shares,
            "rows": [row.as_dict() for row in self.rows],
        }


@dataclass(frozen=True, slots=True)
class _Context:
    params: LsfParams
    usage: dict[str, Usage]
    tree: list[ShareNode]
    adjustments: Mapping[str, float]


def _context(
    queue: LsfQueue,
    jobs: Iterable[Job],
    now: int,
    global_params: Mapping[str, str] | None,
    groups: Mapping[str, UserGroup] | None,
    users: Iterable[str],
    adjustments: Mapping[str, float] | None,
) -> _Context:
    params = LsfParams.from_mapping(global_params, queue.params)
    usage = usage_by_user(jobs, queue.name, now, params)
    tree = resolve_shares(queue.shares, groups or {}, set(users) | set(usage))
    return _Context(params, usage, tree, adjustments or {})


def _node_usage(node: ShareNode, usage: Mapping[str, Usage]) -> Usage:
    total = Usage()
    for user in node.users:
        if user in usage:
            total.add(usage[user])
    return total


def _row(node: ShareNode, level_total: int, ctx: _Context) -> ShareRow:
    use = _node_usage(node, ctx.usage)
    adjustment = float(ctx.adjustments.get(node.name, 0.0))
    return ShareRow(
        name=node.name,
        kind=node.kind,
        shares=node.shares,
        share_fraction=node.shares / level_total if level_total else 0.0,
        priority=dynamic_priority(node.shares, use, ctx.params, adjustment),
        started=use.started,
        reserved=use.reserved,
        cpu_time=use.cpu_time,
        run_time=use.run_time,
        hist_run_time=use.hist_run_time,
        committed_run_time=use.committed_run_time,
        adjustment=adjustment,
        adjust=adjustment * ctx.params.fairshare_adjustment_factor,
    )


def _blocks(path: str, nodes: list[ShareNode], ctx: _Context, out: list[ShareBlock]) -> None:
    total = sum(n.shares for n in nodes)
    ranked = sorted(
        ((_row(n, total, ctx), n) for n in nodes),
        key=lambda pair: (-pair[0].priority, pair[0].name),
    )
    out.append(ShareBlock(path, total, tuple(row for row, _ in ranked)))
    for _, node in ranked:
        if node.children:
            _blocks(f"{path}{node.name}/", node.children, ctx, out)


def share_info(
    queue: LsfQueue,
    jobs: Iterable[Job],
    now: int,
    *,
    global_params: Mapping[str, str] | None = None,
    groups: Mapping[str, UserGroup] | None = None,
    users: Iterable[str] = (),
    adjustments: Mapping[str, float] | None = None,
) -> list[ShareBlock]:
    """The SHARE_INFO_FOR blocks of a fairshare queue (empty for a FCFS queue).

    ``users`` are the known users (``default``/``others`` expand over them and over every
    user with jobs in the queue); ``adjustments`` maps a holder name to its
    fairshare_adjustment value. Rows are sorted by priority descending, then name.
    """
    if not queue.shares:
        return []
    ctx = _context(queue, jobs, now, global_params, groups, users, adjustments)
    out: list[ShareBlock] = []
    _blocks(f"{queue.name}/", ctx.tree, ctx, out)
    return out


FORMULA_LINES = (
    (
        "priority = shares / (cpu_time*CPU_TIME_FACTOR + (historical_run_time + run_time)"
        "*RUN_TIME_FACTOR"
    ),
    (
        "                     + (committed_run_time - run_time)*COMMITTED_RUN_TIME_FACTOR"
        " + (1 + job_slots)*RUN_JOB_FACTOR"
    ),
    "                     + fairshare_adjustment*FAIRSHARE_ADJUSTMENT_FACTOR)   [times in hours]",
)


def explain(
    queue: LsfQueue,
    name: str,
    jobs: Iterable[Job],
    now: int,
    *,
    global_params: Mapping[str, str] | None = None,
    groups: Mapping[str, UserGroup] | None = None,
    users: Iterable[str] = (),
    adjustments: Mapping[str, float] | None = None,
) -> list[str]:
    """Lines showing the formula and the numbers put in for one user/group of the queue."""
    blocks = share_info(
        queue,
        jobs,
        now,
        global_params=global_params,
        groups=groups,
        users=users,
        adjustments=adjustments,
    )
    found = [(b, r) for b in blocks for r in b.rows if r.name == name]
    if not found:
        names = [r.name for b in blocks for r in b.rows]
        raise NotFound(
            f"'{name}' holds no shares in LSF queue '{queue.name}'{did_you_mean(name, names)}"
        )
    block, row = found[0]
    p = LsfParams.from_mapping(global_params, queue.params)
    use = Usage(
        row.cpu_time,
        row.run_time,
        row.hist_run_time,
        row.committed_run_time,
        row.started,
        row.reserved,
    )
    terms = priority_terms(use, p, row.adjustment)
    denominator = sum(terms.values())

    def h(seconds: float) -> str:
        return f"{seconds:.1f} s = {seconds / 3600:.6f} h"

    lines = [
        (
            f"{row.name} in {block.path}: {row.shares} of {block.total_shares} shares"
            f" ({row.share_fraction:.2%})"
        ),
        *FORMULA_LINES,
        (
            f"  cpu_time            {h(row.cpu_time)} x {p.cpu_time_factor:g}"
            f" = {terms['cpu_time']:.6f}"
        ),
        (
            f"  hist + run_time     {h(row.hist_run_time + row.run_time)}"
            f" ({row.hist_run_time:.1f} + {row.run_time:.1f}) x {p.run_time_factor:g}"
            f" = {terms['run_time']:.6f}"
        ),
        (
            f"  committed - run     {h(row.committed_run_time - row.run_time)}"
            f" x {p.committed_run_time_factor:g} = {terms['committed_run_time']:.6f}"
        ),
        (
            f"  1 + job_slots       1 + {row.started + row.reserved} ({row.started} started,"
            f" {row.reserved} reserved) x {p.run_job_factor:g} = {terms['job_slots']:.6f}"
        ),
        (
            f"  adjustment          {row.adjustment:g} x {p.fairshare_adjustment_factor:g}"
            f" = {terms['adjustment']:.6f}"
        ),
    ]
    if denominator > 0:
        lines.append(f"priority = {row.shares} / {denominator:.6f} = {row.priority:.3f}")
    else:
        lines.append(
            f"priority = {row.shares} (denominator {denominator:g}: static fairshare, shares alone)"
        )
    return lines


# --------------------------------------------------------------------------- queues


@dataclass(frozen=True, slots=True)
class QueueSummary:
    """One ``bqueues`` line: job counts are slots, as LSF counts them; ``rsv`` are the slots
    held for pending jobs with a planned start."""

    name: str
    priority: int
    status: str
    njobs: int
    pend: int
    run: int
    susp: int
    rsv: int

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def queue_summary(queues: Iterable[LsfQueue], jobs: Iterable[Job]) -> list[QueueSummary]:
    """Slots pending and running per queue, queues by priority descending (scan order).

    fscli does not model closed/inactive queues or suspended jobs: STATUS is Open:Active
    and SUSP 0.
    """
    pend: dict[str, int] = {}
    run: dict[str, int] = {}
    rsv: dict[str, int] = {}
    for job in jobs:
        if job.queue is None:
            continue
        if job.state == "pending":
            pend[job.queue] = pend.get(job.queue, 0) + job.slots
            if job.start is not None:
                rsv[job.queue] = rsv.get(job.queue, 0) + job.slots
        elif job.state == "running":
            run[job.queue] = run.get(job.queue, 0) + job.slots
    rows = [
        QueueSummary(
            q.name,
            q.priority,
            "Open:Active",
            pend.get(q.name, 0) + run.get(q.name, 0),
            pend.get(q.name, 0),
            run.get(q.name, 0),
            0,
            rsv.get(q.name, 0),
        )
        for q in queues
    ]
    return sorted(rows, key=lambda r: -r.priority)


# --------------------------------------------------------------------------- dispatch


@dataclass(slots=True)
class DispatchResult:
    """``order``: (queue, user) per dispatched one-slot job; ``counts``: queue -> user -> jobs."""

    order: list[tuple[str, str]] = field(default_factory=list)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)

    def shares(self) -> list[tuple[str, str, int, float]]:
        """(queue, user, jobs, fraction of all dispatched jobs): per queue, most jobs first."""
        total = len(self.order)
        return [
            (queue, user, n, n / total)
            for queue, counts in self.counts.items()
            for user, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        ]


def simulate_dispatch(
    queues: Sequence[LsfQueue],
    users: Sequence[str],
    slots: int,
    *,
    jobs_per_user: int | None = None,
    jobs: Iterable[Job] = (),
    now: int = 0,
    global_params: Mapping[str, str] | None = None,
    groups: Mapping[str, UserGroup] | None = None,
) -> DispatchResult:
    """Fill ``slots`` free slots with one-slot jobs, as LSF's scheduler would at ``now``.

    Every user submits ``jobs_per_user`` jobs (default: ``slots``) to every queue that gives
    them shares (to every queue without fairshare), in turns: the users' k-th jobs in the
    order of ``users``. Queues are scanned from the highest PRIORITY down. In a fairshare
    queue each dispatch walks the share tree from the top to the holder with the highest
    dynamic priority; ties and the users inside one holder (a collective group, ``others``)
    go first come first served. A dispatched job runs from ``now``, so it adds a started
    slot and nothing else; ``jobs`` is history (and running work) already there.
    """
    if slots < 0:
        raise InvalidValue(f"invalid slot count {slots}: must be >= 0")
    demand = slots if jobs_per_user is None else jobs_per_user
    jobs = list(jobs)
    turn = {user: i for i, user in enumerate(users)}
    result = DispatchResult()
    plans = []
    for queue in sorted(queues, key=lambda q: -q.priority):
        ctx = _context(queue, jobs, now, global_params, groups, users, None)
        members = set().union(*map(_dispatchable, ctx.tree)) if queue.shares else set(users)
        left = {u: demand for u in users if u in members}
        plans.append((queue, ctx, left, {u: 0 for u in left}))
    for _ in range(slots):
        for queue, ctx, left, done in plans:  # the first queue with demand left takes the slot
            if any(left.values()):
                user = (
                    _pick(ctx.tree, ctx, left, done, turn)
                    if queue.shares
                    else min((u for u in left if left[u]), key=lambda u: (done[u], turn[u]))
                )
                left[user] -= 1
                done[user] += 1
                ctx.usage.setdefault(user, Usage()).started += 1
                result.order.append((queue.name, user))
                result.counts.setdefault(queue.name, {}).setdefault(user, 0)
                result.counts[queue.name][user] += 1
                break
        else:  # no demand left anywhere
            break
    return result


def _pick(
    nodes: list[ShareNode],
    ctx: _Context,
    left: Mapping[str, int],
    done: Mapping[str, int],
    turn: Mapping[str, int],
) -> str:
    """The user whose job dispatches next: highest priority holder at each level, then FCFS."""

    def first_job(node: ShareNode) -> tuple[int, int] | None:
        waiting = [(done[u], turn[u]) for u in _dispatchable(node) if left.get(u)]
        return min(waiting) if waiting else None

    def rank(node: ShareNode) -> tuple[float, tuple[int, int] | None]:
        use = _node_usage(node, ctx.usage)
        return -dynamic_priority(node.shares, use, ctx.params), first_job(node)

    node = min((n for n in nodes if first_job(n) is not None), key=rank)
    if node.children:
        return _pick(node.children, ctx, left, done, turn)
    return min((u for u in node.users if left.get(u)), key=lambda u: (done[u], turn[u]))


def _dispatchable(node: ShareNode) -> frozenset[str]:
    """Users a dispatch can reach through ``node``: in a share tree only those placed in a
    holder of the lower level (a member left out of the group's USER_SHARES gets no slot)."""
    if not node.children:
        return node.users
    return frozenset().union(*map(_dispatchable, node.children))
