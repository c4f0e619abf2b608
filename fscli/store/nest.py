"""Where slurmdbd's nested set puts associations among their siblings (``nest_order``).

slurmdbd numbers each cluster's associations as a nested set (``lft``/``rgt``) and keeps
that order: an add call inserts its associations, each run of consecutive ones under one
parent (and cluster) together, right after the parent's ``lft``, in the order given, so
ahead of the parent's older children; a moved account (``modify account set parent=``)
goes first under its new parent with its whole subtree (as_mysql_assoc.c,
``as_mysql_add_assocs`` and ``_move_account``). A delete closes the gap and changes no
order.

fscli keeps the order, not the numbers: siblings sort by ``nest_order``, lowest first,
and every association added or moved gets one lower than any other in its cluster (no
other row is rewritten, so an add stays cheap at any size); the sacctmgr view numbers
the nested set from that order (:func:`fscli.store.sacctmgr_queries.load_view`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import bindparam, func, select, update

from fscli.store import tables as t
from fscli.store.sql import chunked

_A = t.association


def lowest(conn, cluster_id: int) -> int:
    """The lowest ``nest_order`` of the cluster (0 if none is set)."""
    found = conn.execute(
        select(func.min(_A.c.nest_order)).where(_A.c.cluster_id == cluster_id)
    ).scalar()
    return min(found or 0, 0)


def place(conn, ids: Sequence[int]) -> None:
    """The associations ``ids``, in the order one slurmdbd add call takes them, put where
    that call puts them: each run of consecutive ones with the same parent goes first
    under it, in its own order (so a later run with the same parent goes before an
    earlier one)."""
    if not ids:
        return
    rows: dict[int, tuple[int, int | None]] = {}
    for part in chunked(list(ids)):
        for aid, cid, parent in conn.execute(
            select(_A.c.id, _A.c.cluster_id, _A.c.parent_id).where(_A.c.id.in_(part))
        ):
            rows[aid] = (cid, parent)
    known = [i for i in ids if i in rows]
    values: list[dict] = []
    low: dict[int, int] = {}
    start = 0
    while start < len(known):  # runs of one parent (a run never spans two clusters)
        end = start + 1
        while end < len(known) and rows[known[end]] == rows[known[start]]:
            end += 1
        cid = rows[known[start]][0]
        if cid not in low:
            low[cid] = lowest(conn, cid)
        orders, low[cid] = call_orders([0] * (end - start), low[cid])
        values += [{"b_id": aid, "nest_order": o} for aid, o in zip(known[start:end], orders)]
        start = end
    conn.execute(update(_A).where(_A.c.id == bindparam("b_id")), values)


def call_orders(parents: Sequence, low: int) -> tuple[list[int], int]:
    """``nest_order`` for the associations of one add call on one cluster, given their
    parents in the call's order, when the cluster's lowest is ``low``: each run of
    consecutive ones with the same parent below everything before it, in its own order.
    Also the new lowest."""
    orders: list[int] = []
    start = 0
    while start < len(parents):
        end = start + 1
        while end < len(parents) and parents[end] == parents[start]:
            end += 1
        low -= end - start
        orders += range(low, low + end - start)
        start = end
    return orders, low


def place_each_first(conn, ids: Iterable[int]) -> None:
    """Each of ``ids`` in turn made the first child of its parent (a moved account: its
    subtree keeps its own order below it)."""
    for aid in ids:
        place(conn, [aid])


def nest_orders(conn, cluster_id: int) -> dict[int, int | None]:
    """Association id -> ``nest_order`` for the cluster."""
    return dict(
        conn.execute(select(_A.c.id, _A.c.nest_order).where(_A.c.cluster_id == cluster_id)).all()
    )


def sibling_key(orders: dict[int, int | None]):
    """The sort key of siblings: by ``nest_order``; one without (never expected: every
    writer sets it) after those with, newest first."""

    def key(aid: int) -> tuple[int, int]:
        order = orders.get(aid)
        return (0, order) if order is not None else (1, -aid)

    return key
