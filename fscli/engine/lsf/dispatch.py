"""Which holder LSF hands each free slot to, simulated slot by slot under equal demand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from fscli.engine.lsf.share_info import _Context, _context, _node_usage
from fscli.engine.lsf.shares import LsfQueue, ShareNode, UserGroup
from fscli.engine.lsf.usage import Usage, dynamic_priority
from fscli.engine.model import Job
from fscli.errors import InvalidValue


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
