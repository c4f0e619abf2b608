"""``limits check --with``: a ``limits set`` change applied to the checker's plain data
(never to the store), so that a check can answer "what if this limit were set"."""

from __future__ import annotations

from typing import Any

from fscli.engine import qoslist
from fscli.engine.assoc_changes import AssocChanges, validate
from fscli.engine.limits import definitions as limitdefs
from fscli.engine.limits.check import LimitsState
from fscli.engine.limits.target import PARTITION, QOS, Target
from fscli.engine.model import Assoc, Qos
from fscli.engine.qos_changes import QosChanges, edited
from fscli.errors import NotFound


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
        defn = limitdefs.named(name)
        value = limitdefs.apply_change(defn, limits.get(name), change)
        if value is None:
            limits.pop(name, None)
        else:
            limits[name] = value


def _assoc_whatif(assoc: Assoc, changes: AssocChanges, known_qos: set[str]) -> None:
    validate(changes, known_qos)
    assoc.limits = dict(assoc.limits)
    _limits_whatif(assoc.limits, changes.limits)
    if changes.qos is not None:
        assoc.qos = tuple(qoslist.edit(assoc.qos, changes.qos.op, changes.qos.names))
    if changes.default_qos is not None:
        assoc.default_qos = changes.default_qos or None


def _qos_whatif(qos: Qos, changes: QosChanges) -> None:
    for key, value in changes.values.items():
        if hasattr(qos, key):  # not description
            setattr(qos, key, value)
    if changes.flags is not None:
        qos.flags = frozenset(edited(sorted(qos.flags), *changes.flags))
    qos.limits = dict(qos.limits)
    _limits_whatif(qos.limits, changes.limits)
