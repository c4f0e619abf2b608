"""sprio: the pending jobs' priority, factor by factor, from one snapshot."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from fscli.api.results import Priorities
from fscli.api.shares import algorithm_name

if TYPE_CHECKING:
    from fscli.api.store import Store


def priorities(
    store: Store,
    cluster: str | None,
    at: int,
    algorithm: str | None = None,
    *,
    jobs: Collection[int] | None = None,
    users: Collection[str] | None = None,
    partitions: Collection[str] | None = None,
) -> Priorities:
    """Every pending job's priority at ``at``. The queue sprio ranks is loaded with the
    lean ``store.snapshot.load_queue``, as columns; the associations and their fair-share
    factors come from the pass cache, else from the tree, its usage and the jobs that
    charge it (:func:`fscli.api.pass_state.priority_factors`). The associations go to the
    priority as read (columns: no object per association), not by id (100,000 objects
    and their dict: 50 ms).

    ``jobs``, ``users``, ``partitions``: only those jobs, those users' jobs, the jobs that
    ask for one of those partitions (sprio's ``-j``, ``-u``, ``-p``), chosen by the store's
    query: a call about a few jobs reads and scores only them. A job asking for several
    partitions comes with all of its rows (the caller picks the partitions' rows)."""
    from fscli.api.pass_state import priority_factors
    from fscli.engine.priority import compute_priorities, listed_states
    from fscli.errors import InvalidValue
    from fscli.heap import bulk
    from fscli.store.snapshot import load_queue
    from fscli.store.state import load_state

    algorithm = algorithm_name(algorithm)
    with store.viewing() as conn:
        state = load_state(conn, cluster, at, jobs=False, settings=False, tree=False)
        if state.config.priority_type == "priority/basic":
            raise InvalidValue("You are not running a supported priority plugin")
        algorithm = algorithm or state.config.algorithm
        assocs, factors = priority_factors(conn, state, at, algorithm)
        with bulk():
            queue = load_queue(
                conn,
                state.cluster_id,
                listed_states(state.config),
                queue_filter(jobs, users, partitions),
            )
    _note_window(queue, state.config, at)
    with bulk():
        result = compute_priorities(
            queue,
            assocs,
            state.qos,
            state.partitions,
            state.cluster,
            state.config,
            factors,
            at,
        )
    return Priorities(
        state.cluster.name, algorithm, at, result.columns, state.config, list(result.warnings)
    )


def _note_window(queue, config, at: int) -> None:
    """While the answer cache records (:mod:`fscli.api.answers`): this answer holds until
    a job of ``queue`` begins to accrue (sprio lists it from then on) and within the pass
    ``at`` falls in, whose factors slurmctld set at its start (the fair-share factors'
    own window is noted as they are read: :func:`fscli.api.pass_state.priority_factors`)."""
    from fscli.api import answers

    if answers.listening():
        from fscli.api.pass_state import pass_span, window_around
        from fscli.engine.priority import accrue_times

        answers.note_window(
            *window_around(at, list(accrue_times(queue, config)), pass_span(config, at))
        )


def queue_filter(
    jobs: Collection[int] | None,
    users: Collection[str] | None,
    partitions: Collection[str] | None = None,
) -> tuple[str, dict] | None:
    """sprio's ``-j``, ``-u`` and ``-p`` as a condition on the job table (None: every job;
    also for lists too long for one IN list, which the view's own filter then picks from).

    A job's ``partition`` is the comma list it asked for: one partition is matched
    exactly, and a job of several (the column holds a comma) is always read, its rows
    picked by the view's filter. Portable SQL: no string search that differs by backend."""
    from fscli.engine.job_states import MAX_JOB_ID
    from fscli.store.sql import IN_LIST, in_list

    if jobs is not None:  # an id no job table can hold matches no row (nor binds in SQL)
        jobs = [j for j in jobs if 0 <= j <= MAX_JOB_ID]
    parts, params = [], {}
    selections = (
        ("id", "job", jobs),
        ('"user"', "user", users),
        ('"partition"', "part", partitions),
    )
    for column, name, values in selections:
        if values is None:
            continue
        if len(values) > IN_LIST:
            return None
        condition, more = in_list(column, name, values)
        if name == "part":
            condition = f"({condition} OR \"partition\" LIKE '%,%')"
        parts.append(condition)
        params.update(more)
    return (" AND ".join(parts), params) if parts else None


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
