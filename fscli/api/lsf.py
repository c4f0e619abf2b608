"""LSF fairshare answers: the setup, ``bqueues`` (with ``-l``'s share blocks), the
dynamic-priority formula of one user, the side-by-side ranking with Slurm, and dispatch.

Each reads the LSF setup and the jobs and usage the chosen queues count in one snapshot,
then computes on plain data (:mod:`fscli.engine.lsf`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fscli.errors import NotFound

if TYPE_CHECKING:
    from fscli.api.store import Store
    from fscli.engine.compare import Comparison as Ranked
    from fscli.engine.lsf.dispatch import DispatchResult
    from fscli.engine.lsf.queues import QueueSummary
    from fscli.engine.lsf.share_info import ShareBlock
    from fscli.engine.lsf.shares import LsfQueue
    from fscli.engine.model import Job
    from fscli.store.lsf_admin import LsfSetup


@dataclass
class LsfView:
    """The chosen queues with everything their priorities depend on, at ``at``."""

    setup: LsfSetup
    queues: list[LsfQueue]
    jobs: list[Job]
    users: list[str]
    at: int

    def share_info(self, queue: LsfQueue) -> list[ShareBlock]:
        """``bqueues -l``'s SHARE_INFO_FOR blocks of ``queue`` ([] for a FCFS queue)."""
        from fscli.engine.lsf.share_info import share_info

        return share_info(
            queue,
            self.jobs,
            self.at,
            global_params=self.setup.params,
            groups=self.setup.groups,
            users=self.users,
        )


@dataclass
class Bqueues:
    """``bqueues``: each chosen queue's summary, and with ``long`` its share blocks."""

    at: int
    queues: list[LsfQueue]
    summaries: list[QueueSummary]
    blocks: dict[str, list[ShareBlock]] = field(default_factory=dict)


@dataclass
class Comparison:
    """``compare``: each user's rank under Fair Tree, classic and the LSF ``queue``."""

    at: int
    queue: str
    users: list[Ranked]


def setup(store: Store) -> LsfSetup:
    """lsb.params values, queues in scan order and user groups."""
    from fscli.store.lsf_admin import load_lsf

    with store.reading() as conn:
        return load_lsf(conn)


def view(
    store: Store, names: list[str], cluster: str | None, at: int, first_fair: str = ""
) -> LsfView:
    """The queues ``names`` (default: every queue, or with ``first_fair`` -- what it is
    for, named in the error when there is none -- the highest-priority fairshare queue)
    with the LSF jobs, usage and users they count."""
    from fscli.store.lsf_admin import load_lsf, load_lsf_usage

    with store.reading() as conn:
        lsf = load_lsf(conn)
        if names:
            chosen = [lsf.queue(name) for name in names]
        elif first_fair:
            chosen = [q for q in lsf.queues.values() if q.shares][:1]
            if not chosen:
                raise NotFound(
                    f"no LSF fairshare queue to {first_fair}: add one with "
                    "'fscli lsf queue add NAME fairshare=\"USER_SHARES[...]\"'"
                )
        else:
            chosen = list(lsf.queues.values())
        jobs, users = load_lsf_usage(conn, cluster, chosen)
    return LsfView(lsf, chosen, jobs, users, at)


def bqueues(
    store: Store, names: list[str], cluster: str | None, at: int, long: bool = False
) -> Bqueues:
    """``bqueues [-l] [QUEUE...]``."""
    from fscli.engine.lsf.queues import queue_summary

    chosen = view(store, names, cluster, at)
    answer = Bqueues(at, chosen.queues, queue_summary(chosen.queues, chosen.jobs))
    if long:
        answer.blocks = {q.name: chosen.share_info(q) for q in chosen.queues}
    return answer


def explain(store: Store, names: list[str], user: str, cluster: str | None, at: int) -> list[str]:
    """``bqueues --explain USER``: the dynamic-priority formula with ``user``'s numbers, one
    text per fairshare queue (of ``names``, default all) that gives ``user`` shares."""
    from fscli.engine.lsf.share_info import explain as explain_lines

    chosen = view(store, names, cluster, at)
    fair = [q for q in chosen.queues if q.shares]
    found = []
    for queue in fair:
        try:
            lines = explain_lines(
                queue,
                user,
                chosen.jobs,
                at,
                global_params=chosen.setup.params,
                groups=chosen.setup.groups,
                users=chosen.users,
            )
        except NotFound:
            if len(fair) == 1:
                raise
            continue
        found.append("\n".join(lines) + "\n")
    if not found:
        raise NotFound(f"'{user}' holds no shares in any LSF fairshare queue")
    return found


def compare(store: Store, queue: str | None, cluster: str | None, at: int) -> Comparison:
    """Users ranked by Slurm's Fair Tree and classic fair-share factors and by their
    dynamic priority in the LSF ``queue`` (default: the highest-priority fairshare one)."""
    from fscli.engine.cluster_state import fairshare
    from fscli.engine.compare import compare as side_by_side
    from fscli.engine.compare import user_priorities
    from fscli.heap import bulk
    from fscli.store.state import load_state

    with store.reading() as conn:
        state = load_state(conn, cluster, at)
    chosen = view(store, [queue] if queue else [], cluster, at, first_fair="compare with")
    [lsf_queue] = chosen.queues
    blocks = chosen.share_info(lsf_queue)
    with bulk():
        users = side_by_side(
            fairshare(state, at, "fair_tree"),
            fairshare(state, at, "classic"),
            user_priorities(lsf_queue, blocks, chosen.setup.groups, chosen.users),
        )
    return Comparison(at, lsf_queue.name, users)


def dispatch(
    store: Store,
    names: list[str],
    slots: int,
    users: list[str] | None,
    jobs_per_user: int | None,
    cluster: str | None,
    at: int,
) -> DispatchResult:
    """``lsf dispatch``: ``slots`` free slots handed out one at a time, every user (of
    ``users``, default every user the store knows) wanting ``jobs_per_user`` one-slot
    jobs in each queue of ``names`` (default all)."""
    from fscli.engine.lsf.dispatch import simulate_dispatch

    chosen = view(store, names, cluster, at)
    return simulate_dispatch(
        chosen.queues,
        users if users is not None else chosen.users,
        slots,
        now=at,
        jobs=chosen.jobs,
        global_params=chosen.setup.params,
        groups=chosen.setup.groups,
        jobs_per_user=jobs_per_user,
    )
