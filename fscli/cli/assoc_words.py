"""Turning parsed words into association changes (shared by account, user and limits)."""

from __future__ import annotations

from fscli.cli.words import Words, split_list
from fscli.engine import limitdefs
from fscli.errors import UsageProblem
from fscli.store.assoc_fields import AssocChanges, QosEdit, parse_priority, parse_shares

ASSOC_VALUE_KEYS = {
    "fairshare": ("shares",),
    "priority": (),
    "qos": ("qoslevel",),
    "defaultqos": ("defqos",),
}


def assoc_changes(words: Words, command: str) -> AssocChanges:
    """Association settings among the words' values (fairshare, priority, qos, limits)."""
    changes = AssocChanges()
    for key, word in words.values.items():
        if word.op != "=" and key != "qos":
            raise UsageProblem(
                f"'{key}{word.op}' is not allowed in {command}: only qos+= and qos-="
            )
        if key == "fairshare":
            changes.shares = parse_shares(word.value)
        elif key == "priority":
            changes.priority = parse_priority(word.value)
        elif key == "qos":
            names = (
                [] if word.value.strip() == "-1" else [q.lower() for q in split_list(word.value)]
            )
            changes.qos = QosEdit(word.op, names)
        elif key == "defaultqos":
            changes.default_qos = "" if word.value.strip() == "-1" else word.value.strip().lower()
        else:
            defn = limitdefs.lookup(key)
            if defn is not None:
                changes.limits[defn.name] = limitdefs.parse_limit(defn, word.value)
    return changes
