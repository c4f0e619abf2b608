"""Trees as code on the store side, writing: a plan (:mod:`.tree_plan` makes it) applied.

:func:`apply_plan` writes the plan with bulk Core inserts and updates (a 100k-association
tree is a handful of ``executemany`` calls, not 100k ORM objects) and logs every change in
the transaction table, as ``Admin.log`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, update

from fscli.engine import treediff
from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import PARTITION_SETTINGS, Partition
from fscli.engine.treediff import Change, Plan
from fscli.engine.treespec import ROOT, AssocSettings, QosSpec
from fscli.engine.tres import format_tres
from fscli.store import models as m
from fscli.store import nest, tables
from fscli.store.admin import Admin
from fscli.store.assoc_fields import stored_limit
from fscli.store.audit import describe
from fscli.store.bulk import LOG_TABLE, insert_rows, insert_tuples
from fscli.store.db import ids_given
from fscli.store.pass_cache import stamped_once
from fscli.store.sql import chunked
from fscli.store.tree_plan import cluster_id

BATCH = 5000
_T = tables.association
_NO_LIMITS = {d.attr: None for d in limitdefs.ASSOC_LIMITS}
_ASSOC_KEY = ("cluster_id", "account", "user", "partition", "parent_id")

_WRITTEN = (
    *(t.name for t in (tables.qos, tables.cluster, tables.partition, tables.config)),
    *(t.name for t in (tables.account, tables.user_account, _T, tables.usage, tables.coordinator)),
    LOG_TABLE,
)
"""The tables a plan writes (:func:`~fscli.store.pass_cache.stamped_once` quiets their
stamp triggers while it does)."""

Progress = Callable[[int, int], None]


# ---------------------------------------------------------------- TreeSpec -> rows


def assoc_values(item: AssocSettings, sparse: bool = False) -> dict[str, Any]:
    """Association column values for the settings of a spec item; ``sparse``: without the
    columns left NULL (an insert binds fewer parameters)."""
    values: dict[str, Any] = {
        "shares_raw": None if item.shares_parent else item.shares,
        "shares_parent": item.shares_parent,
    }
    for key, value in (
        ("priority", item.priority),
        ("qos", ",".join(item.qos) or None),
        ("default_qos", item.default_qos),
    ):
        if value is not None or not sparse:
            values[key] = value
    if not sparse:
        values.update(_NO_LIMITS)
    for name, value in item.limits.items():
        defn = limitdefs.BY_NAME[name.lower()]
        values[defn.attr] = stored_limit(defn, value)
    return values


def qos_values(q: QosSpec) -> dict[str, Any]:
    values = {
        "name": q.name,
        "description": q.description or None,
        "priority": q.priority,
        "flags": ",".join(q.flags) or None,
        "usage_factor": q.usage_factor,
        "limit_factor": q.limit_factor,
        "usage_threshold": q.usage_threshold,
        "grace_time": q.grace_time,
    }
    for defn in limitdefs.QOS_LIMITS:
        values[defn.attr] = stored_limit(defn, q.limits.get(defn.name))
    return values


def partition_values(p: Partition) -> dict[str, Any]:
    values = {f: getattr(p, f) for f in PARTITION_SETTINGS}
    values["tres"] = format_tres(p.tres, units=False) if p.tres else None
    return values


# ---------------------------------------------------------------- applying


class _Writer:
    """Bulk Core writes of one plan inside the caller's session (one transaction)."""

    def __init__(self, session, plan: Plan, admin: Admin, progress: Progress | None):
        self.s = session
        self.conn = session.connection()
        self.plan = plan
        self.admin = admin
        self.spec = plan.spec
        self.progress = progress
        self.done = 0
        self.total = len(plan.changes)
        self.groups: dict[tuple[str, str], list[Change]] = {}
        for change in plan.changes:
            self.groups.setdefault((change.op, change.kind), []).append(change)

    def execute(self, statement, rows: list[dict], tick: bool = True) -> None:
        """``executemany`` in batches; each row written counts as one change done."""
        self._batches(lambda chunk: self.conn.execute(statement, chunk), rows, tick)

    def insert(self, table, rows: list[dict], tick: bool = True) -> None:
        """:func:`~fscli.store.bulk.insert_rows` in batches, counted as :meth:`execute` does."""
        self._batches(lambda chunk: insert_rows(self.conn, table, chunk), rows, tick)

    def insert_tuples(self, table, keys: tuple[str, ...], rows: list[tuple]) -> None:
        """:func:`~fscli.store.bulk.insert_tuples` in batches, counted as :meth:`execute` does."""
        self._batches(lambda chunk: insert_tuples(self.conn, table, keys, chunk), rows, True)

    def _batches(self, write, rows: Sequence[dict] | Sequence[tuple], tick: bool) -> None:
        for start in range(0, len(rows), BATCH):
            chunk = rows[start : start + BATCH]
            write(chunk)
            if tick:
                self.tick(len(chunk))

    def tick(self, count: int) -> None:
        self.done += count
        if self.progress:
            self.progress(min(self.done, self.total), self.total)

    def by(self, op: str, kind: str) -> list[Change]:
        return self.groups.get((op, kind), [])

    def run(self) -> None:
        self.qos()
        cid = self.cluster()
        if self.plan.clean:  # the same names come back: make room first
            self.remove_assocs()
        self.partitions(cid)
        self.priority(cid)
        ids = self.accounts(cid)
        self.users()
        self.user_assocs(cid, ids)
        self.user_defaults(cid)
        if not self.plan.clean:  # after the moves: an account's row takes its subtree along
            self.remove_assocs()
        self.removals(cid)
        self.coordinators(cid)
        self.log()

    def qos(self) -> None:
        table = tables.qos
        self.insert(table, [qos_values(c.item) for c in self.by("+", "qos")])
        self.execute(
            update(table).where(table.c.name == bindparam("b_name")),
            [
                {"b_name": c.name, **{k: v for k, v in qos_values(c.item).items() if k != "name"}}
                for c in self.by("~", "qos")
            ],
        )

    def cluster(self) -> int:
        spec = self.spec.cluster
        table = tables.cluster
        values = {
            "nodes": spec.nodes,
            "cpus": spec.cpus,
            "tres": format_tres(spec.tres, units=False) if spec.tres else None,
        }
        if not self.plan.cluster_exists:
            cid = self.conn.execute(
                insert(table).values(name=spec.name, **values)
            ).inserted_primary_key[0]
            accounts = tables.account
            if (
                self.conn.execute(select(accounts.c.name).where(accounts.c.name == ROOT)).first()
                is None
            ):
                self.conn.execute(
                    insert(accounts).values(
                        name=ROOT, description="default root account", organization=ROOT
                    )
                )
            self.conn.execute(
                insert(_T).values(
                    cluster_id=cid, account=ROOT, parent_id=None, nest_order=0, **assoc_values(spec)
                )
            )
            self.tick(1)
            return cid
        cid = self.conn.execute(select(table.c.id).where(table.c.name == spec.name)).scalar()
        if self.by("~", "cluster"):
            self.conn.execute(update(table).where(table.c.id == cid).values(**values))
            self.conn.execute(
                update(_T)
                .where(_T.c.cluster_id == cid, _T.c.parent_id.is_(None))
                .values(**assoc_values(spec))
            )
            self.tick(1)
        return cid

    def partitions(self, cid: int) -> None:
        table = tables.partition
        self.insert(
            table,
            [
                {"cluster_id": cid, "name": c.name, **partition_values(c.item)}
                for c in self.by("+", "partition")
            ],
        )
        changed = {c.name: c.item.billing_weights for c in self.by("~", "partition")}
        if changed:
            from fscli.store.config_history import keep_job_billing
            from fscli.store.snapshot import load_partitions

            before = load_partitions(self.conn, cid)
            moved = [
                n for n, w in changed.items() if n in before and before[n].billing_weights != w
            ]
            keep_job_billing(self.conn, cid, moved, self.admin.now)
        self.execute(
            update(table).where(table.c.cluster_id == cid, table.c.name == bindparam("b_name")),
            [{"b_name": c.name, **partition_values(c.item)} for c in self.by("~", "partition")],
        )

    def priority(self, cid: int) -> None:
        from fscli.store.config_history import keep_replaced
        from fscli.store.snapshot import load_config

        changed = [c.name for op in "+~-" for c in self.by(op, "priority")]
        if changed:
            before = load_config(self.conn, cid)
            keep_replaced(self.conn, cid, self.admin.now, {k: before.get(k) for k in changed})
        table = tables.config
        self.insert(
            table,
            [{"cluster_id": cid, "key": c.name, "value": c.item} for c in self.by("+", "priority")],
        )
        self.execute(
            update(table).where(table.c.cluster_id == cid, table.c.key == bindparam("b_key")),
            [{"b_key": c.name, "value": c.item} for c in self.by("~", "priority")],
        )

    def accounts(self, cid: int) -> dict[str, int]:
        """Account rows and account associations; returns account -> association id."""
        table = tables.account
        ids = dict(
            self.conn.execute(
                select(_T.c.account, _T.c.id).where(
                    _T.c.cluster_id == cid, _T.c.user.is_(None), _T.c.partition.is_(None)
                )
            ).all()
        )
        added = self.by("+", "account")
        known = set(self.conn.execute(select(table.c.name)).scalars()) if added else set()
        texts = [*self.by("~", "account"), *[c for c in added if c.name in known]]
        self.execute(
            update(table).where(table.c.name == bindparam("b_name")),
            [
                {
                    "b_name": c.name,
                    "description": c.item.description,
                    "organization": c.item.organization,
                }
                for c in texts
            ],
            tick=False,
        )
        self.insert(
            table,
            [
                {
                    "name": c.name,
                    "description": c.item.description,
                    "organization": c.item.organization,
                }
                for c in added
                if c.name not in known
            ],
            tick=False,
        )
        next_id = (self.conn.execute(select(func.max(_T.c.id))).scalar() or 0) + 1
        rows = []
        for change in added:  # in account order: parents first
            ids[change.name] = next_id
            rows.append(
                {
                    "id": next_id,
                    "cluster_id": cid,
                    "account": change.name,
                    "user": None,
                    "partition": None,
                    "parent_id": ids[change.item.parent],
                    **assoc_values(change.item),
                }
            )
            next_id += 1
        if rows:  # one add call: the tree's accounts, as sacctmgr load adds them
            file_order = {name: k for k, name in enumerate(self.spec.accounts)}
            by_file = _one_run_per_parent(
                rows, lambda r: r["parent_id"], lambda r: file_order.get(r["account"], 0)
            )
            orders, _ = nest.call_orders(
                [r["parent_id"] for r in by_file], nest.lowest(self.conn, cid)
            )
            for row, order in zip(by_file, orders):
                row["nest_order"] = order
        self.insert(_T, rows)  # in order: a parent's row before its children's
        if rows:
            ids_given(self.conn, _T)
        self.execute(
            update(_T).where(_T.c.id == bindparam("b_id")),
            [
                {"b_id": ids[c.name], "parent_id": ids[c.item.parent], **assoc_values(c.item)}
                for c in self.by("~", "account")
            ],
        )
        # a moved account goes first under its new parent (slurmdbd's _move_account)
        nest.place_each_first(
            self.conn, [ids[c.name] for c in self.by("~", "account") if _moves(c)]
        )
        return ids

    def users(self) -> None:
        table = tables.user_account
        added = self.by("+", "user")
        known = set(self.conn.execute(select(table.c.name)).scalars()) if added else set()
        self.insert(
            table,
            [
                {"name": c.name, "admin_level": c.item.admin_level}
                for c in added
                if c.name not in known
            ],
        )
        self.execute(
            update(table).where(table.c.name == bindparam("b_name")),
            [
                {"b_name": c.name, "admin_level": c.item.admin_level}
                for c in [*self.by("~", "user"), *[c for c in added if c.name in known]]
            ],
        )

    def user_defaults(self, cid: int) -> None:
        """The changed users' default accounts, on this cluster only (a default is per
        cluster): new associations came flagged (:meth:`user_assocs`), these users' others
        here are set to match."""
        account, user = _T.c.account, _T.c.user
        self.execute(
            update(_T)
            .where(_T.c.cluster_id == cid, user == bindparam("b_user"))
            .values(is_default=account == bindparam("b_default")),
            [{"b_user": c.name, "b_default": c.item.default_account} for c in self.by("~", "user")],
            tick=False,
        )

    def user_assocs(self, cid: int, ids: dict[str, int]) -> None:
        """New user associations as sparse rows (:func:`assoc_values`), grouped by their
        columns: binding 8 parameters a row instead of 30 is most of the cost. Each group
        goes in by account (a stable sort: an account's users keep their order), the order
        of ``ix_association_key``: SQLite's index inserts then append instead of landing
        all over the tree, which halves their cost at 100,000 rows. The settings' columns
        are made once per kind of settings (a tree of 100,000 has a handful of kinds)."""
        kinds: dict[tuple, tuple[tuple[str, ...], tuple]] = {}
        groups: dict[tuple[str, ...], list[tuple]] = {}
        # one add call after the accounts': each account's new users first under it, in
        # the tree's order (users, then each user's associations)
        items = [c.item for c in self.by("+", "assoc")]
        user_order = {name: k for k, name in enumerate(self.spec.users)} if items else {}
        items = _one_run_per_parent(items, lambda i: ids[i[1].account], lambda i: user_order[i[0]])
        orders, _ = nest.call_orders(
            [ids[a.account] for _, a in items], nest.lowest(self.conn, cid) if items else 0
        )
        for (u, a), order in zip(items, orders):
            kind = None if a.limits else (a.shares, a.priority, a.default_qos, *a.qos)
            columns = kinds.get(kind) if kind is not None else None
            if columns is None:
                values = assoc_values(a, sparse=True)
                columns = (tuple(values), tuple(values.values()))
                if kind is not None:
                    kinds[kind] = columns
            default = a.account == self.spec.users[u].default_account
            groups.setdefault(columns[0], []).append(
                (cid, a.account, u, a.partition, ids[a.account], order, default, *columns[1])
            )
        for keys, rows in groups.items():
            rows.sort(key=itemgetter(1))
            self.insert_tuples(_T, (*_ASSOC_KEY, "nest_order", "is_default", *keys), rows)
        changed = self.by("~", "assoc")
        if not changed:
            return
        key_ids = {
            (u, acct, part or ""): aid
            for aid, u, acct, part in self.conn.execute(
                select(_T.c.id, _T.c.user, _T.c.account, _T.c.partition).where(
                    _T.c.cluster_id == cid, _T.c.user.is_not(None)
                )
            )
        }
        self.execute(
            update(_T).where(_T.c.id == bindparam("b_id")),
            [
                {"b_id": key_ids[(u, a.account, a.partition or "")], **assoc_values(a)}
                for u, a in (c.item for c in changed)
            ],
        )

    def remove_assocs(self) -> None:
        """The association rows the plan removes, and their usage."""
        for chunk in chunked(self.plan.removed_assoc_ids):
            self.conn.execute(delete(tables.usage).where(tables.usage.c.assoc_id.in_(chunk)))
            self.conn.execute(delete(_T).where(_T.c.id.in_(chunk)))
            self.tick(len(chunk))

    def removals(self, cid: int) -> None:
        """Once the new rows are in: accounts and users left without associations, QOS, ..."""
        from fscli.store.resources import delete_partition, delete_qos

        if self.plan.removed_assoc_ids:
            self.admin._drop_orphans()
        cluster = self.s.get(m.Cluster, cid)
        for change in self.by("-", "partition"):
            delete_partition(self.admin, cluster, change.name)
        for change in self.by("-", "qos"):
            delete_qos(self.admin, [change.name])
        keys = [c.name for c in self.by("-", "priority")]
        if keys:
            table = tables.config
            self.conn.execute(delete(table).where(table.c.cluster_id == cid, table.c.key.in_(keys)))

    def coordinators(self, cid: int) -> None:
        """The coordinators of the users the plan adds or changes, of this cluster's
        accounts: the rows of accounts only other clusters have are theirs, which the tree
        cannot name. A user the plan removes from this cluster keeps its (global)
        coordinator rows while it exists elsewhere: they go with the user row (ON DELETE
        CASCADE)."""
        users = [c for c in self.plan.changes if c.kind == "user" and c.op != "-"]
        if not users:
            return
        table = tables.coordinator
        # only those that have rows: 50,000 new users would be 56 IN lists of 900 to compile
        have = set(self.conn.execute(select(table.c.user).distinct()).scalars())
        here = select(_T.c.account).where(_T.c.cluster_id == cid, _T.c.user.is_(None))
        for chunk in chunked([c.name for c in users if c.name in have]):
            self.conn.execute(
                delete(table).where(table.c.user.in_(chunk), table.c.account.in_(here))
            )
        self.insert(
            table,
            [
                {"user": c.name, "account": account}
                for c in users
                for account in c.item.coordinator_of
            ],
            tick=False,
        )

    def log(self) -> None:
        """One history record per change, in bulk (:meth:`Admin.log_many`)."""
        cluster = self.spec.cluster.name
        verbs = {"+": "add", "~": "modify", "-": "delete"}
        self.admin.log_many(
            (
                f"{verbs[c.op]} {'association' if c.kind == 'assoc' else c.kind}",
                c.name if c.kind in ("qos", "priority") else f"{c.name}@{cluster}",
                *_logged(c),
            )
            for c in self.plan.changes
            if not (c.op == "-" and c.kind in ("qos", "partition"))
        )


