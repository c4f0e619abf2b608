"""What ``fscli sacctmgr`` writes beyond the ``Admin`` surface, on a write session.

Two things sacctmgr keeps that fscli's native commands do not manage: coordinators (the
coordinator table, as :mod:`fscli.store.tree_sync` keeps them) and users without any
association (a user whose last association went with a deleted account keeps its
record, with no default account, until deleted by name; accounts likewise):
:func:`keep_bare_records`. Besides, the sibling order slurmdbd gives what an add made
(:func:`place_added`) and the defaults a delete leaves (:func:`lose_defaults`).
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from contextlib import contextmanager

from fscli.store import user_defaults


def add_coordinators(admin, pairs: list[tuple[str, str]]) -> None:
    """Make each (user, account) of ``pairs`` a coordinator row (sub-accounts follow),
    each user's change in the history (``admin``: the command's :class:`Admin`)."""
    from sqlalchemy import insert

    from fscli.store import models as m
    from fscli.store.tree_plan import read_coordinators

    session = admin.s
    have = read_coordinators(session.connection())
    if pairs:
        session.execute(
            insert(m.Coordinator.__table__), [{"user": u, "account": a} for u, a in pairs]
        )
        log_coordinators(admin, "add coordinator", have)


def log_coordinators(admin, action: str, before: dict[str, list[str]]) -> None:
    """One history line per user whose coordinated accounts differ from ``before``
    (``coordinator=OLD -> NEW``, accounts by name)."""
    from fscli.store.tree_plan import read_coordinators

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
    from sqlalchemy import select

    from fscli.store import nest
    from fscli.store import tables as t

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
    from sqlalchemy import select

    from fscli.store import nest
    from fscli.store import tables as t

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
    from sqlalchemy import delete

    from fscli.store import tables as t

    if names:
        session.execute(delete(t.user_account).where(t.user_account.c.name.in_(names)))


def remove_coordinators(admin, pairs: list[tuple[str, str]]) -> None:
    """Delete each (user, account) coordinator row of ``pairs``, each user's change in
    the history (``admin``: the command's :class:`Admin`)."""
    from sqlalchemy import delete

    from fscli.store import models as m
    from fscli.store.tree_plan import read_coordinators

    session = admin.s
    table = m.Coordinator.__table__
    before = read_coordinators(session.connection())
    for user, account in pairs:
        session.execute(delete(table).where(table.c.user == user, table.c.account == account))
    log_coordinators(admin, "remove coordinator", before)


@contextmanager
def keep_bare_records(
    session,
    users_gone: AbstractSet[str] = frozenset(),
    accounts_gone: AbstractSet[str] = frozenset(),
) -> Iterator[None]:
    """Around an ``Admin`` delete: users and accounts that lose their record only because
    no association is left get it back (a user with no default account), as slurmdbd
    keeps them; those deleted by name (``users_gone``, ``accounts_gone``) stay gone."""
    from sqlalchemy import insert, select

    from fscli.store import models as m
    from fscli.store import tables as t
    from fscli.store.tree_plan import read_coordinators

    user_c, acct_c = t.user_account.c, t.account.c
    users = dict(session.execute(select(user_c.name, user_c.admin_level)).all())
    accts = {
        n: (d, o)
        for n, d, o in session.execute(select(acct_c.name, acct_c.description, acct_c.organization))
    }
    coords = read_coordinators(session.connection())
    yield
    session.flush()
    users_now = set(session.scalars(select(user_c.name)))
    accts_now = set(session.scalars(select(acct_c.name)))
    for name, level in users.items():
        if name not in users_now and name not in users_gone:
            session.add(m.User(name=name, admin_level=level))
    for name, (desc, org) in accts.items():
        if name not in accts_now and name not in accounts_gone:
            session.add(m.Account(name=name, description=desc, organization=org))
    session.flush()
    # Coordinator rows went with their user or account row (ON DELETE CASCADE).
    users_now = set(session.scalars(select(user_c.name)))
    accts_now = set(session.scalars(select(acct_c.name)))
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
    from sqlalchemy import delete

    from fscli.store import tables as t

    if names:
        session.execute(delete(t.account).where(t.account.c.name.in_(names)))


def lose_defaults(session, before: dict[tuple[str, str], str]) -> None:
    """After a delete: a user whose default account on a cluster (``before``, from
    :func:`all_defaults`) has no association of its left there keeps no default there, as
    slurmdbd leaves it (no association is made the default in its place); one that had
    none keeps none."""
    from sqlalchemy import select

    from fscli.store import tables as t

    session.flush()
    conn = session.connection()
    ids = dict(conn.execute(select(t.cluster.c.name, t.cluster.c.id)).all())
    for (cluster, user), account in user_defaults.all_defaults(conn).items():
        if before.get((cluster, user)) != account:
            user_defaults.set_default(conn, ids[cluster], user, None)
    session.flush()
