"""Read ``sacctmgr -P show qos format=...`` output into each QOS's settings.

Columns are found by their titles (``Name``, ``Descr``, ``Flags``, ``GraceTime``,
``Priority``, ``UsageFactor``, ``LimitFactor``, ``UsageThres`` and the limits, titled as
sacctmgr abbreviates them: ``GrpSubmit``, ``MaxTRESPU``, ``MaxWall``...), so a capture
with fewer or more columns, of any version, gives what it holds. Every value is read as
the same sacctmgr word would be (:func:`fscli.engine.qos_changes.set_word`); an empty cell
is "not set". Preempt (the QOS preempted), PreemptMode, PreemptExemptTime and
MinPrioThres(hold) go to the QOS's preemption columns. Columns fscli does not model that
hold a value (the accrue and run-minutes-per-user limits) are named in
:attr:`QosSettings.unread`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.qos_changes import QosChanges, set_word
from fscli.errors import FscliError, InvalidValue

_VALUES = {
    "descr": "description",
    "flags": "flags",
    "gracetime": "gracetime",
    "priority": "priority",
    "usagefactor": "usagefactor",
    "limitfactor": "limitfactor",
    "usagethres": "usagethreshold",
}
_PREEMPTION = {
    "preempt": "preempt",
    "preemptmode": "preempt_mode",
    "preemptexempttime": "preempt_exempt_time",
    "minpriothres": "min_prio_thresh",
    "minpriothreshold": "min_prio_thresh",
}
"""Titles of the preemption settings (not ``set_word`` keys: sacctmgr's own words) and
their QOS columns."""
_MODES = frozenset({"off", "cancel", "gang", "requeue", "suspend", "within"})
_SKIPPED = frozenset({"name", "id"})
_DEFAULTS = frozenset({"", "cluster", "00:00:00"})  # unset, PreemptMode's and times' default


@dataclass
class QosSettings:
    """Each QOS's settings by name, and the columns left unread."""

    qos: dict[str, QosChanges] = field(default_factory=dict)
    unread: list[str] = field(default_factory=list)


def parse_show_qos(text: str) -> QosSettings:
    """See the module docstring; a bad value raises :class:`InvalidValue` naming its line
    and column."""
    lines = [line for line in text.splitlines() if line.strip()]
    result = QosSettings()
    if not lines:
        return result
    titles = lines[0].rstrip("|").split("|")
    if "Name" not in titles:
        raise InvalidValue("sacctmgr show qos output without a Name column")
    keys = [_key(title) for title in titles]
    unread: set[str] = set()
    for number, line in enumerate(lines[1:], 2):
        cells = line.rstrip("|").split("|")
        row = dict(zip(titles, cells))
        unread |= {
            t
            for t, k in zip(titles, keys)
            if k is None and t.lower() not in _SKIPPED and row.get(t, "") not in _DEFAULTS
        }
        changes = QosChanges()
        for title, key in zip(titles, keys):
            value = row.get(title, "")
            if key is None or not value:
                continue
            try:
                if key in _PREEMPTION.values():
                    _preemption(changes, key, value)
                else:
                    set_word(changes, key, "=", value)
            except FscliError as exc:
                raise InvalidValue(f"line {number}, {title}: {exc.message}") from None
        result.qos[row["Name"].lower()] = changes
    result.unread = [t for t in titles if t in unread]
    return result


def _preemption(changes: QosChanges, column: str, value: str) -> None:
    """One preemption cell as sacctmgr lists it into ``changes`` (PreemptMode ``cluster``,
    the cluster's mode, is stored as None)."""
    from fscli.engine.timestr import parse_duration_secs

    if column == "preempt":
        changes.preempt = [name.lower() for name in value.split(",") if name]
    elif column == "preempt_mode":
        modes = value.lower().split(",")
        if modes != ["cluster"] and not set(modes) <= _MODES:
            raise InvalidValue(f"unknown preempt mode '{value}'")
        changes.values[column] = None if modes == ["cluster"] else value.lower()
    elif column == "preempt_exempt_time":
        changes.values[column] = parse_duration_secs(value, "PreemptExemptTime")
    elif not value.isdigit():
        raise InvalidValue(f"MinPrioThreshold must be a whole number, not '{value}'")
    else:
        changes.values[column] = int(value)


def _key(title: str) -> str | None:
    """The ``set_word`` key of a column title (or its preemption column), None for a
    column fscli does not read."""
    low = title.lower()
    if low in _VALUES:
        return _VALUES[low]
    if low in _PREEMPTION:
        return _PREEMPTION[low]
    if low in _SKIPPED:
        return None
    defn = limitdefs.lookup(title)
    return defn.name if defn is not None else None