def _logged(change) -> tuple:
    """A plan change's history (detail[, changes]): a modification keeps its old and new
    values, read as :mod:`fscli.store.audit` writes them (``-``: unset)."""
    if change.op != "~":
        return (change.detail(),)
    diff = [(k, None if o == "-" else o, None if n == "-" else n) for k, o, n in change.diff]
    return describe(diff), diff


def apply_plan(
    session,
    plan: Plan,
    now: int,
    actor: str,
    progress: Progress | None = None,
    check_default_qos: bool = True,
) -> None:
    """Write the plan (validated by :func:`make_plan`) and log every change.

    ``check_default_qos``: refuse a tree that leaves an association with a DefaultQOS
    outside its QOS list (as ``account``/``user`` commands do); ``load`` does not, since
    real sacctmgr dumps can hold such associations (sacctmgr 22.05 accepts them)."""
    if not plan.changes:
        return
    admin = Admin(session, now, actor)
    with stamped_once(session, _WRITTEN, len(plan.changes)):
        _Writer(session, plan, admin, progress).run()
    if check_default_qos and any(treediff.sets_qos(c) or _moves(c) for c in plan.changes):
        cluster = session.get(m.Cluster, cluster_id(session.connection(), plan.spec.cluster.name))
        root = session.scalar(
            select(_T.c.id).where(_T.c.cluster_id == cluster.id, _T.c.parent_id.is_(None))
        )
        admin.check_default_qos(cluster, [root])


def _one_run_per_parent(items: list, parent: Callable, place: Callable) -> list:
    """``items`` with each parent's together (parents in the order they first come),
    each parent's by ``place``: a file lists each parent's children in one section."""
    first: dict[Any, int] = {}
    for item in items:
        first.setdefault(parent(item), len(first))
    return sorted(items, key=lambda i: (first[parent(i)], place(i)))


def _moves(change: Change) -> bool:
    """Whether a change moves an account: its subtree then inherits another QOS list."""
    return change.op == "~" and any(key == "parent" for key, _, _ in change.diff)
