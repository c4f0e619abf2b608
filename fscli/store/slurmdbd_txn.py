"""slurmdbd's transaction rows, as ``sacctmgr list transactions`` shows them.

slurmdbd writes one row of its ``txn_table`` per change it makes, in its own words:
an action (``Add Users``, ``Modify Associations``, ...), the ``name`` column (what
sacctmgr calls Where: ``id_assoc=6``, ``(name='carl')``, ``alice``...), the cluster of
an association change and ``info``, the SQL-ish text of what was set. fscli's own
history (``transaction_log``, ``fscli history``) says what changed in fscli's words; the
``fscli sacctmgr`` front end writes these rows beside it, so that its transaction
listing answers as sacctmgr's does.

Adds and removes are found by comparing the store before and after a command
(:func:`state`, :func:`diff_rows`); modifies are written for what the command matched,
changed or not, as slurmdbd does (:func:`modify_assocs` and the like).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, literal_column, select

from fscli.engine.limits.definitions import CLEAR
from fscli.store import tables as t

ACTIONS = {
    "add associations": "Add Associations",
    "add users": "Add Users",
    "add accounts": "Add Accounts",
    "add clusters": "Add Clusters",
    "add qos": "Add QOS",
    "add account coord": "Add Account Coord",
    "add wckeys": "Add WCKeys",
    "add reservation": "Add Reservation",
    "add tres": "Add TRES",
    "add federations": "Add Federations",
    "add resources": "Add Resources",
    "modify associations": "Modify Associations",
    "modify users": "Modify Users",
    "modify accounts": "Modify Accounts",
    "modify clusters": "Modify Clusters",
    "modify qos": "Modify QOS",
    "modify wckeys": "Modify WCKeys",
    "modify reservation": "Modify Reservation",
    "modify federations": "Modify Federations",
    "modify resources": "Modify Resources",
    "modify job": "Modify Job",
    "remove associations": "Remove Associations",
    "remove users": "Remove Users",
    "remove accounts": "Remove Accounts",
    "remove clusters": "Remove Clusters",
    "remove qos": "Remove QOS",
    "remove account coords": "Remove Account Coords",
    "remove wckeys": "Remove WCKeys",
    "remove reservation": "Remove Reservation",
    "remove federations": "Remove Federations",
    "remove resources": "Remove Resources",
}
"""The action names ``Action=`` takes (case-insensitively), as slurmdbd spells them."""

ADMIN_LEVEL = {"None": 1, "Operator": 2, "Administrator": 3}

# slurmdbd's order of an association's scalar settings (setup_assoc_limits), by the
# limit names fscli keys them with
SCALARS = (
    ("GrpJobs", "grp_jobs"),
    ("GrpJobsAccrue", "grp_jobs_accrue"),
    ("GrpSubmitJobs", "grp_submit_jobs"),
    ("GrpWall", "grp_wall"),
    ("is_def", "is_def"),
    ("MaxJobs", "max_jobs"),
    ("MaxJobsAccrue", "max_jobs_accrue"),
    ("MinPrioThreshold", "min_prio_thresh"),
    ("MaxSubmitJobs", "max_submit_jobs"),
    ("MaxWallDurationPerJob", "max_wall_pj"),
)
SHARES_PARENT = 2147483647


@dataclass
class Txn:
    """One row of slurmdbd's txn_table."""

    action: str
    name: str
    info: str = ""
    cluster: str = ""


@dataclass
class State:
    """What the rows of a command are found from, before and after it."""

    clusters: list[str] = field(default_factory=list)
    accounts: dict[str, tuple[str, str]] = field(default_factory=dict)
    users: dict[str, str] = field(default_factory=dict)  # name -> admin level
    defaults: dict[tuple[str, str], str] = field(default_factory=dict)  # (cluster, user) -> default
    assocs: dict[int, Any] = field(default_factory=dict)  # id -> AssocView
    qos: dict[str, int] = field(default_factory=dict)  # name -> id
    coords: list[tuple[str, str]] = field(default_factory=list)  # (user, account)


