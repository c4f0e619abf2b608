"""sshare's rows through the pass cache (:mod:`fscli.store.pass_cache`).

Every view of one decay pass prints the same rows: ``sshare -a -P``, ``sshare -a -l``,
``sshare -A physics``, ``tree``, ``Store.shares()``. The first of them after a write reads
the tree, its usage and the jobs and runs the fair-share engine; it keeps the rows (as
plain columns, :mod:`fscli.engine.share_table`) per store version, cluster, algorithm and
pass, and the next ones read them back instead. What is kept is what the computation
gave, so no output changes by a byte.

- **GrpTRESMins** is the only field the associations' settings give: the rows are kept
  without it, and a view that shows it reads the associations' limits (one query over
  the few rows that set any) and fills it in.
- **TRESRunMins and GrpTRESRaw** (``extras``) go through every job again: they are
  computed when a view first shows them and kept beside the rows, so that a later view
  reads them back; the one that computes them reads only the jobs (the rows tell each
  association's parent).
- ``--explain`` and the what-ifs need the engine's whole result and never come here. An
  answer read from the cache computes its ``result`` and ``state`` when first asked for,
  from the same store state (a Python program's question: no view asks).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fscli.api.results import Shares
from fscli.errors import StoreError

if TYPE_CHECKING:
    from fscli.api.store import Store
    from fscli.engine.cluster_state import ClusterState

SHARES_ENTRY = "shares"
"""The cache entry of the rows (one; the newest view's cluster, pass and version wins)."""

_PAYLOAD = {"columns", "extras"}


def shares_at(
    store: Store,
    cluster: str | None,
    at: int,
    algorithm: str | None,
    settings: bool,
    extras: bool,
) -> Shares | None:
    """``cluster``'s fair-share at ``at`` from the pass cache, else computed (and kept);
    None where the store keeps no cache (a server). ``extras``: the answer's
    ``run_minutes`` and ``tres_usage`` will be read (read, or computed, in the same read
    transaction as the rows)."""
    from fscli.api.pass_state import note_window, pass_span, reset_key, state_moments
    from fscli.engine.cluster_state import fairshare
    from fscli.engine.share_table import ShareTable, table_of, with_grp_tres_mins
    from fscli.heap import bulk
    from fscli.store.pass_cache import PassCache
    from fscli.store.snapshot import cluster_limits, load_jobs
    from fscli.store.state import load_state, load_tree

    limits: dict = {}
    with store.viewing() as conn:
        cache = PassCache.of(conn)
        if cache.where is None:
            return None
        state = load_state(conn, cluster, at, jobs=False, tree=False)
        algorithm = algorithm or state.config.algorithm
        span = pass_span(state.config, at)
        key = (state.cluster_id, algorithm, reset_key(state.config, span))
        with bulk():  # the columns of every association, kept as long as the answer
            entry = cache.entry(SHARES_ENTRY, key, at)
            kept = _usable(entry[0] if entry else None)
            if kept is None:
                # the tree, every charge of the pass (the later ones tell where the answer
                # stops holding; the engine leaves them out) and the jobs
                load_tree(conn, state, span[0] + span[1] - 1, settings)
                state.jobs = load_jobs(conn, state.cluster_id)
            elif extras and kept["extras"] is None:
                state.jobs = load_jobs(conn, state.cluster_id)
            if settings:
                limits = cluster_limits(conn, state.cluster_id)
    if kept is None:
        moments = state_moments(state, span)
        with bulk():  # the engine's columns live as long as the answer
            result = fairshare(state, at, algorithm, last=True)
            kept = {"columns": table_of(result), "extras": None}
        # the view's rows from the kept columns, not picked from the engine's again
        table = ShareTable(with_grp_tres_mins(kept["columns"], limits))
        answer = Shares(
            state.cluster.name, algorithm, at, result, tres_names(state), state, table=table
        )
        if extras:
            kept["extras"] = (answer.run_minutes, answer.tres_usage)
        new = True
    else:
        assert entry is not None
        moments, new = entry[1], extras and kept["extras"] is None
        if new:
            kept["extras"] = _extras(state, at, kept)
        answer = _kept_answer(store, state, at, (algorithm, settings), kept, limits, cache.version)
    note_window(at, moments, span)
    if new:  # else read whole: nothing new to keep
        cache.put(SHARES_ENTRY, key, at, span, moments, kept)
    return answer


def tres_names(state: ClusterState) -> tuple[str, ...]:
    """Slurm's tracked TRES: the defaults plus AccountingStorageTRES additions."""
    from fscli.engine.config import tracked_tres

    return tracked_tres(state.config.accounting_tres)


def _extras(state: ClusterState, at: int, kept: dict) -> tuple[Mapping, Mapping]:
    """TRESRunMins and GrpTRESRaw of the kept rows, from ``state``'s jobs (read without
    the tree: the rows tell each association's parent)."""
    from fscli.engine.cluster_state import run_minutes, tres_usage
    from fscli.engine.share_table import parents_of

    parents = parents_of(kept["columns"])
    return run_minutes(state, at, parents), tres_usage(state, at, parents)


def _usable(payload: Any) -> dict | None:
    """``payload`` if it is what :func:`shares_at` keeps: the rows' columns but
    GrpTRESMins, all as long, and the extras."""
    from fscli.engine.share_table import GRP_TRES_MINS

    if not isinstance(payload, dict) or payload.keys() != _PAYLOAD:
        return None
    columns = payload["columns"]
    if not isinstance(columns, list) or len(columns) != GRP_TRES_MINS:
        return None
    if not all(isinstance(c, (list, tuple)) for c in columns) or len(set(map(len, columns))) != 1:
        return None
    return payload


def _kept_answer(
    store: Store,
    state: ClusterState,
    at: int,
    asked: tuple[str, bool],
    kept: dict,
    limits: dict,
    version: int | None,
) -> Shares:
    """The answer of the kept rows (and extras), GrpTRESMins from ``limits``; its
    ``result`` and ``state`` computed when first asked for (as ``asked``: the algorithm,
    and whether with the associations' settings), if the store is still at
    ``version``."""
    from fscli.engine.share_table import ShareTable, with_grp_tres_mins

    cluster = state.cluster.name
    algorithm, settings = asked

    def recompute() -> tuple[Any, Any]:
        return _recomputed(store, cluster, at, algorithm, settings, version)

    return Shares(
        cluster,
        algorithm,
        at,
        None,
        tres_names(state),
        table=ShareTable(with_grp_tres_mins(kept["columns"], limits)),
        extras=kept["extras"],
        recompute=recompute,
    )


def _recomputed(
    store: Store, cluster: str, at: int, algorithm: str, settings: bool, version: int | None
) -> tuple[Any, Any]:
    """(result, state) of a kept answer, read again: only from the store state the rows
    were kept for (a later one would not match them)."""
    from fscli.engine.cluster_state import fairshare
    from fscli.store.pass_cache import PassCache
    from fscli.store.state import load_state

    with store.viewing() as conn:
        if PassCache.of(conn).version != version:
            raise StoreError("the store changed since these shares were read: ask for them again")
        state = load_state(conn, cluster, at, settings=settings)
    return fairshare(state, at, algorithm, last=True), state
