"""The store's plain lists (accounts, users, clusters, the change log), one query each
(SQL text, :mod:`fscli.store.sql`: any read connection), as engine records."""

from __future__ import annotations

from fscli.engine.model import ClusterInfo
from fscli.engine.tres import parse_tres
from fscli.store.sql import in_list, rows, scalar


def accounts(conn) -> list[tuple[str, str, str]]:
    """(name, description, organization) of every account, by name."""
    return rows(conn, "SELECT name, description, organization FROM account ORDER BY name")


def users(conn, cluster_id: int | None) -> list[tuple[str, str | None, str]]:
    """(name, default account, admin level) of every user, by name. The default is the
    user's on the cluster; with no cluster (a store of several), as ``sacctmgr show user``
    reports it, the user's on the first cluster (in the order they were added) where it has
    one."""
    from fscli.store import user_defaults

    defaults = (
        user_defaults.first_defaults(conn)
        if cluster_id is None
        else user_defaults.defaults(conn, cluster_id)
    )
    return [
        (name, defaults.get(name), level)
        for name, level in rows(conn, "SELECT name, admin_level FROM user_account ORDER BY name")
    ]


def clusters(conn) -> list[ClusterInfo]:
    """Every cluster, by name."""
    return [
        ClusterInfo(name=n, nodes=nodes, cpus=cpus, tres=parse_tres(tres) if tres else {})
        for n, nodes, cpus, tres in rows(
            conn, "SELECT name, nodes, cpus, tres FROM cluster ORDER BY name"
        )
    ]


def changes(
    conn,
    since: int | None = None,
    until: int | None = None,
    cluster: str | None = None,
    actor: str | None = None,
) -> list[tuple]:
    """(at, actor, action, target, detail, cluster, changes) of every recorded change in
    the bounds (``changes``: the JSON of :mod:`fscli.store.audit`), oldest first."""
    where, params = [], {}
    for name, sql, value in (
        ("since", "at >= :since", since),
        ("until", "at <= :until", until),
        ("cluster", "cluster = :cluster", None if cluster is None else cluster.lower()),
        ("actor", "actor = :actor", actor),
    ):
        if value is not None:
            where.append(sql)
            params[name] = value
    return rows(
        conn,
        "SELECT at, actor, action, target, detail, cluster, changes FROM transaction_log"
        + (" WHERE " + " AND ".join(where) if where else "")
        + " ORDER BY id",
        params,
    )


def last_detail(conn, action: str, target: str) -> str | None:
    """The detail of the newest change recorded as ``action`` on ``target``; None: none."""
    return scalar(
        conn,
        "SELECT detail FROM transaction_log WHERE action = :action AND target = :target"
        " ORDER BY id DESC LIMIT 1",
        {"action": action, "target": target},
    )


def qos_names(conn) -> list[str]:
    """Every QOS name, sorted."""
    return [r[0] for r in rows(conn, "SELECT name FROM qos ORDER BY name")]


def first_usage(conn, cluster_id: int) -> int | None:
    """The first moment the cluster was charged usage: its earliest charge, or the start
    of its earliest charged job (:data:`fscli.engine.cluster_state.CHARGED`); None: none."""
    from fscli.engine.cluster_state import CHARGED

    states, params = in_list("state", "state", CHARGED)
    found = [
        scalar(
            conn,
            'SELECT min(at) FROM "usage" WHERE assoc_id IN '
            "(SELECT id FROM association WHERE cluster_id = :cid)",
            {"cid": cluster_id},
        ),
        scalar(
            conn,
            f"SELECT min(start) FROM job WHERE cluster_id = :cid AND {states}",
            {"cid": cluster_id, **params},
        ),
    ]
    known = [int(f) for f in found if f is not None]
    return min(known) if known else None
