"""A user's default account, per cluster: slurmdbd's ``is_def`` on user associations.

Slurm keeps the default account on the associations (``is_def=1`` on those of the
default account, cluster by cluster), not on the user: a user can have ``astro`` as
default on one cluster and ``ml`` on another, or none on a cluster (after the default's
association was deleted; ``sacctmgr dump`` then writes ``DefaultAccount='(null)'``).
Every reader and writer of a default goes through here, so the rule lives once. The
readers take any read connection (:mod:`fscli.store.sql`) and import no SQLAlchemy: the
fast views (``limits check``) read a default.
"""

from __future__ import annotations

from fscli.store.sql import rows, scalar


def defaults(conn, cluster_id: int) -> dict[str, str]:
    """Each user's default account on the cluster (users without one are absent). Where
    several accounts are flagged (slurmdbd allows it for a moment), the first by name.
    ``conn``: any read connection (:mod:`fscli.store.sql`)."""
    out: dict[str, str] = {}
    for user, account in rows(
        conn,
        'SELECT "user", account FROM association WHERE cluster_id = :cid AND '
        '"user" IS NOT NULL AND is_default = :yes ORDER BY "user", account',
        {"cid": cluster_id, "yes": True},
    ):
        out.setdefault(user, account)
    return out


def first_defaults(conn, clusters: list[str] | None = None) -> dict[str, str]:
    """Each user's default as ``sacctmgr show user`` reports it: the user's on the first
    of ``clusters`` (in the order given; all if None, in the order they were added:
    slurmdbd's cluster list, to which a running slurmdbd appends each new cluster) where
    it has one."""
    every = all_defaults(conn)
    order = clusters if clusters is not None else list(dict.fromkeys(c for c, _ in every))
    found: dict[str, str] = {}
    for cluster in order:
        for (where, user), account in every.items():
            if where == cluster:
                found.setdefault(user, account)
    return found


def flagged_ids(conn) -> set[int]:
    """The ids of the associations flagged default (``sacctmgr show assoc onlydefaults``)."""
    return {
        aid
        for (aid,) in rows(
            conn, "SELECT id FROM association WHERE is_default = :yes", {"yes": True}
        )
    }


def default_of(conn, cluster_id: int, user: str) -> str | None:
    """``user``'s default account on the cluster, or None."""
    return scalar(
        conn,
        'SELECT MIN(account) FROM association WHERE cluster_id = :cid AND "user" = :user '
        "AND is_default = :yes",
        {"cid": cluster_id, "user": user, "yes": True},
    )


def set_default(conn, cluster_id: int, user: str, account: str | None) -> None:
    """``account`` becomes ``user``'s default on the cluster: its associations there are
    flagged, the user's others there are not (slurmdbd's ``_reset_default_assoc``).
    ``None``: the user has no default there any more."""
    from sqlalchemy import false, update

    from fscli.store.tables import association

    a = association.c
    conn.execute(
        update(association)
        .where(a.cluster_id == cluster_id, a.user == user)
        .values(is_default=false() if account is None else a.account == account)
    )


def flag_new(conn, cluster_id: int, user: str, account: str, ids: list[int]) -> None:
    """An add with ``DefaultAccount=account`` to a user that has a default: the new
    associations ``ids`` (those in ``account``) are flagged and the user's associations in
    other accounts are not (slurmdbd's ``_reset_default_assoc``); the user's older ones in
    ``account`` keep their flag. So an association added to the default account without
    ``DefaultAccount=`` stays unflagged, and ``delete account`` then refuses the flagged
    ones (``_check_is_def_acct_before_remove``)."""
    from sqlalchemy import false, true, update

    from fscli.store.tables import association

    a = association.c
    mine = (a.cluster_id == cluster_id, a.user == user)
    conn.execute(update(association).where(*mine, a.account != account).values(is_default=false()))
    if ids:
        conn.execute(update(association).where(a.id.in_(ids)).values(is_default=true()))


def without_default(conn, cluster_id: int) -> dict[str, list[str]]:
    """Users with associations on the cluster but no default there, with their accounts
    there (sorted)."""
    accounts: dict[str, set[str]] = {}
    flagged: set[str] = set()
    for user, account, is_default in rows(
        conn,
        'SELECT "user", account, is_default FROM association WHERE cluster_id = :cid AND '
        '"user" IS NOT NULL',
        {"cid": cluster_id},
    ):
        accounts.setdefault(user, set()).add(account)
        if is_default:
            flagged.add(user)
    return {u: sorted(a) for u, a in sorted(accounts.items()) if u not in flagged}


def give_defaults(conn, cluster_id: int) -> None:
    """Users left without a default on the cluster get the alphabetically first account
    they have there (as slurmdbd's ``_make_sure_users_have_default`` picks among
    associations made in the same second)."""
    for user, accounts in without_default(conn, cluster_id).items():
        set_default(conn, cluster_id, user, accounts[0])


def all_defaults(conn) -> dict[tuple[str, str], str]:
    """(cluster name, user) -> default account, for every cluster, clusters in the order
    they were added."""
    out: dict[tuple[str, str], str] = {}
    for cluster, user, account in rows(
        conn,
        'SELECT c.name, a."user", a.account FROM association a JOIN cluster c ON '
        'c.id = a.cluster_id WHERE a."user" IS NOT NULL AND a.is_default = :yes '
        'ORDER BY c.id, a."user", a.account',
        {"yes": True},
    ):
        out.setdefault((cluster, user), account)
    return out
