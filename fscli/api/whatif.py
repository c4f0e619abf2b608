"""What-if views: sshare and sprio before and after changes that are never written.

One snapshot is read; the changes are applied to copies of its plain values by the same
code the writes parse with (:mod:`fscli.engine.limits.whatif`, :mod:`fscli.engine.whatif`);
the engine computes both sides. The answers are :class:`ShareComparison` and
:class:`PriorityComparison`, whose ``after`` is exactly what the plain view prints once
the change is made for real.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from fscli.api.pass_shares import tres_names
from fscli.api.results import Priorities, Shares
from fscli.api.shares import algorithm_name

if TYPE_CHECKING:
    from fscli.api.store import Store
    from fscli.engine.cluster_state import ClusterState
    from fscli.engine.limits.whatif import Change
    from fscli.engine.whatif import WhatIf


@dataclass
class ShareComparison:
    """sshare before and after: ``rank_before``/``rank_after`` map each user association's
    id to its place by FairShare (1 = highest; ties share a place)."""

    before: Shares
    after: Shares
    changes: list[str]
    rank_before: Mapping[int, int]
    rank_after: Mapping[int, int]


@dataclass
class PriorityComparison:
    """sprio before and after; ranks by job priority over every pending row (1 = first)."""

    before: Priorities
    after: Priorities
    changes: list[str]
    rank_before: Sequence[int]
    rank_after: Sequence[int]


T = TypeVar("T")

Settings = tuple[Mapping[str, str], Sequence[tuple[str, int, str]]]
"""A cluster's stored settings and their history (:func:`stored_settings`)."""


def changed_state(
    state: ClusterState,
    whatif: WhatIf,
    at: int,
    settings: Settings | None = None,
    users: set[str] | None = None,
) -> ClusterState:
    """A copy of ``state`` with ``whatif`` applied (``state`` itself unchanged: the changed
    associations, QOS and partitions are copies). ``settings``: the cluster's stored
    settings and their history (:func:`stored_settings`), when ``whatif`` sets any;
    ``users``: the stored users its changes name (:func:`named_users`)."""
    from fscli.engine.limits.whatif import apply_change
    from fscli.engine.model import AssocColumns
    from fscli.engine.whatif import changed_config
    from fscli.errors import UsageProblem

    assocs = list(state.assocs)
    qos = list(state.qos.values())
    partitions = list(state.partitions.values())
    for change in whatif.changes:
        if change.target.cluster and change.target.cluster.lower() != state.cluster.name.lower():
            raise UsageProblem(
                f"--with names cluster '{change.target.cluster}', but the view is of cluster "
                f"'{state.cluster.name}' (use --cluster {change.target.cluster})"
            )
        apply_change(assocs, qos, partitions, change, state.cluster.name, users)
    config = state.config
    if whatif.config:
        assert settings is not None, "a what-if that sets settings is given the stored ones"
        values, history = settings
        config = changed_config(values, history, whatif.config, at, whatif.always)
    return dataclasses.replace(
        state,
        assocs=AssocColumns.of(assocs),
        qos={q.name: q for q in qos},
        partitions={p.name: p for p in partitions},
        config=config,
    )


def named_users(conn, changes: Sequence[Change]) -> set[str]:
    """The users ``changes`` name that the store has: a change naming another is refused
    as the write refuses it."""
    from fscli.store.snapshot import stored_users

    return stored_users(conn, sorted({c.target.user for c in changes if c.target.user}))


def stored_settings(conn, state: ClusterState, whatif: WhatIf) -> Settings | None:
    """(the cluster's stored settings, their history) when ``whatif`` sets any."""
    from fscli.store.snapshot import load_config, load_config_history

    if not whatif.config:
        return None
    return load_config(conn, state.cluster_id), load_config_history(conn, state.cluster_id)


