"""What-if: a ``limits set``-style change applied to plain data (never to the store), so
that a view (sshare, sprio, limits check) can answer "what if this were set".

The change is the one the real write takes (:class:`AssocChanges`, :class:`QosChanges`, a
partition's values), parsed by the same code; relative values
(:mod:`fscli.engine.relative`) are made absolute from each object's current value and read
by that same code, so a what-if refuses what the write would refuse.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from fscli.engine import qoslist
from fscli.engine.assoc_changes import AssocChanges, validate
from fscli.engine.assoc_changes import set_word as assoc_word
from fscli.engine.limits import definitions as limitdefs
from fscli.engine.limits.target import PARTITION, QOS, Target
from fscli.engine.model import SHARES_PARENT, Assoc, Partition, Qos
from fscli.engine.qos_changes import QosChanges, edited
from fscli.engine.qos_changes import set_word as qos_word
from fscli.engine.relative import Relative
from fscli.errors import InvalidValue, NotFound


@dataclass
class Change:
    """One ``--with``: its target, the change as the write takes it, and the settings
    given as relative values (key -> :class:`Relative`; their place in ``changes`` holds a
    placeholder that was only parsed)."""

    target: Target
    changes: Any
    relative: Mapping[str, Relative] = field(default_factory=dict)
    text: str = ""  # as given, for the output


def apply_change(
    assocs: list[Assoc],
    qos: list[Qos],
    partitions: list[Partition],
    change: Change,
    cluster: str | None = None,
    users: Collection[str] | None = None,
) -> None:
    """Apply ``change`` to the objects it names. Each changed object is replaced in its
    list by a changed copy: the objects themselves (which another answer may hold) stay
    as they were. ``cluster``: the associations' cluster, named as the write names it when
    the target names none of them. ``users``: the stored users among those the target
    names, if known: a user target naming another one is refused as the write refuses it
    (``user 'zed' does not exist``), before looking for its associations."""
    known_qos = {q.name for q in qos}
    target, changes = change.target, change.changes
    if target.kind == QOS:
        at = {q.name: k for k, q in enumerate(qos)}
        for name in target.qos:
            if name not in at:
                raise NotFound(f"QOS '{name}' does not exist")
            new = qos[at[name]] = copy.copy(qos[at[name]])
            _qos_whatif(new, _absolute(changes, change.relative, new))
        return
    if target.kind == PARTITION:
        k = next((k for k, p in enumerate(partitions) if p.name == target.partition), None)
        if k is None:
            raise NotFound(f"partition '{target.partition}' does not exist")
        if changes.get("qos") and changes["qos"] not in known_qos:
            raise NotFound(f"QOS '{changes['qos']}' does not exist")
        part = partitions[k] = copy.copy(partitions[k])
        for key, value in changes.items():
            setattr(part, key, value)
        return
    if users is not None and target.user is not None and target.user not in users:
        raise NotFound(f"user '{target.user}' does not exist")
    found = [k for k, a in enumerate(assocs) if target.matches(a)]
    if not found:
        raise NotFound(target.missing() if cluster is None else target.not_on(cluster))
    for k in found:
        assoc = assocs[k] = copy.copy(assocs[k])
        _assoc_whatif(assoc, _absolute(changes, change.relative, assoc), known_qos)


_CURRENT = {"fairshare": "shares", "priority": "priority", "usagefactor": "usage_factor"}


def _absolute(changes: Any, relative: Mapping[str, Relative], obj: Assoc | Qos) -> Any:
    """``changes`` with each relative value made absolute from ``obj``'s current value and
    read as the write reads it."""
    if not relative:
        return changes
    changes = copy.deepcopy(changes)
    for key, rel in relative.items():
        current = getattr(obj, _CURRENT[key])
        if current == SHARES_PARENT and key == "fairshare":
            raise InvalidValue(f"fairshare={rel.text()}: the shares are 'parent', not a number")
        whole = key != "usagefactor"
        text = rel.applied(current or 0, whole)
        word = qos_word if isinstance(changes, QosChanges) else assoc_word
        word(changes, key, "=", text)
    return changes


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
    if changes.shares is not None:
        assoc.shares = SHARES_PARENT if changes.shares == "parent" else int(changes.shares)
    if changes.priority is not None:
        assoc.priority = None if changes.priority is limitdefs.CLEAR else changes.priority
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
