"""sacctmgr 22.05's text, byte for byte: fixed-width tables, parsable lines, value formats.

``fscli sacctmgr`` promises scripts written for real sacctmgr the same bytes, so this
module follows Slurm's ``print_fields`` rather than fscli's own tables: every cell is
padded to its column's width (right-justified, or left for a negative width) and
followed by one space; a value longer than its column is cut and ends in ``+``; a title
is cut without a mark. ``-p`` ends every field with ``|``, ``-P`` puts ``|`` between
fields. Memory is shown as Slurm's ``convert_num_unit`` prints it (``62.50G``), which
differs from fscli's lossless ``64000M``: a view, never what fscli writes to files.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.timestr import format_mins
from fscli.engine.tres import is_mb_based, tres_order

UNITS = "MGTPE"


class Column(NamedTuple):
    """One output field: its title and width (negative: left-justified); ``cut``: a
    value too long is cut (Slurm's strings), else printed whole (its numbers, ``%*u``).
    A NamedTuple: 0.1 ms to make at import, a frozen dataclass 0.5."""

    title: str
    width: int
    cut: bool = True


def fixed_cell(text: str, width: int, cut: bool = True) -> str:
    """A value padded to ``width``; one too long is cut to ``width - 1`` and a ``+``
    (unless not ``cut``: then it overflows the column)."""
    size = abs(width)
    if cut and len(text) > size:
        text = text[: size - 1] + "+"
    return text.ljust(size) if width < 0 else text.rjust(size)


def title_cell(title: str, width: int) -> str:
    size = abs(width)
    text = title[:size]
    return text.ljust(size) if width < 0 else text.rjust(size)


def table(
    columns: Sequence[Column],
    rows: Iterable[Sequence[str]],
    parsable: str | None,
    header: bool = True,
) -> str:
    """The whole listing: header (unless ``-n``), then one line per row."""
    lines: list[str] = []
    if parsable:
        end = "|" if parsable == "p" else ""
        if header:
            lines.append("|".join(c.title for c in columns) + end)
        lines += ["|".join(row) + end for row in rows]
    else:
        if header:
            lines.append("".join(title_cell(c.title, c.width) + " " for c in columns))
            lines.append("".join("-" * abs(c.width) + " " for c in columns))
        lines += [
            "".join(fixed_cell(v, c.width, c.cut) + " " for c, v in zip(columns, row))
            for row in rows
        ]
    return "".join(line + "\n" for line in lines)


def mem_text(mb: int) -> str:
    """Megabytes as Slurm shows them: divided by 1024 while it can, two decimals if not
    whole (``1000M``, ``2G``, ``62.50G``)."""
    value = float(mb)
    unit = 0
    while value >= 1024 and unit < len(UNITS) - 1:
        value /= 1024
        unit += 1
    if value == int(value):
        return f"{int(value)}{UNITS[unit]}"
    return f"{value:.2f}{UNITS[unit]}"


def tres_text(tres: dict[str, int] | None, units: bool = True) -> str:
    """A TRES limit in Slurm's TRES-id order, memory with Slurm's units."""
    if not tres:
        return ""
    return ",".join(
        f"{name}={mem_text(tres[name]) if units and is_mb_based(name) else tres[name]}"
        for name in tres_order(tres)
    )


def limit_text(name: str, value: Any) -> str:
    """One association/QOS limit value as sacctmgr prints it ("" when unset)."""
    if value is None:
        return ""
    kind = limitdefs.lookup(name).kind  # type: ignore[union-attr]
    if kind in ("tres", "tres_mins"):
        return tres_text(value, units=kind == "tres")
    if kind == "minutes":
        return format_mins(value)
    return str(value)


# The "Settings" lines of add account / add user (sacctmgr_print_assoc_limits), in order.
SETTING_LINES = (
    ("GrpJobs", "  GrpJobs       = "),
    ("GrpJobsAccrue", "  GrpJobsAccrue            = "),
    ("GrpSubmitJobs", "  GrpSubmitJobs = "),
    ("GrpTRES", "  GrpTRES       = "),
    ("GrpTRESMins", "  GrpTRESMins   = "),
    ("GrpTRESRunMins", "  GrpTRESRunMins= "),
    ("GrpWall", "  GrpWall       = "),
    ("MaxJobs", "  MaxJobs       = "),
    ("MaxJobsAccrue", "  MaxJobsPrioAcc= "),
    ("MaxSubmitJobs", "  MaxSubmitJobs = "),
    ("MaxTRESPerJob", "  MaxTRES       = "),
    ("MaxTRESPerNode", "  MaxTRESPerNode= "),
    ("MaxTRESMinsPerJob", "  MaxTRESMins   = "),
    ("MaxTRESRunMins", "  MaxTRESRUNMins= "),
    ("MaxWallDurationPerJob", "  MaxWall       = "),
    ("MinPrioThreshold", "  MinPrioThresh = "),
)


def mem_exact(mb: int) -> str:
    """Megabytes as ``convert_num_unit`` with ``CONVERT_NUM_UNIT_EXACT`` prints them: a
    larger unit while the whole amount divides by 512 (half units are exact enough:
    ``64000`` is ``62.50G``, ``1500`` stays ``1500M``)."""
    value = float(mb)
    unit = 0
    while value >= 1024 and int(value) % 512 == 0 and unit < len(UNITS) - 1:
        value /= 1024
        unit += 1
    if value == int(value):
        return f"{int(value)}{UNITS[unit]}"
    return f"{value:.2f}{UNITS[unit]}"


def setting_tres(name: str, value: dict[str, int]) -> str:
    """A TRES setting as an add prints it: cleared TRES as ``NONE``, memory exact."""
    kind = limitdefs.lookup(name).kind  # type: ignore[union-attr]
    return ",".join(
        f"{t}="
        + (
            "NONE"
            if value[t] < 0
            else mem_exact(value[t])
            if kind == "tres" and is_mb_based(t)
            else str(value[t])
        )
        for t in tres_order(value)
    )


def settings_lines(
    shares: int | str | None,
    limits: dict[str, Any],
    parent: str | None,
    priority: Any,
    qos: list[str] | None,
    default_qos: str | None,
) -> str:
    """What an add prints under `` Settings`` (``sacctmgr_print_assoc_limits``): each value
    given, cleared ones as NONE; ``qos`` as given (``+name`` for ``qos+=``)."""
    out = []
    if shares is not None:
        out.append(f"  Fairshare     = {'NONE' if shares is limitdefs.CLEAR else shares}")
    for name, label in SETTING_LINES:
        if name in limits:
            value = limits[name]
            if value is limitdefs.CLEAR:
                text = "None" if name == "GrpJobsAccrue" else "NONE"
            elif isinstance(value, dict):
                text = setting_tres(name, value)
            else:
                text = limit_text(name, value)
            out.append(label + text)
    if parent is not None:
        out.append(f"  Parent        = {parent}")
    if priority is not None:
        shown = "NONE" if priority is limitdefs.CLEAR else str(priority)
        out.append(f"  Priority      = {shown}")
    if qos is not None:
        out.append(f"  QOS           = {','.join(sorted(q for q in qos if q))}")
    if default_qos is not None:
        out.append(f"  DefQOS        = {default_qos or '(null)'}")
    return "".join(line + "\n" for line in out)
