"""The transaction ``fscli sacctmgr``'s changes are planned and committed in.

A sacctmgr write is planned, shown, then committed or discarded: sacctmgr prints what it
is about to change and asks ``Would you like to commit changes?``. :func:`change` is that
shape for the API: it opens one store transaction, lets the front end plan in it through
a :class:`SacctmgrWrites` (the native commands' :class:`~fscli.api.writes.Writes`, checking
only what slurmdbd checks, plus the reads a plan needs and the few writes that only
sacctmgr's dialect makes), records slurmdbd's transaction rows for what changed (old
against new state), and commits only when the front end's ``decide`` says yes. Anything
raised while planning rolls the whole transaction back: nothing half-written.

Inside a change, the front end asks for a plan (``tx.plan_add_users(...)``,
``tx.plan_delete_accounts(...)``, ``tx.plan_modify_qos(...)``, ``tx.plan_load(...)``: the
dataclasses of :mod:`~fscli.api.add_plans`, :mod:`~fscli.api.delete_plans`,
:mod:`~fscli.api.modify_plans`, :mod:`~fscli.api.qos_plans`, or a tree's ``Plan``), says
it and its refusals (with codes) in sacctmgr's words, and hands it to ``tx.commit(plan)``,
which writes it through the same ``Writes`` methods the native commands use
(``add_account``, ``modify_user``, ``delete_qos`` ...): slurmdbd's rules live in the plans,
the store's in its one writer, and no front end repeats either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from fscli.api import add_plans, coordinator_plans, delete_plans, modify_plans, qos_plans
from fscli.api.writes import Writes

if TYPE_CHECKING:
    from fscli.api.store import Store
    from fscli.engine.treediff import Plan
    from fscli.engine.treespec import TreeSpec
    from fscli.store.sacctmgr_queries import AssocView
    from fscli.store.usage_admin import UsageAdmin

AssocKey = tuple[str, str, "str | None", "str | None"]
"""An association as sacctmgr's adds list it: (cluster, account, user, partition)."""


class _Discarded(Exception):
    """The front end's answer was not yes: roll the transaction back."""


def change(
    store: Store,
    at: int,
    kind: tuple[str, str] | None,
    plan: Callable[[SacctmgrWrites], None],
    decide: Callable[[], bool],
) -> bool:
    """Plan a change with ``plan(tx)`` in one transaction recorded at ``at``, then commit
    it when ``decide()`` says yes; whether it was committed. ``kind``: the (verb, entity)
    of a sacctmgr write (its slurmdbd transaction rows are found by comparing the store
    before and after; None writes none, as ``load``). An exception from ``plan`` rolls
    everything back and goes on to the caller."""
    try:
        with _transaction(store, at, kind) as tx:
            plan(tx)
            tx.seal()
            if not decide():
                raise _Discarded
    except _Discarded:
        return False
    return True


@contextmanager
def _transaction(store: Store, at: int, kind: tuple[str, str] | None) -> Iterator[SacctmgrWrites]:
    from fscli.store.usage_admin import UsageAdmin

    with store.session() as session:
        yield SacctmgrWrites(UsageAdmin(session, at, store.actor, slurmdbd_rules=True), kind)


def cluster_names(conn: Any) -> list[str]:
    """The store's clusters, by name (a read outside a change: ``conn`` from
    ``Store.reading``)."""
    from fscli.store import sacctmgr_queries

    return sacctmgr_queries.cluster_names(conn)


def qos_rows(conn: Any) -> list[tuple[Any, int]]:
    """(QOS, id) in creation order (sacctmgr's g_qos_list); ``conn`` a read's or a
    change's."""
    from fscli.store import sacctmgr_queries

    return list(zip(sacctmgr_queries.qos_rows(conn), sacctmgr_queries.qos_ids(conn), strict=True))


