"""sprio's text output, character for character (src/sprio/opts.c, print.c, sort.c).

A format is Slurm's ``%[.][width]letter`` list: text before the first ``%`` is printed
first, text after a letter (up to the next ``%``) follows its column. A leading ``.``
right-justifies; any width cuts longer values; no width prints the value as it is.
Weighted factors print as ``%.0f``, normalized ones as ``%.7f`` (weighted / weight), the
weighted PRIORITY as the truncated sum and the normalized one as sum / 4294967295.

The default format holds only the factors whose weight is non-zero; ``-l`` is the full
list, ``-w`` prints one ``Weights`` line instead of jobs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields
from functools import lru_cache
from itertools import islice, repeat
from operator import attrgetter, le, truediv
from typing import NamedTuple

from fscli.engine.config import PriorityConfig
from fscli.engine.priority import (
    FACTORS,
    WEIGHT_KEYS,
    PriorityColumns,
    PriorityRow,
    normalized_priority,
)
from fscli.engine.tres import tres_order
from fscli.errors import InvalidValue

LONG_WITH_FORMAT = (
    "Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry."
)

LONG_FORMATS = {
    (22, 5): (
        "%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T",
        "%.15i %9r %.8u %10y %10a %10b %10f %10j %10p %10q %20t",
    ),
    (23, 2): (
        ("%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10n %.10Q %.11N %.20T"),
        "%.15i %9r %.8u %.8o %10y %10a %10b %10f %10j %10p %10n %10q %20t",
    ),
}
"""sprio -l (weighted, normalized) from each Slurm release on: 23.02 added ACCOUNT and
QOSNAME (src/sprio/sprio.c, unchanged from 23.02 through 25.11)."""
SLURM_RELEASES = ((22, 5), (25, 11))
"""The first and last Slurm release whose sprio text fscli prints."""


def slurm_release(version: str) -> tuple[int, int]:
    """``24.11.5`` (or ``24.11``) as (24, 11); a version outside :data:`SLURM_RELEASES`
    or not of that form is refused."""
    parts = version.strip().split(".")
    first, last = (f"{a}.{b:02d}" for a, b in SLURM_RELEASES)
    try:
        release = (int(parts[0]), int(parts[1]))
    except (IndexError, ValueError):
        release = (0, 0)
    if not (SLURM_RELEASES[0] <= release <= SLURM_RELEASES[1]) or len(parts) > 3:
        raise InvalidValue(f"Slurm version '{version}' is not one of {first} to {last}")
    return release


def long_format(version: str, normalized: bool) -> str:
    """sprio -l's format in Slurm ``version`` (:func:`slurm_release`)."""
    release = slurm_release(version)
    since = max(r for r in LONG_FORMATS if r <= release)
    return LONG_FORMATS[since][1 if normalized else 0]


# factor letter (lower case = normalized) -> factor name
_FACTOR_LETTERS = {
    "a": "age",
    "b": "assoc",
    "f": "fairshare",
    "j": "jobsize",
    "p": "partition",
    "q": "qos",
}
_FACTOR_INDEX = {c: FACTORS.index(n) for c, n in _FACTOR_LETTERS.items()}
_HEADERS = {
    "i": "JOBID",
    "r": "PARTITION",
    "u": "USER",
    "o": "ACCOUNT",
    "n": "QOSNAME",
    "c": "CLUSTER",
    "y": "PRIORITY",
    "S": "SITE",
    "N": "NICE",
    "t": "TRES",
    "a": "AGE",
    "b": "ASSOC",
    "f": "FAIRSHARE",
    "j": "JOBSIZE",
    "p": "PARTITION",
    "q": "QOS",
}
MAX_WIDTH = 10_000
"""The widest column a format may ask for (wider ones would only pad with spaces)."""
LETTERS = "".join(sorted(set(_HEADERS) | {c.upper() for c in _FACTOR_LETTERS} | {"Y", "T"}))


class Field(NamedTuple):
    """One ``%[.][width]letter`` item and the text that follows it (a NamedTuple: made at
    import in 0.1 ms, a frozen dataclass in 0.9, by every sprio)."""

    letter: str
    width: int
    right: bool
    suffix: str


