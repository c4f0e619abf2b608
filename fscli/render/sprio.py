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

from collections.abc import Callable
from dataclasses import dataclass

from fscli.engine.config import PriorityConfig
from fscli.engine.priority import FACTORS, PRIORITY_MAX, WEIGHT_KEYS, PriorityRow
from fscli.engine.tres import tres_order
from fscli.errors import InvalidValue

LONG_WITH_FORMAT = (
    "Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry."
)

LONG_FORMATS = {
    "22.05": ("%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T",
              "%.15i %9r %.8u %10y %10a %10b %10f %10j %10p %10q %20t"),
    "25.11": (("%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10n %.10Q "
               "%.11N %.20T"),
              "%.15i %9r %.8u %.8o %10y %10a %10b %10f %10j %10p %10n %10q %20t"),
}
"""sprio -l (weighted, normalized) per Slurm version; 25.11 adds ACCOUNT and QOSNAME."""

# factor letter (lower case = normalized) -> factor name
_FACTOR_LETTERS = {"a": "age", "b": "assoc", "f": "fairshare", "j": "jobsize",
                   "p": "partition", "q": "qos"}
_HEADERS = {
    "i": "JOBID", "r": "PARTITION", "u": "USER", "o": "ACCOUNT", "n": "QOSNAME",
    "c": "CLUSTER", "y": "PRIORITY", "S": "SITE", "N": "NICE", "t": "TRES",
    "a": "AGE", "b": "ASSOC", "f": "FAIRSHARE", "j": "JOBSIZE", "p": "PARTITION", "q": "QOS",
}
LETTERS = "".join(sorted(set(_HEADERS) | {c.upper() for c in _FACTOR_LETTERS} | {"Y", "T"}))


@dataclass(frozen=True)
class Field:
    """One ``%[.][width]letter`` item and the text that follows it."""

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
        while j < len(token) and token[j].isdigit():
            j += 1
        letter = token[j:j + 1]
        if not letter or letter not in LETTERS:
            raise InvalidValue(
                f"Invalid job format specification: '%{token}' in '{fmt}' "
                f"(letters: {' '.join(LETTERS)})"
            )
        fields.append(Field(letter, int(token[i:j] or 0), i == 1, token[j + 1:]))
    return prefix, fields


def default_format(config: PriorityConfig, *, long: bool = False, normalized: bool = False,
                   users: bool = False, version: str = "22.05") -> str:
    """sprio's format when no ``-o``: depends on -l, -n, -u and the non-zero weights."""
    if long:
        if version not in LONG_FORMATS:
            raise InvalidValue(f"unknown sprio version '{version}': use {', '.join(LONG_FORMATS)}")
        return LONG_FORMATS[version][1 if normalized else 0]
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


def _cell(text: str, width: int, right: bool) -> str:
    if not width:
        return text
    return f"{text:>{width}}"[:width] if right else text[:width].ljust(width)


def _int(value: float) -> str:
    return f"{value:.0f}"


def _weight(config: PriorityConfig, name: str) -> int:
    return int(config.weights.get(WEIGHT_KEYS[name], 0))


def _tres_text(row: PriorityRow, config: PriorityConfig, normalized: bool) -> str:
    items = []
    for name in tres_order(row.tres_weighted):
        value = row.tres_weighted[name]
        if not value:
            continue
        if normalized:
            items.append(f"{name}={value / config.tres_weights[name]:.2f}")
        else:
            items.append(f"{name}={value:.0f}")
    return ",".join(items)


def _value(letter: str, row: PriorityRow, config: PriorityConfig) -> str:
    """The text of one column for one row."""
    lower = letter.lower()
    if lower in _FACTOR_LETTERS:
        name = _FACTOR_LETTERS[lower]
        if letter.isupper():
            return _int(row.weighted[name])
        weight = _weight(config, name)
        return f"{row.weighted[name] / weight if weight else 0.0:.7f}"
    simple: dict[str, Callable[[], str]] = {
        "i": lambda: str(row.job_id),
        "r": lambda: row.partition,
        "u": lambda: row.user,
        "o": lambda: row.account,
        "n": lambda: row.qos,
        "c": lambda: row.cluster,
        "Y": lambda: str(int(row.exact)),
        "y": lambda: f"{row.normalized_priority:16.14f}",
        "S": lambda: _int(0 if row.admin_set else row.site),
        "N": lambda: _int(0 if row.admin_set else row.nice),
        "T": lambda: _tres_text(row, config, normalized=False),
        "t": lambda: _tres_text(row, config, normalized=True),
    }
    return simple[letter]()


