"""The store's plain lists (accounts, users, clusters, the change log), one query each
(SQL text, :mod:`fscli.store.sql`: any read connection), as engine records."""

from __future__ import annotations

from fscli.engine.model import ClusterInfo
from fscli.engine.tres import parse_tres
from fscli.store.sql import rows


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


def changes(conn, since: int | None = None) -> list[tuple[int, str, str, str, str]]:
    """(at, actor, action, target, detail) of every recorded change, oldest first."""
    sql = "SELECT at, actor, action, target, detail FROM transaction_log"
    if since is None:
        return rows(conn, sql + " ORDER BY id")
    return rows(conn, sql + " WHERE at >= :since ORDER BY id", {"since": since})


def qos_names(conn) -> list[str]:
    """Every QOS name, sorted."""
    return [r[0] for r in rows(conn, "SELECT name FROM qos ORDER BY name")]
