"""sprio: the pending jobs' priority, factor by factor, from one snapshot."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fscli.api.results import Priorities
from fscli.api.shares import algorithm_name

if TYPE_CHECKING:
    from fscli.api.store import Store


def priorities(
    store: Store, cluster: str | None, at: int, algorithm: str | None = None
) -> Priorities:
    """Every pending job's priority at ``at``. The jobs whose usage counts for fair-share
    and the queue sprio ranks are loaded apart (the queue with the lean
    ``store.snapshot.load_queue``, as columns). The associations go to the priority as
    read (columns: no object per association), not by id (100,000 objects and their
    dict: 50 ms)."""
    from fscli.engine.priority import compute_priorities, listed_states
    from fscli.errors import InvalidValue
    from fscli.heap import bulk
    from fscli.store.snapshot import load_jobs, load_queue
    from fscli.store.state import CHARGED, fairshare, load_state

    algorithm = algorithm_name(algorithm)
    with store.viewing() as conn:
        state = load_state(conn, cluster, at, jobs=False, settings=False)
        if state.config.priority_type == "priority/basic":
            raise InvalidValue("You are not running a supported priority plugin")
        with bulk():  # 100,000 jobs: the collector would rescan them as they are made
            state.jobs = load_jobs(conn, state.cluster_id, states=CHARGED)
            queue = load_queue(conn, state.cluster_id, listed_states(state.config))
    algorithm = algorithm or state.config.algorithm
    with bulk():
        shares = fairshare(state, at, algorithm, last=True)
        result = compute_priorities(
            queue,
            state.assocs,
            state.qos,
            state.partitions,
            state.cluster,
            state.config,
            shares.fs_factor,
            at,
        )
    return Priorities(
        state.cluster.name, algorithm, at, result.columns, state.config, list(result.warnings)
    )


def why_not_listed(store: Store, job_id: int) -> str:
    """Why sprio has no row for ``job_id``."""
    from fscli.engine.job_states import MAX_JOB_ID
    from fscli.store.snapshot import job_state

    if not 0 <= job_id <= MAX_JOB_ID:  # no store holds such an id (nor can it be queried)
        return f"job {job_id} does not exist"
    with store.viewing() as conn:
        state = job_state(conn, job_id)
    if state is None:
        return f"job {job_id} does not exist"
    if state == "pending":
        return f"job {job_id} is not listed: held (priority 0) or not eligible yet"
    return f"job {job_id} is {state}: sprio lists pending jobs only"
