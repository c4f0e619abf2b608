"""sshare's columns and text formats, from :class:`fscli.engine.fairshare.ShareRow` rows.

* :func:`select_fields` resolves ``-o`` (case-insensitive prefixes in Slurm's field-table
  order, ``name%N`` widths) or the default short/long column sets per algorithm.
* :func:`render_text` prints Slurm's fixed-width table (header, dashes, ``%f`` doubles,
  blanks for unset values, strings cut with ``+``) or the parsable forms ``-p`` (``|``
  after every field) and ``-P`` (no trailing ``|``); ``header=False`` is ``-n``.
* :func:`json_rows` gives JSON-ready dicts (numbers as numbers, LevelFS infinity "inf").

The Account column is indented one space per depth below root (a user row is indented
one more than its account), also in parsable output, exactly as sshare prints it.
Rich tables are built by the CLI from the same rows and :func:`cell_values`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from fscli.engine.fairshare import ShareRow
from fscli.engine.model import SHARES_PARENT
from fscli.engine.tres import format_tres
from fscli.errors import InvalidValue

# (name, width): negative = left-justified. Order matters for -o prefix matching.
FIELD_TABLE: tuple[tuple[str, int], ...] = (
    ("Account", -20), ("Cluster", 10), ("EffectvUsage", 13), ("FairShare", 10),
    ("GrpTRESMins", 30), ("GrpTRESRaw", 30), ("ID", 6), ("LevelFS", 10),
    ("NormShares", 11), ("NormUsage", 11), ("Partition", 12), ("RawShares", 10),
    ("RawUsage", 11), ("TRESRunMins", 30), ("User", 10),
)
SHORT = ("Account", "User", "RawShares", "NormShares", "RawUsage", "EffectvUsage", "FairShare")
LONG = ("Account", "User", "RawShares", "NormShares", "RawUsage", "NormUsage", "EffectvUsage",
        "FairShare", "GrpTRESMins", "TRESRunMins")
LONG_FAIR_TREE = LONG[:8] + ("LevelFS",) + LONG[8:]
DEFAULT_TRES = ("cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages")
"""Slurm's always-tracked TRES, the names TRESRunMins/GrpTRESRaw list (zeros included)."""

_WIDTH = dict(FIELD_TABLE)
_DOUBLES = frozenset({"NormShares", "NormUsage", "EffectvUsage", "FairShare", "LevelFS"})


@dataclass(frozen=True)
class Field:
    name: str
    width: int  # negative = left-justified


def default_fields(algorithm: str, long: bool = False, partition: bool = False) -> list[Field]:
    """sshare's default columns, short or long (LevelFS only in Fair Tree); -m adds Partition."""
    names = list((LONG_FAIR_TREE if algorithm == "fair_tree" else LONG) if long else SHORT)
    if partition:
        names.insert(names.index("User") + 1, "Partition")
    return [Field(n, _WIDTH[n]) for n in names]


def select_fields(spec: str | None, algorithm: str = "fair_tree", long: bool = False,
                  partition: bool = False) -> list[Field]:
    """Columns for ``-o spec`` (``"Account,User%15,Eff"``), or the defaults when empty."""
    if not spec or not spec.strip():
        return default_fields(algorithm, long, partition)
    fields = []
    for word in spec.split(","):
        word = word.strip()
        if not word:
            continue
        name, _, width_text = word.partition("%")
        low = name.lower()
        match = next((n for n, _ in FIELD_TABLE if low and n.lower().startswith(low)), None)
        if match is None:
            raise InvalidValue(f'Invalid field requested: "{name}"')
        width = _WIDTH[match]
        if width_text:
            try:
                size = int(width_text)
            except ValueError:
                raise InvalidValue(f"invalid width '{width_text}' for field {match}") from None
            width = -abs(size) if width < 0 else size
        fields.append(Field(match, width))
    return fields


def _account_text(row: ShareRow) -> str:
    # Users are already one level deeper than their account, so depth is the indent.
    return " " * row.depth + row.account


