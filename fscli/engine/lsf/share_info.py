"""``bqueues -l``'s SHARE_INFO_FOR blocks: each share holder's shares and dynamic
priority, level by level, and the formula with one user's numbers (``--explain``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass

from fscli.engine.lsf.params import LsfParams
from fscli.engine.lsf.shares import LsfQueue, ShareNode, UserGroup, resolve_shares
from fscli.engine.lsf.usage import Usage, dynamic_priority, priority_terms, usage_by_user
from fscli.engine.model import Job
from fscli.errors import NotFound, did_you_mean


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
