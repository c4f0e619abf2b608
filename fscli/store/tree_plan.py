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
from fscli.engine.job_states import ACTIVE_STATES
from fscli.engine.model import SHARES_PARENT, Assoc
from fscli.engine.treediff import Change, Plan
from fscli.engine.treespec import (
    NO_DEFAULT,
    ROOT,
    AccountSpec,
    ClusterSpec,
    QosSpec,
    TreeSpec,
    UserAssocSpec,
    UserSpec,
    check_qos_numbers,
    lower_names,
)
from fscli.errors import Conflict
from fscli.heap import keep_until_exit
from fscli.store import snapshot, user_defaults
from fscli.store.assoc_fields import qos_list
from fscli.store.checks import active_job_ids, check_name, named
from fscli.store.sql import chunked, in_list, rows, scalar

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


def read_spec(conn, cid: int, known: dict[str, UserSpec] | None = None) -> TreeSpec:
    """The whole cluster ``cid`` as a TreeSpec (what ``export`` and ``dump`` write).

    ``known``: users the caller holds (the tree a plan compares with the store). A user
    whose rows say exactly what one of them says is that very object, not a copy made
    from the rows (:class:`_Users`)."""
    cluster = snapshot.load_cluster(conn, cid)
    accounts = {
        n: (d, o) for n, d, o in rows(conn, "SELECT name, description, organization FROM account")
    }
    assocs = snapshot.load_assocs(conn, cid, ('"user" IS NULL', {}))
    acct_of = {a.id: a.account for a in assocs}
    root = next((a for a in assocs if a.parent_id is None), None)
    assert root is not None, f"cluster {cluster.name} has no root association"
    spec = TreeSpec(
        cluster=ClusterSpec(
            name=cluster.name,
            nodes=cluster.nodes,
            cpus=cluster.cpus,
            tres=cluster.tres,
            **_settings(root),
        )
    )
    for assoc in assocs:
        if assoc.parent_id is not None:
            desc, org = accounts.get(assoc.account, ("", ""))
            spec.accounts[assoc.account] = AccountSpec(
                name=assoc.account,
                parent=acct_of[assoc.parent_id],
                description=desc or "",
                organization=org or "",
                **_settings(assoc),
            )
    spec.users = _Users(conn, cid, {ROOT, *spec.accounts}, known or {}).read()
    spec.qos = read_qos(conn)
    spec.partitions = snapshot.load_partitions(conn, cid)
    spec.priority = _priority_settings(conn, cid)
    return spec