def parse_format(fmt: str) -> tuple[str, list[Field]]:
    """(prefix, fields) of a sprio format, or :class:`InvalidValue` for an unknown letter."""
    if not fmt:
        raise InvalidValue("Format option lacks specification.")
    prefix, sep, rest = fmt.partition("%")
    fields = []
    for token in rest.split("%") if sep else []:
        if not token:
            continue  # "%%" is skipped, as strtok does
        i = 1 if token[0] == "." else 0
        j = i
        while j < len(token) and token[j] in "0123456789":  # not str.isdigit: "²" is one
            j += 1
        letter = token[j : j + 1]
        if not letter or letter not in LETTERS:
            raise InvalidValue(
                f"Invalid job format specification: '%{token}' in '{fmt}' "
                f"(letters: {' '.join(LETTERS)})"
            )
        digits = token[i:j].lstrip("0")
        if len(digits) > len(str(MAX_WIDTH)) or int(digits or 0) > MAX_WIDTH:
            raise InvalidValue(
                f"Invalid job format specification: '%{token}' in '{fmt}' "
                f"(width at most {MAX_WIDTH})"
            )
        fields.append(Field(letter, int(digits or 0), i == 1, token[j + 1 :]))
    return prefix, fields


def default_format(
    config: PriorityConfig,
    *,
    long: bool = False,
    normalized: bool = False,
    users: bool = False,
    version: str = "22.05",
) -> str:
    """sprio's format when no ``-o``: depends on -l, -n, -u and the non-zero weights."""
    if long:
        return long_format(version, normalized)
    parts = ["%.15i %9r"]
    if users:
        parts.append(" %.8u")
    parts.append(" %10y" if normalized else " %.10Y %.10S")
    for letter, name in _FACTOR_LETTERS.items():
        if config.weights.get(WEIGHT_KEYS[name], 0):
            parts.append(f" %10{letter}" if normalized else f" %.10{letter.upper()}")
    if config.tres_weights:
        parts.append(" %20t" if normalized else " %.20T")
    return "".join(parts)


def _header(letter: str) -> str:
    return _HEADERS.get(letter) or _HEADERS[letter.lower()]


def _template(prefix: str, fields: list[Field], conversions: list[str] | None = None) -> str:
    """One ``%`` template for a whole line: ``%W.Ws`` right-justifies and cuts to W,
    ``%-W.Ws`` left-justifies and cuts (sprio cuts every value to its width). A number
    column whose values all fit its width is formatted by the template itself
    (``conversions``: ``%W.0f``, ``%-Wd``, ...; ``s`` for text). ``%`` with a tuple formats
    100,000 lines a third faster than ``str.format``, and a number formatted in the line
    costs half of one formatted apart and then placed."""
    parts = [prefix.replace("%", "%%")]
    for k, f in enumerate(fields):
        conversion = conversions[k] if conversions else "s"
        align = "" if f.right else "-"
        if conversion == "s":
            spec = f"{align}{f.width}.{f.width}" if f.width else ""
        else:
            spec = f"{align}{f.width}" if f.width else ""
        parts.append(f"%{spec}{conversion}" + f.suffix.replace("%", "%%"))
    return "".join(parts)


def _fits(values: list, conversion: str, width: int) -> bool:
    """Whether every value, formatted with ``conversion``, is at most ``width`` long (no
    width: nothing is cut). Of finite numbers the longest are the largest and, with its
    sign, the smallest; a negative zero, equal to zero and so never either, has a sign too.
    NaN and infinities, which ``min`` and ``max`` do not order, are left to the text path."""
    if not width or not values:
        return True
    if conversion != "d" and not math.isfinite(sum(values)):
        return False
    low, high = min(values), max(values)
    widest = (low, high, -0.0) if conversion != "d" and low <= 0 <= high else (low, high)
    return all(len(format(v, conversion)) <= width for v in widest)


def _int(value: float) -> str:
    return f"{value:.0f}"


def _weight(config: PriorityConfig, name: str) -> int:
    return int(config.weights.get(WEIGHT_KEYS[name], 0))