def _weights_value(letter: str, config: PriorityConfig) -> str:
    """The text of one column in the ``-w`` line."""
    if letter == "i":
        return "Weights"
    if letter.lower() in _FACTOR_LETTERS:
        return _int(_weight(config, _FACTOR_LETTERS[letter.lower()]))
    if letter == "S":
        return "1"
    if letter == "T":
        return config.raw.get("PriorityWeightTRES", "")
    return ""


def _line(prefix: str, fields: list[Field], value: Callable[[str], str]) -> str:
    return prefix + "".join(_cell(value(f.letter), f.width, f.right) + f.suffix for f in fields)


_SORT_KEYS: dict[str, Callable[[PriorityRow], object]] = {
    "c": lambda r: r.cluster,
    "i": lambda r: r.job_id,
    "N": lambda r: r.nice,
    "r": lambda r: r.partition,
    "u": lambda r: r.user,
}
for _letter, _key in [
    ("t", lambda r: sum(r.tres_weighted.values())),
    ("y", lambda r: r.exact),
    # sprio cannot sort by association priority (no "b")
    *[(c, lambda r, n=n: r.weighted[n]) for c, n in _FACTOR_LETTERS.items() if c != "b"],
]:
    _SORT_KEYS[_letter] = _SORT_KEYS[_letter.upper()] = _key


def sort_rows(rows: list[PriorityRow], spec: str | None = None) -> list[PriorityRow]:
    """sprio ``-S``: sort letters, each optionally after ``+`` (ascending) or ``-``
    (descending), commas allowed; the first letter is the main key. Default ``i``."""
    spec = spec or "i"
    keys = [(c, i > 0 and spec[i - 1] == "-") for i, c in enumerate(spec) if c not in ",+-"]
    result = list(rows)
    for letter, descending in reversed(keys):
        if letter not in _SORT_KEYS:
            raise InvalidValue(
                f"Invalid sort specification: {letter} (use c i N r u a f j p q t y, "
                "each optionally after - for descending)"
            )
        result.sort(key=_SORT_KEYS[letter], reverse=descending)
    return result


def render(
    rows: list[PriorityRow],
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
) -> str:
    """sprio's output for ``rows``: the header, then one line per row (or the weights line)."""
    if fmt and long:
        raise InvalidValue(LONG_WITH_FORMAT)
    prefix, fields = parse_format(
        fmt or default_format(config, long=long, normalized=normalized, users=users,
                              version=version)
    )
    lines = []
    if header:
        lines.append(_line(prefix, fields, _header))
    if weights:
        lines.append(_line(prefix, fields, lambda c: _weights_value(c, config)))
    else:
        for row in sort_rows(rows, sort):
            lines.append(_line(prefix, fields, lambda c, r=row: _value(c, r, config)))
    return "".join(line + "\n" for line in lines)


def row_dict(row: PriorityRow) -> dict:
    """A JSON-ready breakdown of one row."""
    return {
        "job_id": row.job_id,
        "partition": row.partition,
        "user": row.user,
        "account": row.account,
        "qos": row.qos,
        "cluster": row.cluster,
        "priority": row.priority,
        "priority_exact": row.exact,
        "priority_normalized": row.exact / PRIORITY_MAX,
        "admin_set": row.admin_set,
        "site": row.site,
        "nice": row.nice,
        "factors": {name: row.factors[name] for name in FACTORS},
        "weighted": {name: row.weighted[name] for name in FACTORS},
        "tres": {name: {"factor": row.tres_factors[name], "weighted": row.tres_weighted[name]}
                 for name in tres_order(row.tres_factors)},
    }


def weights_dict(config: PriorityConfig) -> dict:
    """The weights as JSON: one entry per factor plus the TRES weights."""
    result: dict = {name: _weight(config, name) for name in FACTORS}
    result["tres"] = dict(config.tres_weights)
    return result
