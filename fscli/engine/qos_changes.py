"""What a command changes on a QOS: its values (priority, factors, grace time,
description), its flags and its limits, parsed from sacctmgr words or Python keywords."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.treespec import QOS_RANGES, check_qos_number, parse_qos_flag
from fscli.errors import InvalidValue


def parse_flags(text: str) -> list[str]:
    """A comma list of QOS flags in their canonical spelling; ``-1`` clears them all."""
    flags = []
    for word in [w.strip() for w in str(text).split(",") if w.strip()]:
        if word == "-1":
            return []
        flags.append(parse_qos_flag(word))
    return flags


_FIELD_OF = {key: field_name for field_name, (key, _, _) in QOS_RANGES.items()}


def parse_float(key: str, text: str, clear: bool = False) -> float | None:
    """A QOS number (``key``: UsageFactor, LimitFactor or UsageThreshold) in its range
    (:func:`~fscli.engine.treespec.check_qos_number`); ``clear``: ``-1`` is None."""
    if clear and str(text).strip() == "-1":
        return None
    try:
        value = float(text)
    except ValueError:
        raise InvalidValue(f"invalid {key} '{text}': expected a number") from None
    return check_qos_number(_FIELD_OF[key], value, str(text))


@dataclass
class QosChanges:
    values: dict[str, Any] = field(default_factory=dict)  # column -> value
    flags: tuple[str, list[str]] | None = None  # (op, flags)
    limits: dict[str, Any] = field(default_factory=dict)
    # sacctmgr's Preempt= items: plain names (the first empties the list; "" adds none),
    # "+name" and "-name" (added to or taken from the list there is)
    preempt: list[str] | None = None

    def empty(self) -> bool:
        return not self.values and self.flags is None and not self.limits and self.preempt is None

    def describe(self) -> str:
        parts = [f"{k}={v}" for k, v in self.values.items()]
        if self.flags:
            parts.append(f"flags{self.flags[0]}{','.join(self.flags[1])}")
        for name, value in self.limits.items():
            parts.append(f"{name}={limitdefs.change_text(limitdefs.named(name), value)}")
        if self.preempt is not None:
            parts.append(f"preempt={','.join(self.preempt)}")
        return " ".join(parts)


def set_word(changes: QosChanges, key: str, op: str, text: str) -> None:
    """Read one sacctmgr word (``priority=100``, ``flags+=DenyOnLimit``,
    ``MaxJobsPerUser=10``) into ``changes``; ``key`` is a canonical key (``priority``,
    ``flags``, ``usagefactor``, ``limitfactor``, ``usagethreshold``, ``gracetime``,
    ``description``) or a limit's name. Only flags take ``+=``/``-=``."""
    from fscli.engine.assoc_changes import parse_priority
    from fscli.engine.timestr import parse_duration_secs

    if op != "=" and key != "flags":
        raise InvalidValue(f"'{key}{op}' is not allowed: only flags+= and flags-=")
    if key == "priority":
        prio = parse_priority(text)
        changes.values["priority"] = 0 if prio is limitdefs.CLEAR else prio
    elif key == "flags":
        changes.flags = (op, parse_flags(text))
    elif key == "usagefactor":  # a number, never None: -1 does not clear it (unset writes 1)
        changes.values["usage_factor"] = parse_float("UsageFactor", text)
    elif key == "limitfactor":
        changes.values["limit_factor"] = parse_float("LimitFactor", text, clear=True)
    elif key == "usagethreshold":
        changes.values["usage_threshold"] = parse_float("UsageThreshold", text, clear=True)
    elif key == "gracetime":
        changes.values["grace_time"] = parse_duration_secs(text, "GraceTime")
    elif key == "description":
        changes.values["description"] = text
    else:
        defn = limitdefs.lookup(key)
        if defn is None:
            raise InvalidValue(
                f"unknown QOS setting '{key}' (known: {', '.join(KEYWORDS)}, limits)"
            )
        changes.limits[defn.name] = limitdefs.parse_limit(defn, text)


KEYWORDS = {
    "priority": ("priority", "="),
    "flags": ("flags", "="),
    "flags_add": ("flags", "+="),
    "flags_remove": ("flags", "-="),
    "usage_factor": ("usagefactor", "="),
    "limit_factor": ("limitfactor", "="),
    "usage_threshold": ("usagethreshold", "="),
    "grace_time": ("gracetime", "="),
    "description": ("description", "="),
}


def from_settings(**settings: Any) -> QosChanges:
    """The changes Python keywords ask for, read as the same sacctmgr words would be
    (:data:`KEYWORDS`, or a QOS limit by its Slurm name, ``MaxTRESPerUser={"cpu": 64}``)."""
    from fscli.engine.assoc_changes import word

    changes = QosChanges()
    for name, value in settings.items():
        key, op = KEYWORDS.get(name, (name, "="))
        if key == "flags" and changes.flags is not None:
            raise InvalidValue("give one of flags, flags_add and flags_remove")
        set_word(changes, key, op, word(value))
    return changes


def edited(current: list[str], op: str, names: list[str]) -> list[str]:
    """A name list (QOS, flags) after ``=``, ``+=`` (appended, no repeats) or ``-=``."""
    if op == "=":
        return list(names)
    if op == "+=":
        return current + [n for n in names if n not in current]
    return [n for n in current if n not in names]


def preempted(current: list[str], items: list[str]) -> list[str]:
    """The QOS a QOS preempts after sacctmgr's ``Preempt=`` items, in their order, as
    slurmdbd reads them: the first plain name empties the list, ``-name`` takes one away,
    ``+name`` and a plain name add one ("" adds none). Sorted by name."""
    names = set(current)
    cleared = False
    for item in items:
        if item[:1] == "-":
            names.discard(item[1:])
        elif item[:1] == "+":
            names.add(item[1:])
        else:
            if not cleared:
                names, cleared = set(), True
            if item:
                names.add(item)
    return sorted(names)
