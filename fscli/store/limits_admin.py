"""Store side of ``fscli limits``: targets, writers, the checker's state and what-ifs.

A :class:`Target` names what a limit is set on: an association (the cluster's root, an
account, a user in an account, optionally in a partition), QOS, or a partition. Writes go
through the existing writers (:class:`~fscli.store.admin.Admin`,
:mod:`fscli.store.resources`), so validation and history are the same as for
``account``/``user``/``qos``/``partition modify``. :func:`apply_whatif` changes the
checker's plain data (:mod:`fscli.store.limit_state`) only, never the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fscli.engine import limitdefs
from fscli.engine.model import Assoc, Qos
from fscli.errors import NotFound

if TYPE_CHECKING:
    from fscli.engine.limit_check import LimitsState
    from fscli.store.assoc_fields import AssocChanges
    from fscli.store.resources import QosChanges

ASSOC = "assoc"
QOS = "qos"
PARTITION = "partition"


@dataclass
class Target:
    kind: str  # ASSOC, QOS or PARTITION
    cluster: str | None = None
    account: str | None = None  # "root" for the cluster's root association
    user: str | None = None
    partition: str | None = None
    qos: list[str] = field(default_factory=list)

    def describe(self) -> str:
        if self.kind == QOS:
            return f"QOS {','.join(self.qos)}"
        if self.kind == PARTITION:
            return f"partition {self.partition}"
        if self.user is None:
            return "the root association" if self.account == "root" else f"account {self.account}"
        return "a user association"

    def missing(self) -> str:
        """The error when an association target names none: ``no association for account
        chem``, ``... for user bob account chem partition gpu``."""
        if self.user is None:
            return f"no association for {self.describe()}"
        where = "".join(
            f" {key} {value}"
            for key, value in (("account", self.account), ("partition", self.partition))
            if value
        )
        return f"no association for user {self.user}{where}"

    def matches(self, assoc: Assoc) -> bool:
        if self.user is None:
            return assoc.user is None and assoc.account == self.account
        return (
            assoc.user == self.user
            and (self.account is None or assoc.account == self.account)
            and (self.partition is None or assoc.partition == self.partition)
        )


# -- writes -------------------------------------------------------------------------
def write(admin, cluster_name: str | None, target: Target, changes: Any) -> list[str]:
    """Apply validated changes to the store (inside the caller's transaction)."""
    from fscli.store.resources import modify_partition, modify_qos

    if target.kind == QOS:
        return modify_qos(admin, target.qos, changes)
    cluster = admin.cluster(target.cluster or cluster_name)
    if target.kind == PARTITION:
        return modify_partition(admin, cluster, target.partition, changes)
    if target.user is None:
        return admin.modify_accounts(cluster, [target.account], None, None, None, changes)
    return admin.modify_users(
        cluster, [target.user], target.account, target.partition, None, None, changes
    )


def default_account(conn, user: str) -> str | None:
    """The user's default account (what sbatch uses without ``-A``)."""
    from fscli.store.sql import scalar

    return scalar(
        conn, "SELECT default_account FROM user_account WHERE name = :name", {"name": user}
    )


# -- what-if ------------------------------------------------------------------------
def apply_whatif(state: LimitsState, target: Target, changes: Any) -> None:
    """Apply a ``limits set`` change to the loaded plain data (never to the store)."""
    known_qos = {q.name for q in state.qos}
    if target.kind == QOS:
        by_name = {q.name: q for q in state.qos}
        for name in target.qos:
            if name not in by_name:
                raise NotFound(f"QOS '{name}' does not exist")
            _qos_whatif(by_name[name], changes)
    elif target.kind == PARTITION:
        part = next((p for p in state.partitions if p.name == target.partition), None)
        if part is None:
            raise NotFound(f"partition '{target.partition}' does not exist")
        if changes.get("qos") and changes["qos"] not in known_qos:
            raise NotFound(f"QOS '{changes['qos']}' does not exist")
        for key, value in changes.items():
            setattr(part, key, value)
    else:
        found = [a for a in state.assocs if target.matches(a)]
        if not found:
            raise NotFound(target.missing())
        for assoc in found:
            _assoc_whatif(assoc, changes, known_qos)


def _limits_whatif(limits: dict[str, Any], new: dict[str, Any]) -> None:
    for name, change in new.items():
        defn = limitdefs.lookup(name)
        value = limitdefs.apply_change(defn, limits.get(name), change)
        if value is None:
            limits.pop(name, None)
        else:
            limits[name] = value


def _assoc_whatif(assoc: Assoc, changes: AssocChanges, known_qos: set[str]) -> None:
    from fscli.engine import qoslist
    from fscli.store.assoc_fields import validate_changes

    validate_changes(changes, known_qos)
    assoc.limits = dict(assoc.limits)
    _limits_whatif(assoc.limits, changes.limits)
    if changes.qos is not None:
        assoc.qos = tuple(qoslist.edit(assoc.qos, changes.qos.op, changes.qos.names))
    if changes.default_qos is not None:
        assoc.default_qos = changes.default_qos or None


def _qos_whatif(qos: Qos, changes: QosChanges) -> None:
    from fscli.store.assoc_fields import edited

    for key, value in changes.values.items():
        if hasattr(qos, key):
            setattr(qos, key, 1.0 if key == "usage_factor" and value is None else value)
    if changes.flags is not None:
        qos.flags = frozenset(edited(sorted(qos.flags), *changes.flags))
    qos.limits = dict(qos.limits)
    _limits_whatif(qos.limits, changes.limits)
