"""A cluster's state as of one moment, read from the store: everything the views compute on.

``load_state`` reads the store (Core, one query per table) into the engine's
:class:`~fscli.engine.cluster_state.ClusterState`, which
:mod:`fscli.engine.cluster_state` computes on (usage, run minutes, fair-share).
"""

from __future__ import annotations

from fscli.engine.cluster_state import ClusterState
from fscli.engine.model import AssocColumns
from fscli.heap import bulk
from fscli.store import snapshot


def load_state(
    conn,
    cluster: str | None,
    now: int,
    jobs: bool = True,
    settings: bool = True,
    tree: bool = True,
) -> ClusterState:
    """Snapshot of one cluster (``--cluster`` rules) with charges made up to ``now``;
    without ``settings``, associations without their limits and QOS
    (:func:`fscli.store.snapshot.load_assocs`); without ``tree``, neither associations
    nor charges (:func:`load_tree` reads them later, or the pass cache stands in)."""
    with bulk():
        cid = snapshot.cluster_id_for(conn, cluster)
        state = ClusterState(
            cluster_id=cid,
            cluster=snapshot.load_cluster(conn, cid),
            assocs=AssocColumns.of([]),
            qos=snapshot.load_qos(conn),
            partitions=snapshot.load_partitions(conn, cid),
            config=snapshot.load_priority_config(conn, cid),
            jobs=snapshot.load_jobs(conn, cid) if jobs else [],
        )
        if tree:
            load_tree(conn, state, now, settings)
        return state


def load_tree(conn, state: ClusterState, until: int, settings: bool = True) -> None:
    """The associations of ``state``'s cluster and its charges made up to ``until``."""
    with bulk():
        cid = state.cluster_id
        state.assocs = AssocColumns.of(
            snapshot.load_assocs(conn, cid, by_parent=True, settings=settings)
        )
        state.charges = snapshot.load_charge_table(conn, cid, until=until)
