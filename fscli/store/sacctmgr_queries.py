"""What ``fscli sacctmgr`` reads beyond the native commands' reads.

The reads are SQL text (:mod:`fscli.store.sql`): they run on any read connection, the
plain ``sqlite3`` one of the views (``sacctmgr show`` imports no SQLAlchemy on an SQLite
file) as well as a write session's. What sacctmgr shows of the rows (inherited limits,
the nested set, its list order) :mod:`fscli.engine.sacctmgr_view` works out;
:func:`load_view` hands it the rows.

Its writes beyond ``Admin`` are :mod:`fscli.store.sacctmgr_writes`.
"""

from __future__ import annotations

from fscli.engine import sacctmgr_view
from fscli.engine.sacctmgr_view import AssocView, cluster_view
from fscli.engine.tres import parse_tres
from fscli.store import lists, snapshot, user_defaults
from fscli.store.snapshot import cluster_names
from fscli.store.sql import rows

__all__ = ["cluster_names"]  # the writes' name for it


SIBLING_ORDER = " ORDER BY nest_order IS NULL, nest_order, id DESC"
"""The order slurmdbd's nested set keeps siblings in (:mod:`fscli.store.nest`): by
``nest_order``, lowest first; one without (never expected: every writer sets it) after
those with, newest first."""


def sibling_ranks(conn, cluster_id: int) -> dict[int, int]:
    """Association id -> its rank in :data:`SIBLING_ORDER` (the cluster's)."""
    found = rows(
        conn,
        "SELECT id FROM association WHERE cluster_id = :cid" + SIBLING_ORDER,
        {"cid": cluster_id},
    )
    return {aid: rank for rank, (aid,) in enumerate(found)}


def load_view(conn, clusters: list[str] | None = None, own_only: bool = False) -> list[AssocView]:
    """Every association of the clusters named (all if None) in sacctmgr's list order,
    numbered as slurmdbd's nested set. ``own_only`` (sacctmgr's WOPLimits): no inherited
    values."""
    out: list[AssocView] = []
    for cid, name in rows(conn, "SELECT id, name FROM cluster ORDER BY name"):
        if clusters is None or name in clusters:
            ranks = sibling_ranks(conn, cid)
            out += cluster_view(snapshot.load_assocs(conn, cid), name, own_only, ranks.__getitem__)
    return out


def accounts(conn) -> dict[str, tuple[str, str]]:
    """Account name → (description, organization)."""
    return {n: (d or "", o or "") for n, d, o in lists.accounts(conn)}


def users(conn, clusters: list[str] | None = None) -> dict[str, tuple[str, str]]:
    """User name → (default account or "", admin level). The default is per cluster (as
    slurmdbd's ``is_def``): as ``sacctmgr show user`` reports it, the user's on the first
    of ``clusters`` (in the order given; all if None, in the order they were added) where
    it has one."""
    found = user_defaults.first_defaults(conn, clusters)
    return {
        n: (found.get(n, ""), level or "None")
        for n, level in rows(conn, "SELECT name, admin_level FROM user_account ORDER BY name")
    }


def coordinators(conn) -> dict[str, list[str]]:
    """User → the accounts it coordinates: those given and all their sub-accounts."""
    from fscli.store.tree_plan import read_coordinators

    accounts = [
        assoc
        for (cid,) in rows(conn, "SELECT id FROM cluster")
        for assoc in snapshot.load_assocs(conn, cid, ('"user" IS NULL', {}))
    ]
    return sacctmgr_view.coordinated(accounts, read_coordinators(conn))


def qos_rows(conn) -> list:
    """Every QOS (engine ``Qos``) in creation order, the order sacctmgr lists them in."""
    by_name = snapshot.load_qos(conn)
    return [by_name[n] for (n,) in rows(conn, "SELECT name FROM qos ORDER BY id")]


def qos_ids(conn) -> list[int]:
    """The QOS ids, in the order of :func:`qos_rows`."""
    return [i for (i,) in rows(conn, "SELECT id FROM qos ORDER BY id")]


def named_tres(conn) -> list[str]:
    """TRES names the clusters and partitions give amounts of (gres/gpu, license/x, ...)."""
    names: set[str] = set()
    for table in ("cluster", "partition"):
        for (text,) in rows(conn, f'SELECT tres FROM "{table}" WHERE tres IS NOT NULL'):
            names |= set(parse_tres(text))
    return sorted(names)


def places(conn, cluster: str) -> dict[tuple[str, str, str | None], int]:
    """(user, account, partition) → its place among its siblings in the cluster's nested
    set (a user's associations under one account are siblings)."""
    cid = snapshot.cluster_id_for(conn, cluster, demo_hint=False)
    found = rows(
        conn,
        'SELECT "user", account, "partition" FROM association '
        'WHERE cluster_id = :cid AND "user" IS NOT NULL' + SIBLING_ORDER,
        {"cid": cid},
    )
    return {key: rank for rank, key in enumerate(found)}


def default_ids(conn) -> set[int]:
    """The ids of the user associations flagged default (slurmdbd's ``is_def=1``)."""
    return user_defaults.flagged_ids(conn)


def all_defaults(conn) -> dict[tuple[str, str], str]:
    """(cluster, user) → the user's default account there."""
    return user_defaults.all_defaults(conn)
