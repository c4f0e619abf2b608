"""The store's plain lists (accounts, users, clusters, the change log), one Core query
each, as engine records."""

from __future__ import annotations

from sqlalchemy import select

from fscli.engine.model import ClusterInfo
from fscli.engine.tres import parse_tres
from fscli.store import tables as t


def accounts(conn) -> list[tuple[str, str, str]]:
    """(name, description, organization) of every account, by name."""
    a = t.account.c
    return [
        tuple(r)
        for r in conn.execute(select(a.name, a.description, a.organization).order_by(a.name))
    ]


def users(conn) -> list[tuple[str, str | None, str]]:
    """(name, default account, admin level) of every user, by name."""
    u = t.user_account.c
    return [
        tuple(r)
        for r in conn.execute(select(u.name, u.default_account, u.admin_level).order_by(u.name))
    ]


def clusters(conn) -> list[ClusterInfo]:
    """Every cluster, by name."""
    c = t.cluster.c
    return [
        ClusterInfo(name=n, nodes=nodes, cpus=cpus, tres=parse_tres(tres) if tres else {})
        for n, nodes, cpus, tres in conn.execute(
            select(c.name, c.nodes, c.cpus, c.tres).order_by(c.name)
        )
    ]


def changes(conn, since: int | None = None) -> list[tuple[int, str, str, str, str]]:
    """(at, actor, action, target, detail) of every recorded change, oldest first."""
    log = t.transaction_log.c
    query = select(log.at, log.actor, log.action, log.target, log.detail).order_by(log.id)
    if since is not None:
        query = query.where(log.at >= since)
    return [tuple(r) for r in conn.execute(query)]


def qos_names(conn) -> list[str]:
    """Every QOS name, sorted."""
    return list(conn.execute(select(t.qos.c.name).order_by(t.qos.c.name)).scalars())
