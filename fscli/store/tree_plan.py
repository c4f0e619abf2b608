"""Trees as code on the store side, reading: a cluster as a TreeSpec, and the plan.

:func:`read_spec` loads one cluster (its root association, accounts, users, QOS,
partitions, priority settings), one query per table. :func:`make_plan` reads the current
state and hands it with the desired :class:`TreeSpec` to the engine's
:func:`~fscli.engine.treediff.diff`, which checks the tree and makes the
:class:`~fscli.engine.treediff.Plan`; the store then adds what only the database knows
(QOS still used elsewhere, the ids of the rows a plan removes). :mod:`.tree_sync` writes
the plan.

The queries are SQL text (:mod:`fscli.store.sql`), so that a plan runs on a plain
``sqlite3`` connection as well as on a SQLAlchemy one: ``fscli apply`` of a tree that
changes nothing in an SQLite store never imports SQLAlchemy (0.25 s of its run at
100,000 associations).

A cluster's tree holds what belongs to that cluster (its associations, partitions and
priority settings) and the global objects it uses (QOS, users, accounts). Pruning removes
only the cluster's own objects, and a QOS only while nothing on any cluster uses it: a
QOS that is still used is kept, and the plan says why (``Plan.kept``).
"""

from __future__ import annotations

from typing import Any

from fscli.engine import config as configmod
from fscli.engine import treediff
from fscli.engine.model import Assoc
from fscli.engine.treediff import Change, Plan
from fscli.engine.treespec import (
    ROOT,
    AccountSpec,
    ClusterSpec,
    QosSpec,
    TreeSpec,
    UserAssocSpec,
    UserSpec,
)
from fscli.errors import Conflict
from fscli.heap import keep_until_exit
from fscli.store import snapshot
from fscli.store.checks import active_jobs, check_name
from fscli.store.job_states import ACTIVE_STATES
from fscli.store.sql import in_list, rows, scalar

# ---------------------------------------------------------------- store -> TreeSpec


def cluster_id(conn, name: str) -> int | None:
    return scalar(conn, "SELECT id FROM cluster WHERE name = :name", {"name": name})


def read_coordinators(conn) -> dict[str, list[str]]:
    """user -> the accounts it coordinates, sorted (global, as in slurmdbd)."""
    out: dict[str, list[str]] = {}
    for user, account in rows(
        conn, 'SELECT "user", account FROM coordinator ORDER BY "user", account'
    ):
        out.setdefault(user, []).append(account)
    return out


def _settings(assoc: Assoc) -> dict[str, Any]:
    """AssocSettings fields of an association as the read path loads it."""
    return {
        "shares": assoc.shares,
        "priority": assoc.priority,
        "qos": list(assoc.qos),
        "default_qos": assoc.default_qos,
        "limits": assoc.limits,
    }


def read_spec(conn, cid: int) -> TreeSpec:
    """The whole cluster ``cid`` as a TreeSpec (what ``export`` and ``dump`` write)."""
    cluster = snapshot.load_cluster(conn, cid)
    accounts = {
        n: (d, o) for n, d, o in rows(conn, "SELECT name, description, organization FROM account")
    }
    assocs = snapshot.load_assocs(conn, cid)
    acct_of = {a.id: a.account for a in assocs if a.user is None}
    spec = None
    users: dict[str, list[UserAssocSpec]] = {}
    for assoc in assocs:
        if assoc.user is not None:
            users.setdefault(assoc.user, []).append(
                UserAssocSpec(account=assoc.account, partition=assoc.partition, **_settings(assoc))
            )
        elif assoc.parent_id is None:
            spec = TreeSpec(
                cluster=ClusterSpec(
                    name=cluster.name,
                    nodes=cluster.nodes,
                    cpus=cluster.cpus,
                    tres=cluster.tres,
                    **_settings(assoc),
                )
            )
    assert spec is not None, f"cluster {cluster.name} has no root association"
    for assoc in assocs:
        if assoc.user is None and assoc.parent_id is not None:
            desc, org = accounts.get(assoc.account, ("", ""))
            spec.accounts[assoc.account] = AccountSpec(
                name=assoc.account,
                parent=acct_of[assoc.parent_id],
                description=desc or "",
                organization=org or "",
                **_settings(assoc),
            )
    coords = read_coordinators(conn)
    here = {ROOT, *spec.accounts}  # a tree names only its own cluster's accounts
    for uname, default, level in rows(
        conn, "SELECT name, default_account, admin_level FROM user_account"
    ):
        if uname in users:
            spec.users[uname] = UserSpec(
                name=uname,
                default_account=default or "",
                admin_level=level or "None",
                coordinator_of=[a for a in coords.get(uname, []) if a in here],
                associations=users[uname],
            )
    spec.qos = read_qos(conn)
    spec.partitions = snapshot.load_partitions(conn, cid)
    spec.priority = _priority_settings(conn, cid)
    return spec


def _priority_settings(conn, cid: int) -> dict[str, str]:
    """The cluster's slurm.conf priority settings (not fscli's own config keys)."""
    return {k: v for k, v in snapshot.load_config(conn, cid).items() if k in configmod.KEYS}


def read_qos(conn) -> dict[str, QosSpec]:
    """Every QOS as the tree file describes it (the read path's QOS, plus descriptions)."""
    descriptions = dict(rows(conn, "SELECT name, description FROM qos"))
    return {
        name: QosSpec(
            name=name,
            description=descriptions[name] or "",
            priority=q.priority,
            flags=sorted(q.flags),
            usage_factor=q.usage_factor,
            limit_factor=q.limit_factor,
            usage_threshold=q.usage_threshold,
            grace_time=q.grace_time,
            limits=q.limits,
        )
        for name, q in snapshot.load_qos(conn).items()
    }