@lru_cache(maxsize=32)
def _tres_positions(names: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """(index, name) of a row's weighted TRES, in Slurm's TRES order."""
    return tuple((names.index(n), n) for n in tres_order(names))


def _tres_column(rows: PriorityColumns, config: PriorityConfig, normalized: bool) -> list[str]:
    """sprio's TRES cells: weighted ``name=%.0f``, normalized ``name=%.2f``, zeros left out.
    Jobs of one size share their values: each cell is formatted once."""
    weights = config.tres_weights
    cells: dict[tuple, str] = {}

    def cell(key: tuple) -> str:
        names, values = key
        if normalized:
            pieces = (
                f"{n}={values[i] / weights[n]:.2f}" for i, n in _tres_positions(names) if values[i]
            )
        else:
            pieces = (f"{n}={values[i]:.0f}" for i, n in _tres_positions(names) if values[i])
        text = cells[key] = ",".join(pieces)
        return text

    out: list[str] = []
    append = out.append
    for key in zip(rows.tres_names, rows.tres_weighted_values):
        text = cells.get(key)
        append(cell(key) if text is None else text)
    return out


def _factor_values(letter: str, rows: PriorityColumns, config: PriorityConfig) -> list[float]:
    """One factor per row, weighted (``F``) or normalized (``f``: weighted / weight)."""
    values = rows.weighted[_FACTOR_INDEX[letter.lower()]]
    if letter.isupper():
        return values
    weight = _weight(config, _FACTOR_LETTERS[letter.lower()])
    if not weight:
        return [0.0] * len(values)
    return list(map(truediv, values, repeat(weight)))


def _unless_admin_set(values: list[int], rows: PriorityColumns) -> list[int]:
    """``values``, 0 where an administrator set the priority (sprio's SITE and NICE)."""
    if not any(rows.admin_set):
        return values
    return [0 if admin else value for value, admin in zip(values, rows.admin_set)]


_COLUMNS: dict[str, Callable[[PriorityColumns, PriorityConfig], tuple[list, str]]] = {
    "i": lambda rows, _: (rows.job_id, "d"),
    "r": lambda rows, _: (rows.partition, "s"),
    "u": lambda rows, _: (rows.user, "s"),
    "o": lambda rows, _: (rows.account, "s"),
    "n": lambda rows, _: (rows.qos, "s"),
    "c": lambda rows, _: (rows.cluster, "s"),
    "Y": lambda rows, _: (list(map(int, rows.exact)), "d"),
    "y": lambda rows, _: (
        list(map("{:16.14f}".format, map(normalized_priority, rows.exact, rows.admin_set))),
        "s",
    ),
    "S": lambda rows, _: (_unless_admin_set(rows.site, rows), ".0f"),
    "N": lambda rows, _: (_unless_admin_set(rows.nice, rows), ".0f"),
    "T": lambda rows, config: (_tres_column(rows, config, normalized=False), "s"),
    "t": lambda rows, config: (_tres_column(rows, config, normalized=True), "s"),
}


def _values(letter: str, rows: PriorityColumns, config: PriorityConfig) -> tuple[list, str]:
    """One column for every row: its values and their conversion, ``s`` for text, else a
    number format (``d``, ``.0f`` for weighted factors, ``.7f`` for normalized ones)."""
    if letter.lower() in _FACTOR_LETTERS:
        return _factor_values(letter, rows, config), ".7f" if letter.islower() else ".0f"
    return _COLUMNS[letter](rows, config)


def _column(letter: str, rows: PriorityColumns, config: PriorityConfig) -> list[str]:
    """The text of one column for every row."""
    values, conversion = _values(letter, rows, config)
    return values if conversion == "s" else list(map(f"{{:{conversion}}}".format, values))


def _weights_value(letter: str, config: PriorityConfig) -> str:
    """The text of one column in the ``-w`` line."""
    if letter == "i":
        return "Weights"
    if letter.lower() in _FACTOR_LETTERS:
        return _int(_weight(config, _FACTOR_LETTERS[letter.lower()]))
    if letter == "S":
        return "1"
    if letter == "T":  # sprio prints the unset PriorityWeightTRES string: glibc's "(null)"
        return config.weight_tres_text or "(null)"
    return ""


_SORT_KEYS: dict[str, Callable[[PriorityColumns], list]] = {
    "c": attrgetter("cluster"),
    "i": attrgetter("job_id"),
    "N": attrgetter("nice"),
    "r": attrgetter("partition"),
    "u": attrgetter("user"),
}
_MORE_KEYS: list[tuple[str, Callable[[PriorityColumns], list]]] = [
    ("t", lambda rows: list(map(sum, rows.tres_weighted_values))),
    ("y", attrgetter("exact")),
    # sprio cannot sort by association priority (no "b")
    *[(c, lambda rows, i=_FACTOR_INDEX[c]: rows.weighted[i]) for c in _FACTOR_LETTERS if c != "b"],
]
for _letter, _key in _MORE_KEYS:
    _SORT_KEYS[_letter] = _SORT_KEYS[_letter.upper()] = _key


def sort_order(rows: PriorityColumns, spec: str | None = None) -> list[int] | None:
    """sprio ``-S``: the positions of ``rows`` in sorted order, or None when the order does
    not change. ``spec``: sort letters, each optionally after ``+`` (ascending) or ``-``
    (descending), commas allowed; the first letter is the main key. Default ``i``."""
    spec = spec or "i"
    keys = [(c, i > 0 and spec[i - 1] == "-") for i, c in enumerate(spec) if c not in ",+-"]
    columns = []
    for letter, descending in reversed(keys):
        if letter not in _SORT_KEYS:
            raise InvalidValue(
                f"Invalid sort specification: {letter} (use c i N r u a f j p q t y, "
                "each optionally after - for descending)"
            )
        columns.append((_SORT_KEYS[letter](rows), descending))
    if len(columns) == 1 and not columns[0][1] and _ascending(columns[0][0]):
        return None  # the rows come by job id: sprio's default sort changes nothing
    order = list(range(len(rows)))
    for column, descending in columns:
        order.sort(key=column.__getitem__, reverse=descending)
    return None if order == sorted(order) else order


def _ascending(values: list) -> bool:
    """Whether no value is below the one before it (a stable sort leaves them as they are)."""
    return all(map(le, values, islice(values, 1, None)))


def _as_columns(rows: PriorityColumns | Sequence[PriorityRow]) -> PriorityColumns:
    return rows if isinstance(rows, PriorityColumns) else PriorityColumns.of_rows(rows)


def render(rows: PriorityColumns | Sequence[PriorityRow], config: PriorityConfig, **options) -> str:
    """sprio's output for ``rows``: the header, then one line per row (or the weights
    line); ``options`` as :func:`render_chunks` takes them."""
    return "".join(render_chunks(rows, config, **options))


CHUNK = 5000
"""Rows rendered at a time: the text of 100,000 jobs never exists whole."""


def render_chunks(
    rows: PriorityColumns | Sequence[PriorityRow],
    config: PriorityConfig,
    *,
    fmt: str | None = None,
    long: bool = False,
    normalized: bool = False,
    weights: bool = False,
    header: bool = True,
    sort: str | None = None,
    users: bool = False,
    version: str = "22.05",
) -> Iterator[str]:
    """:func:`render` in pieces of :data:`CHUNK` lines, to be written as they come. The
    format and the sort are checked before the first piece."""
    if fmt and long:
        raise InvalidValue(LONG_WITH_FORMAT)
    prefix, fields = parse_format(
        fmt
        or default_format(config, long=long, normalized=normalized, users=users, version=version)
    )
    line = _template(prefix, fields).__mod__
    lines = []
    if header:
        lines.append(line(tuple(_header(f.letter) for f in fields)))
    columns = _as_columns([] if weights else rows)
    if weights:
        lines.append(line(tuple(_weights_value(f.letter, config) for f in fields)))
    order = sort_order(columns, sort) if fields and not weights else None
    return _chunks(lines, columns, order, prefix, fields, config)


def _chunks(
    lines: list[str],
    rows: PriorityColumns,
    order: list[int] | None,
    prefix: str,
    fields: list[Field],
    config: PriorityConfig,
) -> Iterator[str]:
    if lines:
        yield "\n".join(lines) + "\n"
    printed = _printed(rows, fields, order, config)
    count = len(rows)
    for start in range(0, count, CHUNK):
        stop = min(start + CHUNK, count)
        part = [(values[start:stop], conversion) for values, conversion in printed]
        yield _lines(prefix, fields, part, stop - start)


def _printed(
    rows: PriorityColumns, fields: list[Field], order: list[int] | None, config: PriorityConfig
) -> list[tuple[list, str]]:
    """Each field's values for every row, in the printed ``order`` (None: as they are),
    and their conversion (:func:`_values`); a letter printed twice is made once."""
    made: dict[str, tuple[list, str]] = {}
    for f in fields:
        if f.letter not in made:
            values, conversion = _values(f.letter, rows, config)
            made[f.letter] = (
                values if order is None else list(map(values.__getitem__, order)),
                conversion,
            )
    return [made[f.letter] for f in fields]


def _lines(prefix: str, fields: list[Field], columns: list[tuple[list, str]], count: int) -> str:
    """``count`` lines of the fields' ``columns``: each number column formatted by the
    line's template where every value fits its width, else as text cut to it, as sprio
    cuts (:func:`_fits`)."""
    if not fields:
        return "\n".join([_template(prefix, fields) % ()] * count) + "\n"
    if all(f.width for f in fields):
        # Every field has a width: a text is exactly that long, a number at least, so the
        # lines are as long as the widths and texts together just when no number is wider
        # than its column. One look at the total length instead of three passes over each
        # number column (_fits: 22 ms of 130 at 100,000 jobs); if some number is wider,
        # the lines are made again below.
        width = len(prefix) + sum(f.width + len(f.suffix) for f in fields)
        text = _joined(prefix, fields, columns)
        if len(text) == count * (width + 1):
            return text
    texts = []
    for f, (values, conversion) in zip(fields, columns):
        if conversion != "s" and not _fits(values, conversion, f.width):
            values, conversion = list(map(f"{{:{conversion}}}".format, values)), "s"
        texts.append((values, conversion))
    return _joined(prefix, fields, texts)


def _joined(prefix: str, fields: list[Field], columns: list[tuple[list, str]]) -> str:
    """The lines of ``columns`` formatted by one template, each with its conversion."""
    line = _template(prefix, fields, [conversion for _, conversion in columns]).__mod__
    return "\n".join(map(line, zip(*[values for values, _ in columns]))) + "\n"


_TEXT_LETTERS = frozenset("ruonctT")
"""Letters whose column holds names (left-aligned in a table); every other is a number."""


def table_cells(
    rows: PriorityColumns | Sequence[PriorityRow],
    config: PriorityConfig,
    fmt: str,
    sort: str | None = None,
) -> tuple[list[str], list[list[str]], list[bool]]:
    """(columns, cells, right-aligned flags) of sprio's columns for ``fmt``, for a table:
    sprio's values without fixed widths, numbers right-aligned (the PARTITION factor too,
    though it shares its title with the partition's name)."""
    _, fields = parse_format(fmt)
    columns = _as_columns(rows)
    order = sort_order(columns, sort)
    texts = {f.letter: _column(f.letter, columns, config) for f in fields}
    cells = [list(cells) for cells in zip(*(texts[f.letter] for f in fields))]
    return (
        [_header(f.letter) for f in fields],
        cells if order is None else list(map(cells.__getitem__, order)),
        [f.letter not in _TEXT_LETTERS for f in fields],
    )


def show_table(
    rows: PriorityColumns | Sequence[PriorityRow],
    config: PriorityConfig,
    fmt: str,
    sort: str | None = None,
    header: bool = True,
    title: str | None = None,
) -> None:
    """sprio's columns for people (:func:`fscli.render.tables.show`: never cut)."""
    from fscli.render.tables import show

    columns, cells, right = table_cells(rows, config, fmt, sort)
    show(columns, cells, title, header, right)


def row_dict(row: PriorityRow) -> dict:
    """A JSON-ready breakdown of one row."""
    return _json_row(*(getattr(row, f.name) for f in fields(PriorityRow)[:-2]))


def _json_row(
    job_id: int,
    partition: str,
    user: str,
    account: str,
    qos: str,
    cluster: str,
    assoc_id: int | None,
    factor_values: tuple[float, ...],
    weighted_values: tuple[float, ...],
    tres_names: tuple[str, ...],
    tres_factor_values: tuple[float, ...],
    tres_weighted_values: tuple[float, ...],
    site: int,
    nice: int,
    exact: float,
    priority: int,
    admin_set: bool,
) -> dict:
    """:func:`row_dict` of a row given field by field (in :class:`PriorityRow`'s order,
    up to ``admin_set``): ``--json`` writes the rows straight from their columns, without
    row objects (nor the rows' jobs)."""
    return {
        "job_id": job_id,
        "partition": partition,
        "user": user,
        "account": account,
        "qos": qos,
        "cluster": cluster,
        "priority": priority,
        "priority_exact": exact,
        "priority_normalized": normalized_priority(exact, admin_set),
        "admin_set": admin_set,
        "site": site,
        "nice": nice,
        "factors": dict(zip(FACTORS, factor_values)),
        "weighted": dict(zip(FACTORS, weighted_values)),
        "tres": {
            name: {"factor": tres_factor_values[i], "weighted": tres_weighted_values[i]}
            for i, name in _tres_positions(tres_names)
        },
    }


def render_json(
    cluster: str,
    config: PriorityConfig,
    rows: PriorityColumns | Sequence[PriorityRow],
    warnings: list[str],
) -> str:
    """``sprio --json``: the cluster, the weights, one line per row, the warnings. Each row
    goes through the C JSON encoder once (an indented dump of 100,000 rows would take the
    pure-Python encoder many seconds)."""
    import json

    columns = _as_columns(rows)
    jobs = ",\n    ".join(map(json.dumps, map(_json_row, *columns.row_fields()[:-1])))
    return "".join(
        [
            '{\n  "cluster": ',
            json.dumps(cluster),
            ',\n  "weights": ',
            json.dumps(weights_dict(config)),
            ',\n  "jobs": [',
            f"\n    {jobs}\n  " if len(columns) else "",
            '],\n  "warnings": ',
            json.dumps(warnings),
            "\n}\n",
        ]
    )


def weights_dict(config: PriorityConfig) -> dict:
    """The weights as JSON: one entry per factor plus the TRES weights."""
    result: dict = {name: _weight(config, name) for name in FACTORS}
    result["tres"] = dict(config.tres_weights)
    return result