def shares_whatif(
    store: Store,
    cluster: str | None,
    at: int,
    whatif: WhatIf,
    algorithm: str | None = None,
    *,
    settings: bool = True,
) -> ShareComparison:
    """sshare at ``at`` as it is and as it would be with ``whatif``. Without ``settings``
    the associations are read without their limits and QOS (as
    :func:`fscli.api.shares.shares_over` reads them): the rows' GrpTRESMins are blank.
    The side before is computed first, from the associations as read (columns: the fast
    path), before the what-if makes them objects."""
    from fscli.engine.cluster_state import fairshare
    from fscli.heap import bulk
    from fscli.store.state import load_state

    algorithm = algorithm_name(algorithm)
    with store.viewing() as conn:
        state = load_state(conn, cluster, at, settings=settings)
        stored = stored_settings(conn, state, whatif)
        users = named_users(conn, whatif.changes)
    base = state
    if whatif.tree is not None:
        (base, stored, users), _ = as_applied(
            store, state.cluster.name, whatif, at, lambda c, s: None, settings=settings
        )
    with bulk():
        chosen = algorithm or state.config.algorithm
        result = fairshare(state, at, chosen)
        before = Shares(state.cluster.name, chosen, at, result, tres_names(state), state)
        side = changed_state(base, whatif, at, stored, users)
        chosen = algorithm or side.config.algorithm
        result = fairshare(side, at, chosen, last=True)
        after = Shares(side.cluster.name, chosen, at, result, tres_names(side), side)
    rank = (ranks(before.result.fs_factor), ranks(after.result.fs_factor))
    return ShareComparison(before, after, whatif.describe(), *rank)


def as_applied(
    store: Store,
    cluster: str,
    whatif: WhatIf,
    at: int,
    also: Callable[[Any, ClusterState], T],
    settings: bool = True,
) -> tuple[tuple[ClusterState, Settings | None, set[str]], T]:
    """The cluster as ``fscli apply`` of ``whatif``'s tree at ``at`` leaves it: the plan
    ``apply`` makes, written by ``apply``'s own code in a transaction that is rolled back
    (nothing is written), and read there — (its state, stored settings and the users the
    other changes name) — with whatever else ``also(connection, state)`` reads there."""
    from fscli.api.trees import apply_tree
    from fscli.store.state import load_state

    assert whatif.tree is not None
    text, source = whatif.tree
    found: list = []

    def read(conn) -> None:
        state = load_state(conn, cluster, at, settings=settings)
        stored = stored_settings(conn, state, whatif)
        found.append(((state, stored, named_users(conn, whatif.changes)), also(conn, state)))

    apply_tree(store, text, dry_run=True, at=at, source=source, cluster=cluster, inside=read)
    return found[0]


def ranks(values: Mapping[int, float]) -> dict[int, int]:
    """Each key's place by value, highest first; equal values share a place."""
    order = sorted(values.values(), reverse=True)
    first: dict[float, int] = {}
    for place, value in enumerate(order, 1):
        first.setdefault(value, place)
    return {key: first[value] for key, value in values.items()}


def priorities_whatif(
    store: Store, cluster: str | None, at: int, whatif: WhatIf, algorithm: str | None = None
) -> PriorityComparison:
    """sprio at ``at`` as it is and as it would be with ``whatif``."""
    from fscli.engine.cluster_state import fairshare
    from fscli.engine.priority import compute_priorities, listed_states
    from fscli.errors import InvalidValue
    from fscli.heap import bulk
    from fscli.store.snapshot import load_queue
    from fscli.store.state import load_state

    algorithm = algorithm_name(algorithm)
    with store.viewing() as conn:
        state = load_state(conn, cluster, at, settings=True)
        stored = stored_settings(conn, state, whatif)
        users = named_users(conn, whatif.changes)
        queue = load_queue(conn, state.cluster_id, listed_states(state.config))
    base, after_queue = state, queue
    if whatif.tree is not None:
        (base, stored, users), after_queue = as_applied(
            store,
            state.cluster.name,
            whatif,
            at,
            lambda c, s: load_queue(c, s.cluster_id, listed_states(s.config)),
        )
    changed = changed_state(base, whatif, at, stored, users)
    sides = (state, changed)
    queues = [queue, after_queue]
    answers = []
    with bulk():
        for side, queue in zip(sides, queues):
            if side.config.priority_type == "priority/basic":
                raise InvalidValue("You are not running a supported priority plugin")
            chosen = algorithm or side.config.algorithm
            shares = fairshare(side, at, chosen)
            result = compute_priorities(
                queue,
                side.assocs,
                side.qos,
                side.partitions,
                side.cluster,
                side.config,
                shares.fs_factor,
                at,
            )
            answers.append(
                Priorities(
                    side.cluster.name,
                    chosen,
                    at,
                    result.columns,
                    side.config,
                    list(result.warnings),
                )
            )
    before, after = answers
    rank = (_job_ranks(before.columns.priority), _job_ranks(after.columns.priority))
    return PriorityComparison(before, after, whatif.describe(), *rank)


def _job_ranks(priority: Sequence[int]) -> list[int]:
    by_row = ranks(dict(enumerate(priority)))
    return [by_row[k] for k in range(len(priority))]
