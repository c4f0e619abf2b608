"""sshare's columns and text formats, from :class:`fscli.engine.fairshare.ShareRow` rows
or their columns (:func:`fscli.engine.fairshare.share_columns`).

* :func:`select_fields` resolves ``-o`` (case-insensitive prefixes in Slurm's field-table
  order, ``name%N`` widths) or the default short/long column sets per algorithm.
* :func:`render_text` prints Slurm's fixed-width table (header, dashes, ``%f`` doubles,
  blanks for unset values, strings cut with ``+``) or the parsable forms ``-p`` (``|``
  after every field) and ``-P`` (no trailing ``|``); ``header=False`` is ``-n``.
* :func:`json_rows` gives JSON-ready dicts (numbers as numbers, LevelFS infinity "inf").

The Account column is indented one space per depth below root (a user row is indented
one more than its account), also in parsable output, exactly as sshare prints it.
Rich tables are built by the CLI from the same rows and :func:`field_values`. The text
formats work on columns: sshare -P at 100,000 associations takes its pieces as columns
straight from the engine, and formats each line with one ``%`` template.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from fscli.engine.fairshare import ShareRow, share_columns
from fscli.engine.model import SHARES_PARENT
from fscli.engine.tres import DEFAULT_TRES, format_tres
from fscli.errors import InvalidValue

# (name, width): negative = left-justified. Order matters for -o prefix matching.
FIELD_TABLE: tuple[tuple[str, int], ...] = (
    ("Account", -20),
    ("Cluster", 10),
    ("EffectvUsage", 13),
    ("FairShare", 10),
    ("GrpTRESMins", 30),
    ("GrpTRESRaw", 30),
    ("ID", 6),
    ("LevelFS", 10),
    ("NormShares", 11),
    ("NormUsage", 11),
    ("Partition", 12),
    ("RawShares", 10),
    ("RawUsage", 11),
    ("TRESRunMins", 30),
    ("User", 10),
)
SHORT = ("Account", "User", "RawShares", "NormShares", "RawUsage", "EffectvUsage", "FairShare")
LONG = (
    "Account",
    "User",
    "RawShares",
    "NormShares",
    "RawUsage",
    "NormUsage",
    "EffectvUsage",
    "FairShare",
    "GrpTRESMins",
    "TRESRunMins",
)
LONG_FAIR_TREE = LONG[:8] + ("LevelFS",) + LONG[8:]

MAX_WIDTH = 10_000
_WIDTH = dict(FIELD_TABLE)
_DOUBLES = frozenset({"NormShares", "NormUsage", "EffectvUsage", "FairShare", "LevelFS"})


def help_format() -> str:
    """``sshare -e``: the field names, four to a line, each padded to 17 (Slurm's layout)."""
    out = []
    for i, (name, _) in enumerate(FIELD_TABLE):
        out.append(" " if i & 3 else "\n" if i else "")
        out.append(f"{name:<17}")
    return "".join(out) + "\n"


@dataclass(frozen=True)
class Extras:
    """What the rows do not carry: the cluster's name, its tracked TRES (the names the
    TRES list columns print, zeros included), each association's TRES run-minutes
    (:func:`fscli.engine.cluster_state.run_minutes`) and its decayed TRES-seconds other than
    billing (:func:`fscli.engine.cluster_state.tres_usage`); associations with none are left out."""

    cluster: str = ""
    tres_names: Sequence[str] = DEFAULT_TRES
    run_mins: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    tres_usage: Mapping[int, Mapping[str, float]] = field(default_factory=dict)


def extras_of(answer: Any, columns: Collection[str] | None = None) -> Extras:
    """The :class:`Extras` of an answer (:class:`fscli.api.results.Shares`, or a
    selection of one): the TRES run-minutes and usage only when ``columns`` (field
    names; None = all) show them."""

    def wanted(name: str) -> bool:
        return columns is None or name in columns

    return Extras(
        answer.cluster,
        answer.tres_names,
        answer.run_minutes if wanted("TRESRunMins") else {},
        answer.tres_usage if wanted("GrpTRESRaw") else {},
    )


class Field(NamedTuple):
    """An sshare ``-o`` column: name and width (negative: left-justified); a NamedTuple, as
    the small frozen records made at the import of every view are."""

    name: str
    width: int  # negative = left-justified


def default_fields(algorithm: str, long: bool = False, partition: bool = False) -> list[Field]:
    """sshare's default columns, short or long (LevelFS only in Fair Tree); -m adds Partition."""
    names = list((LONG_FAIR_TREE if algorithm == "fair_tree" else LONG) if long else SHORT)
    if partition:
        names.insert(names.index("User") + 1, "Partition")
    return [Field(n, _WIDTH[n]) for n in names]


def select_fields(
    spec: str | None, algorithm: str = "fair_tree", long: bool = False, partition: bool = False
) -> list[Field]:
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
            if abs(size) > MAX_WIDTH:  # it would only pad with spaces, gigabytes of them
                raise InvalidValue(
                    f"invalid width '{width_text}' for field {match}: at most {MAX_WIDTH}"
                )
            width = -abs(size) if width < 0 else size
        fields.append(Field(match, width))
    return fields


def printed_names(fmt: str | None, long: bool = False) -> frozenset[str]:
    """The columns ``-o fmt`` (checked here: a bad one fails before the store is read) or
    ``-l`` print, whatever the algorithm (which adds only LevelFS)."""
    fields = select_fields(fmt) if fmt else None
    return frozenset(f.name for f in fields) if fields else frozenset(LONG if long else SHORT)


def slurm_fields(
    specs: Sequence[str], algorithm: str = "fair_tree", long: bool = False, partition: bool = False
) -> list[Field]:
    """The columns real sshare prints for its ``-o`` values ``specs`` (each one or more
    comma-separated ``name[%width]``; none: the default columns), read as sshare 22.05
    reads them, unlike :func:`select_fields`: a name is a case-insensitive prefix, taken in
    :data:`FIELD_TABLE`'s order; a repeated word (any case) counts once; the width is C's
    ``atoi`` (a non-number or 0 keeps the default, a sign sets the justification: ``%-12``
    left, ``%30`` right, whatever the field's default); a field given twice gets the width
    named last in both places, as sshare keeps one width per field."""
    words: list[str] = []
    for spec in specs:
        for word in spec.split(","):
            if word and word.lower() not in (w.lower() for w in words):
                words.append(word)
    if not words:
        return default_fields(algorithm, long, partition)
    width = dict(_WIDTH)
    names = []
    for word in words:
        name, _, width_text = word.partition("%")
        low = name.lower()
        match = next((n for n, _ in FIELD_TABLE if n.lower().startswith(low)), None)
        if match is None:
            raise InvalidValue(f'Invalid field requested: "{name}"')
        size = _atoi(width_text)
        if abs(size) > MAX_WIDTH:  # it would only pad with spaces, gigabytes of them
            raise InvalidValue(
                f"invalid width '{width_text}' for field {match}: at most {MAX_WIDTH}"
            )
        if size:
            width[match] = size
        names.append(match)
    return [Field(name, width[name]) for name in names]


def _atoi(text: str) -> int:
    """C's ``atoi``: leading blanks, a sign, the digits that follow; 0 when none."""
    text = text.lstrip(" \t\n\v\f\r")
    sign = -1 if text[:1] == "-" else 1
    digits = text[1:] if text[:1] in "+-" and text else text
    count = 0
    while count < len(digits) and digits[count] in "0123456789":
        count += 1
    if count > len(str(MAX_WIDTH)) + 1:
        return sign * (MAX_WIDTH + 1)
    return sign * int(digits[:count] or 0)


def account_parents(rows: Sequence[ShareRow]) -> list[str | None]:
    """The parent account of each of ``rows`` (the tree in sshare's order: an account's
    rows after it, one deeper), as the controller gives it to sshare: a user's parent is
    its account, an account's its parent account, root's None."""
    stack: list[str] = []  # the account rows above the current one, by depth
    out: list[str | None] = []
    for row in rows:
        if row.user is not None:
            out.append(row.account)
            continue
        del stack[row.depth :]
        out.append(stack[-1] if stack else None)
        stack.append(row.account)
    return out


def slurm_indents(
    accounts: Sequence[str], users: Sequence[str | None], parents: Sequence[str | None]
) -> list[int]:
    """The Account column's indentation of each printed row as sshare makes it
    (``slurmdb_tree_name_get``), from the rows printed only: an account is one space
    deeper than the last printed row of its parent account (flush left when none was
    printed, as after ``-A`` or ``-U``), a user one deeper than the last printed row of
    its account; an account printed again under a parent takes its first indentation."""
    first: dict[str, int] = {}  # account rows printed so far: the first indent of a name
    last: dict[str, int] = {}  # and the last (names repeat only where root is printed twice)
    out = []
    for account, user, parent in zip(accounts, users, parents):
        name, above = (account, parent) if user is None else ("|" + user, account)
        if above is not None and user is None and name in first:
            out.append(first[name])
            continue
        indent = 0 if above is None or above not in last else last[above] + 1
        if user is None:
            first.setdefault(name, indent)
            last[name] = indent
        out.append(indent)
    return out


_ATTRS = {
    "EffectvUsage": "effective_usage",
    "FairShare": "fairshare",
    "ID": "assoc_id",
    "LevelFS": "level_fs",
    "NormShares": "norm_shares",
    "NormUsage": "norm_usage",
    "Partition": "partition",
    "User": "user",
}
"""Fields printed straight from one ShareRow attribute."""


@functools.lru_cache(maxsize=16)
def _zero_tres(names: tuple[str, ...]) -> str:
    """``cpu=0,mem=0,...``, built once per TRES list."""
    return ",".join(f"{n}=0" for n in names)


def _tres_counts(
    assoc_ids: Sequence[int], names: Sequence[str], counts: Mapping[int, Mapping[str, int]]
) -> list[str]:
    """A TRES list per association in ``names`` order (``cpu=12,mem=0,...``): its counts,
    zeros for the associations ``counts`` leaves out."""
    zeros = _zero_tres(tuple(names))
    get = counts.get
    return [
        zeros
        if (held := get(assoc_id)) is None
        else ",".join(f"{n}={held.get(n, 0)}" for n in names)
        for assoc_id in assoc_ids
    ]


def _tres_raw(
    assoc_ids: Sequence[int],
    raw_usage: Sequence[float],
    names: Sequence[str],
    usage: Mapping[int, Mapping[str, float]],
) -> list[str]:
    """GrpTRESRaw per association: decayed TRES-minutes, truncated as sshare does; billing
    is the RawUsage, the other TRES come from ``usage`` (TRES-seconds)."""
    template = ",".join(f"{n}={{0}}" if n == "billing" else f"{n}=0" for n in names)
    get = usage.get
    out = []
    for assoc_id, raw in zip(assoc_ids, raw_usage):
        billing = int(raw / 60)
        seconds = get(assoc_id)
        if seconds is None:
            out.append(template.format(billing))
        else:
            out.append(
                ",".join(
                    f"{n}={billing if n == 'billing' else int(seconds.get(n, 0) / 60)}"
                    for n in names
                )
            )
    return out


def field_values(
    name: str, columns: Mapping[str, Sequence], extras: Extras = Extras()
) -> Sequence[object]:
    """One field's raw values for every row of ``columns`` (:func:`share_columns`): str,
    int, float, or None for blank.

    Users are already one level deeper than their account, so depth is the indent.
    """
    attr = _ATTRS.get(name)
    if attr is not None:
        return columns[attr]
    if name == "Account":
        indents = [" " * depth for depth in range(max(columns["depth"], default=0) + 1)]
        return list(
            map(operator.add, map(indents.__getitem__, columns["depth"]), columns["account"])
        )
    if name == "Cluster":
        return [extras.cluster or None] * len(columns["assoc_id"])
    if name == "GrpTRESMins":
        return [format_tres(tres, units=False) or None for tres in columns["grp_tres_mins"]]
    if name == "TRESRunMins":
        return _tres_counts(columns["assoc_id"], extras.tres_names, extras.run_mins)
    if name == "GrpTRESRaw":
        return _tres_raw(
            columns["assoc_id"], columns["raw_usage"], extras.tres_names, extras.tres_usage
        )
    if name == "RawShares":
        shares = columns["raw_shares"]
        if None not in shares and SHARES_PARENT not in shares:
            return shares
        return [None if s is None else "parent" if s == SHARES_PARENT else s for s in shares]
    if name == "RawUsage":
        return list(map(int, columns["raw_usage"]))
    raise InvalidValue(f'Invalid field requested: "{name}"')


def _double_text(value: float, width: int) -> str:
    """print_fields_double's text in a column ``width`` wide (before justification): C's
    ``%f``; when that is wider, ``%.*e`` at a precision that makes it as wide as the
    column (Slurm's ``width - (len(%.{width}e) - width)``; a precision below zero is C's
    default, 6). The text is then never narrower than the column."""
    if not math.isfinite(value):
        return _c_special(value)
    text = f"{value:f}"
    if len(text) <= width:
        return text
    size = 2 * width - len(f"{value:.{width}e}")
    return f"{value:.{size if size >= 0 else 6}e}"


def _c_special(value: float) -> str:
    """``inf``, ``-inf``, ``nan`` or ``-nan`` as glibc's printf writes them."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return "inf" if value > 0 else "-inf"


def fixed_cell(field: Field, value: object) -> str:
    """One fixed-width cell and its trailing blank: strings cut to the width with ``+``
    (print_fields_str, TRES lists), numbers never cut (``%*u``, ``%*f``)."""
    width = abs(field.width)
    if value is None:
        text = ""
    elif isinstance(value, float):
        text = _double_text(value, width)
    else:
        text = str(value)
        if isinstance(value, str) and len(text) > width:
            text = text[: width - 1] + "+"
    return text.ljust(width) if field.width < 0 else text.rjust(width)


class _LineTemplates(dict):
    """The ``%`` template of a parsable line, per pattern of blank cells (``pattern[k]``:
    the k-th of ``blanks``, the columns that hold a blank, is blank in that line), made
    when a pattern is first met: C's ``%f`` for doubles (also "inf"), ``%s`` for the rest,
    ``%.0s`` (nothing) for a blank (None)."""

    def __init__(self, conversions: list[str], blanks: list[int], end: str):
        super().__init__()
        self.conversions, self.blanks, self.end = conversions, blanks, end

    def __missing__(self, pattern: tuple[bool, ...]) -> str:
        conversions = list(self.conversions)
        for k, blank in zip(self.blanks, pattern):
            if blank:
                conversions[k] = "%.0s"
        template = self[pattern] = "|".join(conversions) + self.end
        return template


def parsable_lines(names: Sequence[str], values: Sequence[Sequence[object]], end: str) -> str:
    """The parsable lines of a piece's ``values`` (a column per field of ``names``), each
    formatted by one ``%`` template: half the cost of a text made per cell and joined.
    A line with a blank cell takes the template of its pattern of blanks, picked by
    C-level passes (a Python step per cell cost as much as the rest of the column)."""
    conversions = ["%f" if name in _DOUBLES else "%s" for name in names]
    blanks = [k for k, column in enumerate(values) if None in column]
    if not blanks:
        return "".join(map(("|".join(conversions) + end).__mod__, zip(*values)))
    templates = _LineTemplates(conversions, blanks, end)
    is_blank = (map(operator.is_, values[k], itertools.repeat(None)) for k in blanks)
    lines = map(templates.__getitem__, zip(*is_blank))
    return "".join(map(operator.mod, lines, zip(*values)))


CHUNK = 5000
"""Rows rendered at a time: the text of 100,000 rows never exists whole (tens of MB)."""


def render_text(
    rows: Sequence[ShareRow],
    fields: Sequence[Field],
    parsable: str | None = None,
    header: bool = True,
    extras: Extras = Extras(),
) -> str:
    """sshare's text output. ``parsable``: None (fixed width), ``"p"`` (-p) or ``"P"`` (-P)."""
    return "".join(render_chunks(rows, fields, parsable, header, extras))


def render_chunks(
    rows: Sequence[ShareRow],
    fields: Sequence[Field],
    parsable: str | None = None,
    header: bool = True,
    extras: Extras = Extras(),
) -> Iterator[str]:
    """:func:`render_text` in pieces of :data:`CHUNK` rows, to be written as they come."""
    pieces = (share_columns(rows[start : start + CHUNK]) for start in range(0, len(rows), CHUNK))
    return render_pieces(pieces, fields, parsable, header, extras)


def render_pieces(
    pieces: Iterable[Mapping[str, Sequence]],
    fields: Sequence[Field],
    parsable: str | None = None,
    header: bool = True,
    extras: Extras = Extras(),
) -> Iterator[str]:
    """:func:`render_text` of rows that come in pieces, as columns (:func:`share_columns`;
    each made when it is reached: see ``Shares.column_pieces``), the text of each piece
    as it comes."""
    if parsable not in (None, "p", "P"):
        raise InvalidValue(f"unknown parsable mode '{parsable}': expected p or P")
    end = "|\n" if parsable == "p" else "\n"  # -p: a "|" after every field
    if header:
        if parsable:
            yield "|".join(f.name for f in fields) + end
        else:
            yield (
                "".join(
                    (
                        f.name[: abs(f.width)].ljust(-f.width)
                        if f.width < 0
                        else f.name[: f.width].rjust(f.width)
                    )
                    + " "
                    for f in fields
                )
                + "\n"
            )
            yield "".join("-" * abs(f.width) + " " for f in fields) + "\n"
    for part in pieces:
        if not part["assoc_id"]:
            continue
        values = [field_values(f.name, part, extras) for f in fields]
        if parsable:
            yield parsable_lines([f.name for f in fields], values, end)
        else:
            texts = [[fixed_cell(f, v) + " " for v in column] for f, column in zip(fields, values)]
            yield "\n".join(map("".join, zip(*texts))) + "\n"


TRES_LISTS = ("GrpTRESMins", "GrpTRESRaw", "TRESRunMins")
"""The TRES-list columns, whose counts --json gives as ``{tres: count}``."""


def tres_object(text: str | None) -> dict[str, int] | None:
    """``cpu=12,mem=0`` (sshare's whole-number TRES list) as ``{"cpu": 12, "mem": 0}``."""
    if not text:
        return None
    return {name: int(count) for name, _, count in (p.partition("=") for p in text.split(","))}


def json_rows(rows: Sequence[ShareRow], extras: Extras = Extras()) -> list[dict[str, object]]:
    """One JSON-ready dict per row; Account without indentation, plus ``depth``."""
    names = [name for name, _ in FIELD_TABLE]
    share = share_columns(rows)
    columns = [field_values(name, share, extras) for name in names]
    out = []
    for row, values in zip(rows, zip(*columns)):
        cells = dict(zip(names, values))
        cells["Account"] = row.account
        cells["RawUsage"] = row.raw_usage
        for name in TRES_LISTS:
            cells[name] = tres_object(cells[name])
        if row.level_fs == math.inf:
            cells["LevelFS"] = "inf"
        cells["depth"] = row.depth
        out.append(cells)
    return out


def table_cells(
    rows: Sequence[ShareRow], fields: Sequence[Field], extras: Extras = Extras()
) -> tuple[list[str], list[list[str]], list[bool]]:
    """(columns, cells, right-aligned flags) of a table for people, with sshare's columns
    and number formats. TRES lists show only their non-zero counts, so that the table
    fits a terminal."""
    columns = [f.name for f in fields]
    share = share_columns(rows)
    cells = []
    for name in columns:
        values = field_values(name, share, extras)
        if name in ("GrpTRESRaw", "TRESRunMins"):
            values = [
                ",".join(p for p in str(v).split(",") if not p.endswith("=0")) for v in values
            ]
        cells.append(values)
    data = [list(row) for row in zip(*cells)]
    text = ("Account", "User", "Partition", "Cluster", "GrpTRESMins", "GrpTRESRaw", "TRESRunMins")
    return columns, data, [c not in text for c in columns]