# ---------------------------------------------------------------- planning


def make_plan(
    conn, spec: TreeSpec, prune: bool = False, create_missing: bool = False, clean: bool = False
) -> Plan:
    """Validate ``spec`` against the store and diff it into a plan (:func:`treediff.diff`,
    whose docstring says what the flags do), then take out what the store must keep."""
    _check_names(spec)
    cid = cluster_id(conn, spec.cluster.name)
    if cid is not None:
        current = read_spec(conn, cid)
        keep_until_exit(current)  # dropped once diffed: 0.07 s to free at 100,000
    else:
        current = TreeSpec(cluster=ClusterSpec(name=spec.cluster.name))
        current.qos = read_qos(conn)
    plan = treediff.diff(
        current,
        spec,
        exists=cid is not None,
        prune=prune,
        create_missing=create_missing,
        clean=clean,
    )
    _keep_used_qos(conn, cid, plan)
    if cid is not None and (prune or clean):
        plan.removed_assoc_ids = _removed_ids(conn, cid, plan.changes)
    return plan


def _keep_used_qos(conn, cid: int | None, plan: Plan) -> None:
    """Take the removal of a QOS out of the plan while anything the plan does not rewrite
    uses it: another cluster's association (QOS list, delta or DefaultQOS) or partition,
    or a pending or running job. The cluster's own associations and partitions are the
    tree's, which was checked to use none of the QOS it drops."""
    gone = {c.name for c in plan.changes if c.op == "-" and c.kind == "qos"}
    if not gone:
        return
    reasons = qos_in_use(conn, gone, other_than=cid)
    plan.changes = [
        c for c in plan.changes if not (c.op == "-" and c.kind == "qos" and c.name in reasons)
    ]
    plan.kept += [f"qos {name}: kept, {reasons[name]}" for name in sorted(reasons)]


def qos_in_use(conn, names: set[str], other_than: int | None = None) -> dict[str, str]:
    """QOS name -> what uses it (for the first user found of each kind), among ``names``:
    associations and partitions of every cluster but ``other_than``, and active jobs of
    every cluster."""
    named, params = in_list('"partition".qos', "qos", sorted(names))
    states, more = in_list("state", "state", ACTIVE_STATES)
    assocs = (
        "SELECT association.qos, association.default_qos, cluster.name FROM association "
        "JOIN cluster ON cluster.id = association.cluster_id "
        "WHERE (association.qos IS NOT NULL OR association.default_qos IS NOT NULL)"
    )
    parts = (
        'SELECT "partition".qos, "partition".name, cluster.name FROM "partition" '
        f'JOIN cluster ON cluster.id = "partition".cluster_id WHERE {named}'
    )
    other: dict[str, int] = {}
    if other_than is not None:
        assocs += " AND association.cluster_id != :other"
        parts += ' AND "partition".cluster_id != :other'
        other["other"] = other_than
    uses: dict[str, list[str]] = {}
    counts: dict[tuple[str, str], int] = {}
    for qos, default_qos, cluster in rows(conn, assocs, other):
        used = {q.lstrip("+-") for q in (qos or "").split(",") if q} | {default_qos}
        for name in used & names:
            counts[name, cluster] = counts.get((name, cluster), 0) + 1
    for (name, cluster), count in sorted(counts.items()):
        uses.setdefault(name, []).append(f"{count} association(s) on cluster {cluster} use it")
    for name, part, cluster in rows(conn, parts, params | other):
        uses.setdefault(name, []).append(f"the QOS of partition {part} on cluster {cluster}")
    jobs, job_params = in_list("qos", "qos", sorted(names))
    for name, count in rows(
        conn,
        f"SELECT qos, count(*) FROM job WHERE {jobs} AND {states} GROUP BY qos",
        job_params | more,
    ):
        uses.setdefault(name, []).append(f"{count} pending or running job(s) use it")
    return {name: "; ".join(why) for name, why in uses.items()}


def _check_names(spec: TreeSpec) -> None:
    check_name("cluster", spec.cluster.name)
    for name in spec.accounts:
        check_name("account", name)
    for name in spec.users:
        check_name("user", name)
    for name in spec.qos:
        check_name("QOS", name)
    used = {a.partition for u in spec.users.values() for a in u.associations if a.partition}
    for name in sorted(set(spec.partitions) | used):
        check_name("partition", name, keep_case=True)


def _removed_ids(conn, cid: int, changes: list[Change]) -> list[int]:
    """Ids of the association rows a pruning plan removes; refused while jobs are active."""
    gone_accounts = {c.name for c in changes if c.op == "-" and c.kind == "account"}
    gone_assocs = {
        (c.item[0], c.item[1].account, c.item[1].partition)
        for c in changes
        if c.op == "-" and c.kind == "assoc"
    }
    if not gone_accounts and not gone_assocs:
        return []
    ids = [
        aid
        for aid, acct, user, part in rows(
            conn,
            'SELECT id, account, "user", "partition" FROM association WHERE cluster_id = :cid',
            {"cid": cid},
        )
        if (user is None and acct in gone_accounts) or (user, acct, part) in gone_assocs
    ]
    busy = active_jobs(conn, ids)
    if busy:
        raise Conflict(
            f"Job(s) active, cancel job(s) before remove ({busy} pending or running "
            "in associations the plan removes)"
        )
    return ids
