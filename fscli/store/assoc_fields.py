"""Association settings shared by accounts and users: shares, priority, QOS list, limits.

The CLI parses words into an :class:`AssocChanges`; :func:`apply_changes` writes them onto
an association row (ORM) after :func:`validate_changes` checked them against the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fscli.engine import limitdefs
from fscli.engine import tres as tresmod
from fscli.engine.model import SHARES_PARENT
from fscli.errors import InvalidValue, NotFound


@dataclass
class QosEdit:
    op: str  # "=", "+=", "-="
    names: list[str]


@dataclass
class AssocChanges:
    shares: int | str | None = None  # int, "parent", or None = unchanged
    priority: Any = None  # int, limitdefs.CLEAR, or None
    qos: QosEdit | None = None
    default_qos: str | None = None  # "" clears
    limits: dict[str, Any] = field(default_factory=dict)  # canonical name -> parsed value

    def empty(self) -> bool:
        return (
            self.shares is None
            and self.priority is None
            and self.qos is None
            and self.default_qos is None
            and not self.limits
        )

    def touches_qos(self) -> bool:
        return self.qos is not None or self.default_qos is not None

    def describe(self) -> list[str]:
        parts = []
        if self.shares is not None:
            parts.append(f"fairshare={self.shares}")
        if self.priority is not None:
            parts.append(f"priority={'-1' if self.priority is limitdefs.CLEAR else self.priority}")
        if self.qos is not None:
            parts.append(f"qos{self.qos.op}{','.join(self.qos.names)}")
        if self.default_qos is not None:
            parts.append(f"defaultqos={self.default_qos or '-1'}")
        for name, value in self.limits.items():
            defn = limitdefs.lookup(name)
            if value is limitdefs.CLEAR:
                parts.append(f"{name}=-1")
            elif defn.kind in ("tres", "tres_mins"):
                parts.append(
                    f"{name}="
                    + ",".join(
                        f"{k}={'-1' if v == tresmod.CLEAR else tresmod.format_value(k, v, defn.kind == 'tres')}"
                        for k, v in value.items()
                    )
                )
            else:
                parts.append(f"{name}={limitdefs.format_limit(defn, value)}")
        return parts


def parse_shares(text: str) -> int | str:
    """A command's FairShare: ``parent`` (the word), or a number as
    :func:`fscli.engine.treespec.parse_shares` reads it; -1 resets to the default 1 (as
    sacctmgr)."""
    if str(text).strip() == "-1":
        return 1
    from fscli.engine import treespec

    value = treespec.parse_shares(text)
    return "parent" if value == SHARES_PARENT else value


def parse_priority(text: str) -> Any:
    return limitdefs.parse_limit(
        limitdefs.LimitDef("Priority", "priority", "count", frozenset()), text
    )


def stored_limit(defn: limitdefs.LimitDef, value: Any) -> Any:
    """Engine value → column value (TRES dicts as canonical text)."""
    if value is None:
        return None
    if defn.kind in ("tres", "tres_mins"):
        return tresmod.format_tres(value, units=False)
    return value


def loaded_limit(defn: limitdefs.LimitDef, column: Any) -> Any:
    """Column value → engine value."""
    if column is None:
        return None
    if defn.kind in ("tres", "tres_mins"):
        return tresmod.parse_tres(column)
    return int(column)


def loaded_limits(defs, columns) -> dict[str, Any]:
    """A row's limit columns (in ``defs`` order) → ``{name: engine value}`` of those set."""
    if columns.count(None) == len(columns):  # most rows set no limit
        return {}
    return {d.name: loaded_limit(d, v) for d, v in zip(defs, columns) if v is not None}


def qos_list(text: str | None) -> list[str]:
    return [q for q in (text or "").split(",") if q]


def edited(current: list[str], op: str, names: list[str]) -> list[str]:
    """A name list (QOS, flags) after ``=``, ``+=`` (appended, no repeats) or ``-=``."""
    if op == "=":
        return list(names)
    if op == "+=":
        return current + [n for n in names if n not in current]
    return [n for n in current if n not in names]


def validate_changes(changes: AssocChanges, known_qos: set[str]) -> None:
    names = list(changes.qos.names) if changes.qos else []
    if changes.default_qos:
        names.append(changes.default_qos)
    for name in names:
        if name not in known_qos:
            raise NotFound(
                f"QOS '{name}' does not exist (known: {', '.join(sorted(known_qos)) or 'none'})"
            )
    for name in changes.limits:
        defn = limitdefs.lookup(name)
        if defn is None or limitdefs.ASSOC not in defn.scopes:
            raise InvalidValue(f"{name} is a QOS limit, not an association limit")


ASSOC_SETTINGS = (
    "shares_raw",
    "shares_parent",
    "priority",
    "qos",
    "default_qos",
    *(d.attr for d in limitdefs.ASSOC_LIMITS),
)
"""The association columns :func:`apply_changes` may write."""


def apply_changes(row, changes: AssocChanges) -> bool:
    """Write the changes onto an association row (validated before); whether any column
    now holds another value (setting a value to what it is changes nothing)."""
    before = [getattr(row, attr) for attr in ASSOC_SETTINGS]
    _write_changes(row, changes)
    return before != [getattr(row, attr) for attr in ASSOC_SETTINGS]


def _write_changes(row, changes: AssocChanges) -> None:
    if changes.shares is not None:
        if changes.shares == "parent":
            row.shares_raw, row.shares_parent = None, True
        else:
            row.shares_raw, row.shares_parent = int(changes.shares), False
    if changes.priority is not None:
        row.priority = None if changes.priority is limitdefs.CLEAR else changes.priority
    if changes.qos is not None:
        from fscli.engine import qoslist

        row.qos = (
            ",".join(qoslist.edit(qos_list(row.qos), changes.qos.op, changes.qos.names)) or None
        )
    if changes.default_qos is not None:
        row.default_qos = changes.default_qos or None
    for name, value in changes.limits.items():
        defn = limitdefs.lookup(name)
        old = loaded_limit(defn, getattr(row, defn.attr))
        setattr(row, defn.attr, stored_limit(defn, limitdefs.apply_change(defn, old, value)))