def state(conn) -> State:
    from fscli.store.sacctmgr_queries import load_view
    from fscli.store.user_defaults import all_defaults

    u, a, q, c = t.user_account.c, t.account.c, t.qos.c, t.coordinator.c
    out = State()
    out.clusters = list(conn.execute(select(t.cluster.c.name).order_by(t.cluster.c.id)).scalars())
    for name, desc, org in conn.execute(
        select(a.name, a.description, a.organization).order_by(a.id)
    ):
        out.accounts[name] = (desc or "", org or "")
    for name, level in conn.execute(select(u.name, u.admin_level).order_by(u.id)):
        out.users[name] = level or "None"
    out.defaults = all_defaults(conn)
    out.assocs = {v.assoc.id: v for v in load_view(conn)}
    out.qos = dict(conn.execute(select(q.name, q.id).order_by(q.id)).all())
    order = [c.user, c.account]
    # SQLite: the order they were added in
    by: Sequence[ColumnElement] = (
        [literal_column("rowid")] if conn.dialect.name == "sqlite" else order
    )
    out.coords = [tuple(r) for r in conn.execute(select(*order).order_by(*by))]
    return out


def _ors(key: str, values: list, parens: bool = False) -> str:
    text = " || ".join(f"{key}='{v}'" for v in values)
    return f"({text})" if parens else text


def _ids(ids: list[int]) -> str:
    return "(" + " || ".join(f"id_assoc={i}" for i in ids) + ")"


def _null(value) -> str:
    return "NULL" if value is None or value is CLEAR else str(value)


def add_assoc_info(view, at: int, is_def: bool) -> str:
    """slurmdbd's info of an added association (its TRES and QOS lists left out when set:
    fscli does not number TRES and QOS as slurmdbd does there)."""
    assoc = view.assoc
    parts = [f"mod_time={at}", f"acct='{assoc.account}'"]
    if assoc.user is None:
        parts.append(f"parent_acct='{view.parent_account}'")
        parts.append("user=''")
    else:
        parts.append(f"user='{assoc.user}'")
        parts.append(f"`partition`='{assoc.partition or ''}'")
    shares = SHARES_PARENT if assoc.shares_parent else assoc.shares
    parts.append(f"shares={shares}")
    for key, column in SCALARS:
        if key == "is_def":
            if is_def:
                parts.append("is_def=1")
            continue
        parts.append(f"{column}={_null(assoc.limits.get(key))}")
    parts.append(f"priority={_null(assoc.priority)}")
    parts.append("def_qos_id=NULL")
    parts += ["qos=''", "delta_qos=''"]
    return ", ".join(parts)


def modify_assoc_info(shares, priority, limits: dict[str, Any], is_def: bool = False) -> str:
    """slurmdbd's info of a modify of associations' scalar settings (TRES and QOS
    changes, which slurmdbd writes as SQL expressions, are left out)."""
    parts = []
    if shares is not None:
        if shares == "parent":
            parts.append(f"shares={SHARES_PARENT}")
        elif shares is CLEAR or (isinstance(shares, int) and shares < 0):
            parts.append("shares=1")
        else:
            parts.append(f"shares={shares}")
    for key, column in SCALARS:
        if key == "is_def":
            if is_def:
                parts.append("is_def=1")
        elif key in limits:
            parts.append(f"{column}={_null(limits[key])}")
    if priority is not None:
        parts.append(f"priority={_null(priority)}")
    return ", ".join(parts)