class SacctmgrWrites(Writes):
    """One sacctmgr change being planned (see the module's docstring)."""

    def __init__(self, admin: UsageAdmin, kind: tuple[str, str] | None):
        super().__init__(admin)
        from fscli.store import slurmdbd_txn

        self.kind = kind
        self.default_given = False
        """An add user named DefaultAccount= (slurmdbd writes ``is_def=1`` only then)."""
        self._txns: list = []
        self._before = slurmdbd_txn.state(self._conn()) if kind else None

    def _conn(self) -> Any:
        return self._admin.s.connection()

    def _session(self) -> Any:
        return self._admin.s

    def seal(self) -> None:
        """The plan is complete: write slurmdbd's rows for what it changed."""
        from fscli.store import slurmdbd_txn

        if self._before is None or self.kind is None:
            return
        self._session().flush()
        after = slurmdbd_txn.state(self._conn())
        verb, entity = self.kind
        rows = slurmdbd_txn.diff_rows(
            verb, entity, self._before, after, self.now, self.default_given
        )
        slurmdbd_txn.record(self._session(), self.now, self._admin.actor, self._txns + rows)

    # -- reads a plan needs (as they stand inside the change) ---------------------------
    def cluster_names(self) -> list[str]:
        return cluster_names(self._conn())

    def accounts(self) -> dict[str, tuple[str, str]]:
        """Account name → (description, organization)."""
        from fscli.store import sacctmgr_queries

        return sacctmgr_queries.accounts(self._conn())

    def users(self) -> dict[str, tuple[str, str]]:
        from fscli.store import sacctmgr_queries

        return sacctmgr_queries.users(self._conn())

    def view(self, clusters: list[str] | None = None, own_only: bool = False) -> list[AssocView]:
        """The associations of ``clusters`` (all if None) as sacctmgr lists them."""
        from fscli.store import sacctmgr_queries

        self._session().flush()
        return sacctmgr_queries.load_view(self._conn(), clusters, own_only=own_only)

    def qos_rows(self) -> list[tuple[Any, int]]:
        """(QOS, id) in creation order (sacctmgr's g_qos_list)."""
        return qos_rows(self._conn())

    def qos_list(self) -> list[str]:
        """The QOS names in creation order."""
        return [q.name for q, _ in self.qos_rows()]

    def all_defaults(self) -> dict[tuple[str, str], str]:
        """(cluster, user) → the user's default account there."""
        from fscli.store import sacctmgr_queries

        return sacctmgr_queries.all_defaults(self._conn())

    def default_ids(self) -> set[int]:
        """The ids of the user associations flagged default (slurmdbd's ``is_def=1``)."""
        from fscli.store import sacctmgr_queries

        return sacctmgr_queries.default_ids(self._conn())

    # -- what only sacctmgr's dialect changes --------------------------------------------
    def coordinator_rows(self) -> dict[str, list[str]]:
        """User -> the accounts the coordinator table names for it (no sub-accounts), in
        the table's order: what a coordinator plan works on."""
        from fscli.store.tree_plan import read_coordinators

        return read_coordinators(self._conn())

    def write_coordinators(self, plan: coordinator_plans.CoordinatorChange) -> None:
        """A coordinator plan's pairs written (slurmdbd's transaction row for a remove)."""
        from fscli.store import sacctmgr_changes, slurmdbd_txn

        if plan.adding:
            sacctmgr_changes.add_coordinators(self._admin, plan.pairs)
        elif plan.pairs:
            sacctmgr_changes.remove_coordinators(self._admin, plan.pairs)
            self._txns.append(slurmdbd_txn.remove_coords(plan.users, plan.accounts))

    def place_added(self, calls: list[list[AssocKey]]) -> None:
        """The associations just added put where slurmdbd puts them, one list per call."""
        from fscli.store import sacctmgr_changes

        sacctmgr_changes.place_added(self._session(), calls)

    def place_first(self, cluster: str, account: str) -> None:
        """The account's association made the first child of its parent (a move's place)."""
        from fscli.store import sacctmgr_changes

        sacctmgr_changes.place_first(self._session(), cluster, account)

    @contextmanager
    def keeping_bare_records(
        self, users_gone: set[str] | None = None, accounts_gone: set[str] | None = None
    ) -> Iterator[None]:
        """Deletes inside keep the user and account records left without associations,
        as slurmdbd does, but for those deleted by name."""
        from fscli.store import sacctmgr_changes

        with sacctmgr_changes.keep_bare_records(
            self._session(), users_gone or set(), accounts_gone or set()
        ):
            yield

    def drop_users(self, names: list[str]) -> None:
        from fscli.store import sacctmgr_changes

        sacctmgr_changes.drop_users(self._session(), names)

    def drop_accounts(self, names: list[str]) -> None:
        from fscli.store import sacctmgr_changes

        sacctmgr_changes.drop_accounts(self._session(), names)

    def lose_defaults(self, before: dict[tuple[str, str], str]) -> None:
        """Users whose default account lost its association there keep no default."""
        from fscli.store import sacctmgr_changes

        sacctmgr_changes.lose_defaults(self._session(), before)

    def describe_new_qos(self, name: str, text: str) -> None:
        """A QOS just made given its description, unlogged (slurmdbd's ``normal``)."""
        from fscli.store.resources import describe_new_qos

        describe_new_qos(self._admin, name, text)

    # -- slurmdbd's rows for what a modify matched ---------------------------------------
    def note_modified(self, what: str, names: list[str], info: str) -> None:
        """A ``Modify Accounts``/``Users``/``QOS`` row for the records matched."""
        from fscli.store import slurmdbd_txn

        self._txns.append(slurmdbd_txn.modify_named(what, names, info))

    def note_modified_assocs(self, views: list[AssocView], info: str) -> None:
        """``Modify Associations`` rows for the associations matched."""
        from fscli.store import slurmdbd_txn

        self._txns += slurmdbd_txn.modify_assocs(views, info)

    # -- plans: worked out first, rendered by the front end, then committed --------------
    plan_add_clusters = add_plans.plan_clusters
    plan_add_qos = add_plans.plan_qos
    plan_add_accounts = add_plans.plan_accounts
    plan_add_users = add_plans.plan_users
    plan_delete_accounts = delete_plans.plan_accounts
    plan_delete_users = delete_plans.plan_users
    plan_modify_accounts = modify_plans.plan_accounts
    plan_modify_users = modify_plans.plan_users
    plan_modify_qos = qos_plans.plan_modify
    plan_delete_qos = qos_plans.plan_delete

    def plan_load(self, spec: TreeSpec, clean: bool = False) -> Plan:
        """What ``load`` of ``spec`` changes (QOS and partitions it names are added;
        ``clean``: the cluster's other associations go)."""
        from fscli.store.tree_plan import make_plan

        return make_plan(self._conn(), spec, create_missing=True, clean=clean)

    def commit(self, plan: Any) -> None:
        """Write a plan made in this change (it is final when the change is): one of
        the plans of :mod:`~fscli.api.add_plans`, :mod:`~fscli.api.delete_plans`,
        :mod:`~fscli.api.modify_plans`, :mod:`~fscli.api.qos_plans` and
        :mod:`~fscli.api.coordinator_plans`, or a tree's ``Plan`` (:meth:`plan_load`)."""
        write = _WRITERS.get(type(plan))
        if write is not None:
            write(self, plan)
            return
        from fscli.store.tree_sync import apply_plan

        apply_plan(self._session(), plan, self.now, self._admin.actor)


_WRITERS: dict[type, Callable[[SacctmgrWrites, Any], None]] = {
    add_plans.ClusterAdd: add_plans.commit_clusters,
    add_plans.QosAdd: add_plans.commit_qos,
    add_plans.AccountAdd: add_plans.commit_accounts,
    add_plans.UserAdd: add_plans.commit_users,
    coordinator_plans.CoordinatorChange: coordinator_plans.commit_coordinators,
    delete_plans.AccountDelete: delete_plans.commit_accounts,
    delete_plans.UserDelete: delete_plans.commit_users,
    qos_plans.QosModify: qos_plans.commit_modify,
    qos_plans.QosDelete: qos_plans.commit_delete,
    modify_plans.AccountModify: modify_plans.commit_accounts,
    modify_plans.UserModify: modify_plans.commit_users,
}
"""Each plan type's writer."""


def assoc_info(shares: Any, priority: Any, limits: dict[str, Any], is_def: bool = False) -> str:
    """slurmdbd's ``info`` text of a Modify Associations row."""
    from fscli.store import slurmdbd_txn

    return slurmdbd_txn.modify_assoc_info(shares, priority, limits, is_def)
