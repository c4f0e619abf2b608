"""What ``fscli sacctmgr`` reads and writes beyond the ``Admin`` surface.

sacctmgr shows an association with the limits it inherits (slurmdbd fills a child's
unset Max* limits, QOS list, default QOS and priority from its parent; Grp* limits are
not inherited), numbers associations as a nested set (``lft``/``rgt``, siblings in the
order :mod:`fscli.store.nest` keeps) and orders listings hierarchically (users before
sub-accounts, each by name, :func:`hierarchical`). :func:`load_view` computes all of that
from the stored rows (Core, one query per table) so the CLI needs no SQL.

Two things sacctmgr keeps that fscli's native commands do not manage: coordinators (the
coordinator table, as :mod:`fscli.store.tree_sync` keeps them) and users without any
association (a user whose last association went with a deleted account keeps its
record, with no default account, until deleted by name; accounts likewise):
:func:`keep_bare_records`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, insert, select

from fscli.engine import qoslist
from fscli.engine.model import Assoc
from fscli.engine.tres import merge_tres, parse_tres
from fscli.store import models as m
from fscli.store import nest, snapshot, user_defaults
from fscli.store import tables as t
from fscli.store.tree_plan import read_coordinators

INHERITED = (
    "MaxJobs",
    "MaxJobsAccrue",
    "MinPrioThreshold",
    "MaxSubmitJobs",
    "MaxWallDurationPerJob",
    "MaxTRESPerJob",
    "MaxTRESPerNode",
    "MaxTRESMinsPerJob",
    "MaxTRESRunMins",
)
"""Limits a child shows from its parent when it sets none (TRES ones TRES by TRES)."""


@dataclass
class AssocView:
    """One association as sacctmgr lists it: its own settings and the effective ones."""

    assoc: Assoc
    cluster: str
    parent_account: str  # "" for root and for user associations
    depth: int
    lft: int = 0
    rgt: int = 0
    limits: dict[str, Any] = field(default_factory=dict)  # own Grp*, effective Max*
    qos: list[str] = field(default_factory=list)  # effective, deltas applied, sorted
    default_qos: str | None = None
    priority: int | None = None

    @property
    def user(self) -> str | None:
        return self.assoc.user

    @property
    def account(self) -> str:
        return self.assoc.account


def cluster_names(conn) -> list[str]:
    return list(conn.execute(select(t.cluster.c.name).order_by(t.cluster.c.name)).scalars())


def load_view(conn, clusters: list[str] | None = None, own_only: bool = False) -> list[AssocView]:
    """Every association of the clusters named (all if None) in sacctmgr's list order,
    numbered as slurmdbd's nested set. ``own_only`` (sacctmgr's WOPLimits): no inherited
    values."""
    out: list[AssocView] = []
    c = t.cluster.c
    for cid, name in conn.execute(select(c.id, c.name).order_by(c.name)):
        if clusters is None or name in clusters:
            out += _cluster_view(
                snapshot.load_assocs(conn, cid), name, own_only, nest.nest_orders(conn, cid)
            )
    return out


def _cluster_view(
    assocs: Sequence[Assoc], cluster: str, own_only: bool, orders: dict[int, int | None]
) -> list[AssocView]:
    kids: dict[int | None, list[Assoc]] = {}
    for assoc in assocs:
        kids.setdefault(assoc.parent_id, []).append(assoc)
    key = nest.sibling_key(orders)
    for children in kids.values():
        children.sort(key=lambda a: key(a.id))
    ordered: list[AssocView] = []
    counter = 0

    def visit(assoc: Assoc, parent: AssocView | None, depth: int) -> None:
        nonlocal counter
        view = AssocView(
            assoc, cluster, "" if assoc.user or parent is None else parent.account, depth
        )
        _effective(view, None if own_only else parent)
        ordered.append(view)
        counter += 1
        view.lft = counter
        for child in kids.get(assoc.id, []):
            visit(child, view, depth + 1)
        counter += 1
        view.rgt = counter

    for root in kids.get(None, []):
        visit(root, None, 0)
    return hierarchical(ordered)


def hierarchical(views: list[AssocView]) -> list[AssocView]:
    """The associations in sacctmgr's list order (``slurmdb_sort_hierarchical_assoc_list``):
    each under its parent if that is among them, else at the top; the associations under
    one parent (and those at the top) users first, then by user or account name (a
    cluster's root by the cluster's name), in nested-set order where names tie (the
    sort is stable)."""
    by_lft = sorted(views, key=lambda v: v.lft)  # stable: clusters stay in order on ties
    present = {v.assoc.id for v in by_lft}
    top: list[AssocView] = []
    kids: dict[int, list[AssocView]] = {}
    for v in by_lft:
        parent = v.assoc.parent_id
        if parent is not None and parent in present:
            kids.setdefault(parent, []).append(v)
        else:
            top.append(v)

    def name(v: AssocView) -> tuple[bool, str]:
        if v.assoc.parent_id is None:
            return (True, v.cluster)
        return (v.user is None, v.user or v.account)

    out: list[AssocView] = []

    def visit(group: list[AssocView]) -> None:
        for v in sorted(group, key=name):
            out.append(v)
            visit(kids.get(v.assoc.id, []))

    visit(top)
    return out


def tree_depths(views: list[AssocView]) -> list[int]:
    """How far sacctmgr's ``tree`` listing indents each association's account, listed in
    this order (``slurmdb_tree_name_get``): an account one space further than its parent
    account if that was listed before it in the cluster, else not at all; a user one space
    further than its account if that was listed before, else not at all."""
    depths: list[int] = []
    seen: dict[str, int] = {}  # accounts listed (this cluster) -> their indent
    cluster = None
    for v in views:
        if v.cluster != cluster:
            seen, cluster = {}, v.cluster
        if v.user is not None:
            depths.append(seen[v.account] + 1 if v.account in seen else 0)
            continue
        if v.account not in seen:
            parent = v.parent_account or None
            seen[v.account] = seen[parent] + 1 if parent in seen else 0
        depths.append(seen[v.account])
    return depths


def _effective(view: AssocView, parent: AssocView | None) -> None:
    own = view.assoc
    view.limits = {k: v for k, v in own.limits.items()}
    view.default_qos = own.default_qos
    view.priority = own.priority
    qos = set(parent.qos) if parent else set()
    if own.qos and not qoslist.is_delta(own.qos):
        # an own list is shown as slurmdbd stored it: a ``+name`` given after a plain
        # one in the same add (``qos=normal qos+=normal``) stays, sign and all
        qos = set(own.qos)
    else:  # a delta on the parent's list; a plain item in it adds too
        for item in own.qos:
            if item[0] == "-":
                qos.discard(item[1:])
            else:
                qos.add(item.lstrip("+"))
    view.qos = sorted(qos)
    if parent is None:
        return
    for name in INHERITED:
        mine, theirs = own.limits.get(name), parent.limits.get(name)
        if theirs is None:
            continue
        if mine is None:
            view.limits[name] = theirs
        elif isinstance(mine, dict):
            view.limits[name] = merge_tres(theirs, mine)
    if view.default_qos is None:
        view.default_qos = parent.default_qos
    if view.priority is None:
        view.priority = parent.priority


def accounts(conn) -> dict[str, tuple[str, str]]:
    """Account name → (description, organization)."""
    a = t.account.c
    return {
        n: (d or "", o or "")
        for n, d, o in conn.execute(select(a.name, a.description, a.organization).order_by(a.name))
    }


def users(conn, clusters: list[str] | None = None) -> dict[str, tuple[str, str]]:
    """User name → (default account or "", admin level). The default is per cluster (as
    slurmdbd's ``is_def``): as ``sacctmgr show user`` reports it, the user's on the first
    of ``clusters`` (in the order given; all if None, in the order they were added) where
    it has one."""
    u = t.user_account.c
    found = user_defaults.first_defaults(conn, clusters)
    return {
        n: (found.get(n, ""), level or "None")
        for n, level in conn.execute(select(u.name, u.admin_level).order_by(u.name))
    }


def defaults(conn, cluster: str) -> dict[str, str]:
    """Each user's default account on ``cluster`` (users without one are absent)."""
    cid = conn.execute(select(t.cluster.c.id).where(t.cluster.c.name == cluster)).scalar()
    return {} if cid is None else user_defaults.defaults(conn, cid)


def coordinators(conn, view: list[AssocView]) -> dict[str, list[str]]:
    """User → the accounts it coordinates: those given and all their sub-accounts."""
    below: dict[str, set[str]] = {}
    by_id = {v.assoc.id: v for v in view}
    for item in view:
        if item.user is None:
            parent = by_id.get(item.assoc.parent_id) if item.assoc.parent_id else None
            while parent is not None:
                below.setdefault(parent.account, set()).add(item.account)
                parent = by_id.get(parent.assoc.parent_id) if parent.assoc.parent_id else None
    out = {}
    for user, accts in read_coordinators(conn).items():
        every = set(accts)
        for acct in accts:
            every |= below.get(acct, set())
        out[user] = sorted(every)
    return out


def qos_rows(conn) -> list:
    """Every QOS (engine ``Qos``) in creation order, the order sacctmgr lists them in."""
    by_name = snapshot.load_qos(conn)
    names = conn.execute(select(t.qos.c.name).order_by(t.qos.c.id)).scalars()
    return [by_name[n] for n in names]


def qos_ids(conn) -> list[int]:
    """The QOS ids, in the order of :func:`qos_rows`."""
    return list(conn.execute(select(t.qos.c.id).order_by(t.qos.c.id)).scalars())


def history(conn) -> list[tuple]:
    """Every logged change: (at, actor, action, target, detail), oldest first."""
    log = t.transaction_log.c
    return [
        tuple(r)
        for r in conn.execute(
            select(log.at, log.actor, log.action, log.target, log.detail).order_by(log.id)
        )
    ]


def named_tres(conn) -> list[str]:
    """TRES names the clusters and partitions give amounts of (gres/gpu, license/x, ...)."""
    names: set[str] = set()
    for table in (t.cluster, t.partition):
        for text in conn.execute(select(table.c.tres).where(table.c.tres.is_not(None))).scalars():
            names |= set(parse_tres(text))
    return sorted(names)


def dump_spec(conn, cluster: str):
    """The cluster as a TreeSpec, as ``fscli dump`` writes it."""
    from fscli.store.tree_plan import cluster_id, read_spec

    return read_spec(conn, cluster_id(conn, cluster))


def places(conn, cluster: str) -> dict[tuple[str, str, str | None], int]:
    """(user, account, partition) → its place in the cluster's nested set (``lft``)."""
    return {
        (v.user, v.account, v.assoc.partition): v.lft
        for v in load_view(conn, [cluster])
        if v.user is not None
    }


def add_coordinators(admin, names: list[str], accts: list[str]) -> None:
    """Make the users coordinators of the accounts (kept as given; sub-accounts follow),
    each user's change in the history (``admin``: the command's :class:`Admin`)."""
    session = admin.s
    have = read_coordinators(session.connection())
    rows = [{"user": u, "account": a} for u in names for a in accts if a not in have.get(u, [])]
    if rows:
        session.execute(insert(m.Coordinator.__table__), rows)
        log_coordinators(admin, "add coordinator", have)


def log_coordinators(admin, action: str, before: dict[str, list[str]]) -> None:
    """One history line per user whose coordinated accounts differ from ``before``
    (``coordinator=OLD -> NEW``, accounts by name)."""
    after = read_coordinators(admin.s.connection())
    for user in sorted(set(before) | set(after)):
        old, new = sorted(before.get(user, [])), sorted(after.get(user, []))
        if old != new:
            admin.log(
                action,
                user,
                changes=[("coordinator", ",".join(old) or None, ",".join(new) or None)],
            )


def place_added(session, calls: list[list[tuple[str, str, str | None, str | None]]]) -> None:
    """Put the associations just added, ``(cluster, account, user, partition)`` each, where
    slurmdbd puts them: each list is one add call, in its order once sorted by cluster
    name (``as_mysql_add_assocs`` sorts the call's list so, a stable sort, before it
    numbers it: frank,alice on two clusters are frank then alice on each), then
    :func:`nest.place`."""
    conn = session.connection()
    session.flush()
    a = t.association.c
    cids = dict(conn.execute(select(t.cluster.c.name, t.cluster.c.id)).all())
    for keys in calls:
        ids = []
        for cluster, account, user, partition in sorted(keys, key=lambda k: k[0]):
            found = conn.execute(
                select(a.id).where(
                    a.cluster_id == cids.get(cluster),
                    a.account == account,
                    a.user.is_(None) if user is None else a.user == user,
                    a.partition.is_(None) if partition is None else a.partition == partition,
                )
            ).scalar()
            if found is not None:
                ids.append(found)
        nest.place(conn, ids)


def place_first(session, cluster: str, account: str) -> None:
    """The account's association made the first child of its parent (a move's place)."""
    session.flush()
    conn = session.connection()
    a = t.association.c
    found = conn.execute(
        select(a.id)
        .join(t.cluster, t.cluster.c.id == a.cluster_id)
        .where(
            t.cluster.c.name == cluster,
            a.account == account,
            a.user.is_(None),
            a.partition.is_(None),
        )
    ).scalar()
    if found is not None:
        nest.place(conn, [found])


def drop_users(session, names: list[str]) -> None:
    """Delete user records that have no association left (deleted by name)."""
    if names:
        session.execute(delete(m.User).where(m.User.name.in_(names)))


def remove_coordinators(admin, names: list[str], accts: list[str]) -> list[str]:
    """Take the users (all if none named) off the accounts (all if none named); the
    ``U = user A = account`` pairs removed, as sacctmgr lists them (``admin``: the
    command's :class:`Admin`, which logs each user's change)."""
    session = admin.s
    table = m.Coordinator.__table__
    removed = []
    before = read_coordinators(session.connection())
    for user, coordinated in before.items():
        if names and user not in names:
            continue
        for account in coordinated:
            if not accts or account in accts:
                session.execute(
                    delete(table).where(table.c.user == user, table.c.account == account)
                )
                removed.append(f"U = {user:<9} A = {account:<10}")
    if removed:
        log_coordinators(admin, "remove coordinator", before)
    return removed


@contextmanager
def keep_bare_records(
    session, users_gone: set[str] = frozenset(), accounts_gone: set[str] = frozenset()
) -> Iterator[None]:
    """Around an ``Admin`` delete: users and accounts that lose their record only because
    no association is left get it back (a user with no default account), as slurmdbd
    keeps them; those deleted by name (``users_gone``, ``accounts_gone``) stay gone."""
    users = {u.name: u.admin_level for u in session.scalars(select(m.User))}
    accts = {a.name: (a.description, a.organization) for a in session.scalars(select(m.Account))}
    coords = read_coordinators(session.connection())
    yield
    session.flush()
    users_now = set(session.scalars(select(m.User.name)))
    accts_now = set(session.scalars(select(m.Account.name)))
    for name, level in users.items():
        if name not in users_now and name not in users_gone:
            session.add(m.User(name=name, admin_level=level))
    for name, (desc, org) in accts.items():
        if name not in accts_now and name not in accounts_gone:
            session.add(m.Account(name=name, description=desc, organization=org))
    session.flush()
    # Coordinator rows went with their user or account row (ON DELETE CASCADE).
    users_now = set(session.scalars(select(m.User.name)))
    accts_now = set(session.scalars(select(m.Account.name)))
    left = read_coordinators(session.connection())
    rows = [
        {"user": u, "account": a}
        for u, accounts in coords.items()
        for a in accounts
        if u in users_now and a in accts_now and a not in left.get(u, [])
    ]
    if rows:
        session.execute(insert(m.Coordinator.__table__), rows)


def drop_accounts(session, names: list[str]) -> None:
    """Delete account records that have no association left (deleted by name)."""
    if names:
        session.execute(delete(m.Account).where(m.Account.name.in_(names)))


def default_ids(conn) -> set[int]:
    """The ids of the user associations flagged default (slurmdbd's ``is_def=1``)."""
    return user_defaults.flagged_ids(conn)


def all_defaults(conn) -> dict[tuple[str, str], str]:
    """(cluster, user) → the user's default account there."""
    return user_defaults.all_defaults(conn)


def lose_defaults(session, before: dict[tuple[str, str], str]) -> None:
    """After a delete: a user whose default account on a cluster (``before``, from
    :func:`all_defaults`) has no association of its left there keeps no default there, as
    slurmdbd leaves it (no association is made the default in its place); one that had
    none keeps none."""
    session.flush()
    conn = session.connection()
    ids = dict(conn.execute(select(t.cluster.c.name, t.cluster.c.id)).all())
    for (cluster, user), account in user_defaults.all_defaults(conn).items():
        if before.get((cluster, user)) != account:
            user_defaults.set_default(conn, ids[cluster], user, None)
    session.flush()