def diff_rows(
    verb: str, entity: str, before: State, after: State, at: int, default_given: bool = False
) -> list[Txn]:
    """The rows slurmdbd writes for what an add or a delete changed. An added user
    association says ``is_def=1`` when it is the DefaultAccount= the add named (or the
    root user's of a new cluster), not when the default was taken from the accounts."""
    rows: list[Txn] = []
    if verb not in ("add", "delete"):
        return rows
    new_assocs = [after.assocs[i] for i in sorted(set(after.assocs) - set(before.assocs))]

    def assoc_rows(views) -> list[Txn]:
        out = []
        for v in views:
            user = v.assoc.user
            is_def = (
                user is not None
                and (default_given or entity == "cluster")
                and after.defaults.get((v.cluster, user)) == v.assoc.account
            )
            out.append(
                Txn(
                    "Add Associations",
                    f"id_assoc={v.assoc.id}",
                    add_assoc_info(v, at, is_def),
                    v.cluster,
                )
            )
        return out

    if verb == "add":
        if entity == "cluster":
            added = [c for c in after.clusters if c not in before.clusters]
            for name in added:
                rows.append(Txn("Add Clusters", name, _cluster_info(at)))
            rows += assoc_rows(v for v in new_assocs if v.assoc.user is not None)
        elif entity == "account":
            for name in after.accounts:
                if name not in before.accounts:
                    desc, org = after.accounts[name]
                    rows.append(
                        Txn("Add Accounts", name, f"description='{desc}', organization='{org}'")
                    )
            rows += assoc_rows(new_assocs)
        elif entity == "user":
            for name, level in after.users.items():
                if name not in before.users:
                    rows.append(Txn("Add Users", name, f"admin_level={ADMIN_LEVEL.get(level, 1)}"))
            rows += assoc_rows(new_assocs)
        elif entity == "coordinator":
            for user, acct in after.coords:
                if (user, acct) not in before.coords:
                    rows.append(Txn("Add Account Coord", user, acct))
        elif entity == "qos":
            for name in after.qos:
                if name not in before.qos:
                    rows.append(Txn("Add QOS", name))
        return rows
    # removes
    if entity == "cluster":
        gone = [c for c in before.clusters if c not in after.clusters]
        rows += [Txn("Remove Clusters", f"name='{c}'") for c in gone]
    elif entity == "qos":
        gone_q = [before.qos[n] for n in before.qos if n not in after.qos]
        if gone_q:
            rows.append(Txn("Remove QOS", _ors("id", gone_q)))
    elif entity in ("user", "account"):
        table = before.users if entity == "user" else before.accounts
        now = after.users if entity == "user" else after.accounts
        gone_names = sorted(n for n in table if n not in now)
        if gone_names:
            key = "user" if entity == "user" else "acct"
            rows.append(Txn("Remove Account Coords", _ors(key, gone_names, parens=True)))
            rows.append(Txn(f"Remove {entity.title()}s", _ors("name", gone_names)))
        else:
            lost = [before.assocs[i] for i in before.assocs if i not in after.assocs]
            by_cluster: dict[str, list[int]] = {}
            for v in lost:
                by_cluster.setdefault(v.cluster, []).append(v.assoc.id)
            for cluster, ids in by_cluster.items():
                rows.append(
                    Txn(
                        "Remove Associations",
                        " || ".join(f"id_assoc={i}" for i in ids),
                        "",
                        cluster,
                    )
                )
    return rows


def _cluster_info(at: int) -> str:
    return (
        f"mod_time={at}, shares=1, grp_jobs=NULL, grp_jobs_accrue=NULL, grp_submit_jobs=NULL, "
        "grp_wall=NULL, max_jobs=NULL, max_jobs_accrue=NULL, min_prio_thresh=NULL, "
        "max_submit_jobs=NULL, max_wall_pj=NULL, priority=NULL, def_qos_id=NULL, qos=',1,', "
        "federation='', fed_id=0, fed_state=0, features=''"
    )


def modify_assocs(views, info: str) -> list[Txn]:
    """One Modify Associations row a cluster for the associations a modify matched (in
    sacctmgr's list order), whatever their values were."""
    by_cluster: dict[str, list[int]] = {}
    for v in views:
        by_cluster.setdefault(v.cluster, []).append(v.assoc.id)
    return [Txn("Modify Associations", _ids(ids), info, c) for c, ids in by_cluster.items()]


def modify_named(what: str, names: list[str], info: str) -> Txn:
    """A Modify Users/Accounts/QOS row for the names matched."""
    return Txn(f"Modify {what}", _ors("name", names, parens=True), info)


def remove_coords(users: list[str], accounts: list[str]) -> Txn:
    """The Remove Account Coords row of a delete coordinator, as its conditions were given."""
    parts = []
    if users:
        parts.append(_ors("user", users, parens=True))
    if accounts:
        parts.append(_ors("acct", accounts, parens=True))
    return Txn("Remove Account Coords", " && ".join(parts))


def record(session, at: int, actor: str, rows: list[Txn]) -> None:
    if not rows:
        return
    from sqlalchemy import insert

    session.execute(
        insert(t.slurmdbd_txn),
        [
            {
                "at": at,
                "actor": actor,
                "action": r.action,
                "name": r.name,
                "cluster": r.cluster,
                "info": r.info,
            }
            for r in rows
        ],
    )


def read(conn) -> list[tuple]:
    """Every row: (id, at, action, name, actor, info, cluster), in slurmdbd's order (by
    time stamp, then as written)."""
    x = t.slurmdbd_txn.c
    return [
        tuple(r)
        for r in conn.execute(
            select(x.id, x.at, x.action, x.name, x.actor, x.info, x.cluster).order_by(x.at, x.id)
        )
    ]
