"""Association settings as columns: limits and QOS lists between the engine's values and
the association table's columns.

:func:`apply_changes` writes an :class:`~fscli.engine.assoc_changes.AssocChanges` onto an
association row (ORM) after ``AssocChanges``' :func:`~fscli.engine.assoc_changes.validate`
checked it against the store's QOS.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fscli.engine import tres as tresmod
from fscli.engine.limits import definitions as limitdefs

if TYPE_CHECKING:  # the write path's: snapshot reads import this module too
    from fscli.engine.assoc_changes import AssocChanges


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


LIMIT_COLUMNS = tuple(d.attr for d in limitdefs.ASSOC_LIMITS)
ANY_LIMIT = " OR ".join(f"{name} IS NOT NULL" for name in LIMIT_COLUMNS)
"""The associations that set a limit (few do: most inherit theirs): the partial index
``ix_association_limits`` (migration 0006) holds just those rows, so that the read of the
limits visits them alone. A query uses that index only if its condition holds this very
expression: the read and the index share this string."""

TREE_INDEX = (
    "parent_id",
    "id",
    "cluster_id",
    "account",
    "user",
    "partition",
    "shares_parent",
    "shares_raw",
    "priority",
)
"""The columns of ``ix_association_tree`` (migration 0007, SQLite only): the association
rows in (parent, id) order, with every column the fair-share read takes
(:func:`fscli.store.snapshot.load_assocs` without settings), so that the read walks the
index and neither sorts nor visits the table."""

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
        change_limit(row, limitdefs.named(name), value)


def change_limit(row: Any, defn: limitdefs.LimitDef, value: Any) -> None:
    """Apply a parsed limit change (a value, ``CLEAR`` or a TRES edit) to a row's column."""
    old = loaded_limit(defn, getattr(row, defn.attr))
    setattr(row, defn.attr, stored_limit(defn, limitdefs.apply_change(defn, old, value)))
