"""What a command changes on an association: shares, priority, QOS list, default QOS, limits.

The command line parses sacctmgr words into an :class:`AssocChanges`; Python callers give
the same settings as keywords (:func:`from_settings`). The store validates it against what
exists and writes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fscli.engine import treespec
from fscli.engine.limits import definitions as limitdefs
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
            parts.append(f"{name}={limitdefs.change_text(limitdefs.named(name), value)}")
        return parts


def parse_shares(text: str) -> int | str:
    """A command's FairShare: ``parent`` (the word), or a number as
    :func:`fscli.engine.treespec.parse_shares` reads it; -1 resets to the default 1 (as
    sacctmgr)."""
    if str(text).strip() == "-1":
        return 1
    value = treespec.parse_shares(text)
    return "parent" if value == SHARES_PARENT else value


def parse_priority(text: str) -> Any:
    return limitdefs.parse_limit(
        limitdefs.LimitDef("Priority", "priority", "count", frozenset()), text
    )


def set_word(changes: AssocChanges, key: str, op: str, text: str) -> None:
    """Read one sacctmgr word (``fairshare=40``, ``qos+=high``, ``GrpTRES=cpu=512``) into
    ``changes``; ``key`` is a canonical key (``fairshare``, ``priority``, ``qos``,
    ``defaultqos``) or a limit's name. Only QOS lists take ``+=``/``-=``."""
    if op != "=" and key != "qos":
        raise InvalidValue(f"'{key}{op}' is not allowed: only qos+= and qos-=")
    text = str(text).strip()
    if key == "fairshare":
        changes.shares = parse_shares(text)
    elif key == "priority":
        changes.priority = parse_priority(text)
    elif key == "qos":
        names = [] if text == "-1" else [q.strip().lower() for q in text.split(",") if q.strip()]
        changes.qos = QosEdit(op, names)
    elif key == "defaultqos":
        changes.default_qos = "" if text == "-1" else text.lower()
    else:
        defn = limitdefs.lookup(key)
        if defn is None:  # a QOS-only limit is refused by the store, as sacctmgr words are
            known = ", ".join(KEYWORDS)
            raise InvalidValue(f"unknown association setting '{key}' (known: {known}, limits)")
        changes.limits[defn.name] = limitdefs.parse_limit(defn, text)


KEYWORDS = {
    "fairshare": ("fairshare", "="),
    "priority": ("priority", "="),
    "qos": ("qos", "="),
    "qos_add": ("qos", "+="),
    "qos_remove": ("qos", "-="),
    "default_qos": ("defaultqos", "="),
}


def from_settings(**settings: Any) -> AssocChanges:
    """The changes Python keywords ask for, read as the same sacctmgr words would be:
    ``fairshare`` (a number or ``"parent"``), ``priority``, ``qos`` (a list or ``"a,b"``:
    the new list), ``qos_add``/``qos_remove`` (``qos+=``/``qos-=``), ``default_qos``, and
    any association limit by its Slurm name (``MaxJobs=10``, ``GrpTRES={"cpu": 512}`` or
    ``"cpu=512"``, ``MaxWall="2-0"``). ``None`` or ``-1`` clears a setting."""
    changes = AssocChanges()
    for name, value in settings.items():
        key, op = KEYWORDS.get(name, (name, "="))
        if key == "qos" and changes.qos is not None:
            raise InvalidValue("give one of qos, qos_add and qos_remove")
        set_word(changes, key, op, word(value))
    return changes


def word(value: Any) -> str:
    """A keyword's value as the word sacctmgr would read: None clears, a list is a comma
    list, a TRES mapping is ``cpu=512,mem=4G``."""
    if value is None:
        return "-1"
    if isinstance(value, dict):
        return ",".join(f"{k}={word(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple, set)):
        return ",".join(str(v) for v in value)
    return str(value).strip()


def validate(changes: AssocChanges, known_qos: set[str]) -> None:
    """Every QOS named exists and every limit is an association limit."""
    # a list set with ``=`` may hold signed items (``qos=a qos+=b`` in one sacctmgr add)
    names = [n.lstrip("+-") for n in changes.qos.names] if changes.qos else []
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