def _tres_list(values: dict[str, int] | None, names: Sequence[str]) -> str:
    if not values:
        return _zero_tres(tuple(names))
    return ",".join(f"{n}={values.get(n, 0)}" for n in names)


@functools.lru_cache(maxsize=16)
def _zero_tres(names: tuple[str, ...]) -> str:
    """``cpu=0,mem=0,...``: most rows have no running TRES, so build it once."""
    return ",".join(f"{n}=0" for n in names)


def cell_values(row: ShareRow, cluster: str = "",
                tres_names: Sequence[str] = DEFAULT_TRES) -> dict[str, object]:
    """Raw values per field name: str, int, float, or None for blank."""
    shares: object
    if row.raw_shares is None:
        shares = None
    elif row.raw_shares == SHARES_PARENT:
        shares = "parent"
    else:
        shares = row.raw_shares
    return {
        "Account": _account_text(row),
        "Cluster": cluster or None,
        "EffectvUsage": row.effective_usage,
        "FairShare": row.fairshare,
        "GrpTRESMins": format_tres(row.grp_tres_mins, units=False) or None,
        "GrpTRESRaw": _tres_list(row.tres_raw_mins, tres_names),
        "ID": row.assoc_id,
        "LevelFS": row.level_fs,
        "NormShares": row.norm_shares,
        "NormUsage": row.norm_usage,
        "Partition": row.partition,
        "RawShares": shares,
        "RawUsage": int(row.raw_usage),
        "TRESRunMins": _tres_list(row.tres_run_mins, tres_names),
        "User": row.user,
    }


def _double_text(value: float, width: int) -> str:
    """C's ``%f``; when that does not fit the column, the widest ``%e`` that does."""
    text = "inf" if value == math.inf else f"{value:f}"
    if len(text) <= width or value == math.inf:
        return text
    for digits in range(6, -1, -1):
        text = f"{value:.{digits}e}"
        if len(text) <= width:
            break
    return text


def _fixed(field: Field, value: object) -> str:
    width = abs(field.width)
    if value is None:
        text = ""
    elif isinstance(value, float):
        text = _double_text(value, width)
    else:
        text = str(value)
        if len(text) > width:
            text = text[: width - 1] + "+"
    return text.ljust(width) if field.width < 0 else text.rjust(width)


def _parsable(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return "inf" if value == math.inf else f"{value:f}"
    return str(value)


def render_text(rows: Sequence[ShareRow], fields: Sequence[Field], parsable: str | None = None,
                header: bool = True, cluster: str = "",
                tres_names: Sequence[str] = DEFAULT_TRES) -> str:
    """sshare's text output. ``parsable``: None (fixed width), ``"p"`` (-p) or ``"P"`` (-P)."""
    if parsable not in (None, "p", "P"):
        raise InvalidValue(f"unknown parsable mode '{parsable}': expected p or P")
    lines = []
    if parsable:
        end = "|" if parsable == "p" else ""
        if header:
            lines.append("|".join(f.name for f in fields) + end)
        for row in rows:
            cells = cell_values(row, cluster, tres_names)
            lines.append("|".join(_parsable(cells[f.name]) for f in fields) + end)
    else:
        if header:
            lines.append("".join(
                (f.name[: abs(f.width)].ljust(-f.width) if f.width < 0
                 else f.name[: f.width].rjust(f.width)) + " " for f in fields))
            lines.append("".join("-" * abs(f.width) + " " for f in fields))
        for row in rows:
            cells = cell_values(row, cluster, tres_names)
            lines.append("".join(_fixed(f, cells[f.name]) + " " for f in fields))
    return "".join(line + "\n" for line in lines)


def json_rows(rows: Sequence[ShareRow], cluster: str = "",
              tres_names: Sequence[str] = DEFAULT_TRES) -> list[dict[str, object]]:
    """One JSON-ready dict per row; Account without indentation, plus ``depth``."""
    out = []
    for row in rows:
        cells = cell_values(row, cluster, tres_names)
        cells["Account"] = row.account
        cells["RawUsage"] = row.raw_usage
        if row.level_fs == math.inf:
            cells["LevelFS"] = "inf"
        cells["depth"] = row.depth
        out.append(cells)
    return out