class _Users:
    """A cluster's users, read from their rows (one query for all their associations).

    Where the caller already holds an equal UserSpec, the rows are only compared with it,
    and it stands for the user: a plan of a tree the store matches reads 100,000
    associations without making an object for each (and the diff then finds each user
    equal at once), a third of the time the objects took. Equal is ``==`` of the object
    the rows would make: every value compared as that object's would be."""

    def __init__(self, conn, cid: int, here: set[str], known: dict[str, UserSpec]):
        self.conn = conn
        self.cid = cid
        self.here = here  # a tree names only its own cluster's accounts
        self.known = known
        self.limits = snapshot.assoc_limits(
            conn, 'cluster_id + 0 = :cid AND "user" IS NOT NULL', {"cid": cid}
        )
        self.qos: dict[str | None, list[str]] = {}  # the column's text -> the sorted list

    def read(self) -> dict[str, UserSpec]:
        """Each user with associations on the cluster, in the user table's order."""
        groups: dict[str, list[tuple]] = {}
        last = None
        for row in rows(
            self.conn,
            'SELECT id, "user", account, "partition", shares_raw, shares_parent, priority, qos, '
            'default_qos FROM association WHERE cluster_id + 0 = :cid AND "user" IS NOT NULL '
            'ORDER BY "user", account, "partition", id',
            {"cid": self.cid},
        ):
            if row[1] != last:
                last = row[1]
                group = groups[last] = []
            group.append(row)
        coords = read_coordinators(self.conn)
        users = {}
        defaults = user_defaults.defaults(self.conn, self.cid)
        for name, level in rows(self.conn, "SELECT name, admin_level FROM user_account"):
            default = defaults.get(name, NO_DEFAULT)
            own = groups.get(name)
            if own is None:
                continue
            user = self.known.get(name)
            coordinated = [a for a in coords.get(name, ()) if a in self.here]
            if user is None or not self.same(user, default, level, coordinated, own):
                user = UserSpec(
                    name=name,
                    default_account=default,
                    admin_level=level or "None",
                    coordinator_of=coordinated,
                    # by key, then id: what UserSpec's stable sort makes of them by id
                    associations=[self.assoc(row) for row in own],
                )
            users[name] = user
        return users

    def same(self, user: UserSpec, default, level, coordinated: list[str], group) -> bool:
        """Whether ``user`` equals the UserSpec the rows make. The rows come in the order
        UserSpec sorts associations into (but where a server sorts NULL partitions last:
        then the objects are made, as for any other difference), and the coordinators
        in the order it sorts them into (in a server's collation, maybe not)."""
        assocs = user.associations
        if not (
            user.default_account == default
            and user.admin_level == (level or "None")
            and user.coordinator_of == coordinated
            and len(assocs) == len(group)
        ):
            return False
        limits, qos_lists = self.limits, self.qos
        for assoc, (aid, _, account, part, raw, is_parent, priority, qos, dqos) in zip(
            assocs, group
        ):
            if not (
                assoc.account == account
                and assoc.partition == part
                and assoc.shares == (SHARES_PARENT if is_parent else 1 if raw is None else raw)
                and assoc.priority == priority
                and assoc.default_qos == dqos
                and assoc.qos == (qos_lists.get(qos) or self.sorted_qos(qos))
                and assoc.limits == limits.get(aid, snapshot.NO_LIMITS)
            ):
                return False
        return True

    def sorted_qos(self, text: str | None) -> list[str]:
        found = self.qos.get(text)
        if found is None:
            found = self.qos[text] = sorted(qos_list(text))
        return found

    def assoc(self, row: tuple) -> UserAssocSpec:
        aid, _, account, part, raw, is_parent, priority, qos, default_qos = row
        return UserAssocSpec(
            account=account,
            partition=part,
            shares=SHARES_PARENT if is_parent else 1 if raw is None else raw,
            priority=priority,
            qos=self.sorted_qos(qos),
            default_qos=default_qos,
            limits=self.limits.get(aid, snapshot.NO_LIMITS),
        )


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
    whose docstring says what the flags do), then take out what the store must keep.
    Names are lower-cased first (:func:`~fscli.engine.treespec.lower_names`), as every
    other path stores them."""
    lower_names(spec)
    _check_names(spec)
    check_qos_numbers(spec.qos.values())
    cid = cluster_id(conn, spec.cluster.name)
    if cid is not None:
        current = read_spec(conn, cid, known=None if clean else spec.users)
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


def read_records(conn, plan: Plan) -> None:
    """Fill ``plan.records``: the stored records of the accounts and users the plan adds
    to or removes from its cluster that other clusters also have. sacctmgr's ``add``
    keeps such a record's texts and admin level, and a sacctmgr script removes the
    record itself only with the last cluster's associations (as the store then does)."""
    cid = cluster_id(conn, plan.spec.cluster.name)
    queries = {
        "account": ("SELECT name, description, organization FROM account", "account"),
        "user": ("SELECT name, admin_level FROM user_account", '"user"'),
    }
    for kind, (query, column) in queries.items():
        names = sorted(c.name for c in plan.changes if c.kind == kind and c.op != "~")
        for chunk in chunked(names):
            where, params = in_list("name", "name", chunk)
            elsewhere = (
                f"SELECT {column} FROM association WHERE cluster_id != :cid AND "
                + where.replace("name", column, 1)
            )
            found = rows(
                conn,
                f"{query} WHERE name IN ({elsewhere})",
                {"cid": -1 if cid is None else cid, **params},
            )
            for name, *values in found:
                plan.records[kind, name] = (
                    {"description": values[0] or "", "organization": values[1] or ""}
                    if kind == "account"
                    else {"admin_level": values[0] or "None"}
                )


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
    busy, first = active_job_ids(conn, ids)
    if busy:
        raise Conflict(
            f"Job(s) active, cancel job(s) before remove ({busy} pending or running "
            f"in associations the plan removes: {named(busy, first, 'job', 'jobs')})"
        )
    return ids
