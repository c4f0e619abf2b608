"""Turning parsed words into association changes (shared by account, user and limits)."""

from __future__ import annotations

from fscli.cli.words import Words
from fscli.engine.assoc_changes import AssocChanges, set_word
from fscli.engine.limits import definitions as limitdefs
from fscli.errors import UsageProblem

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
        if key in ASSOC_VALUE_KEYS or limitdefs.lookup(key) is not None:
            set_word(changes, key, word.op, word.value)
    return changes
