"""Rows to text: Slurm parsable (``-P``/``-p``), JSON, and rich tables for people.

A view is a list of column names and a list of rows (values: str, int, float or None).
``-P`` joins fields with ``|``; ``-p`` adds a trailing ``|``; ``-n`` drops the header
line. JSON is ``{key: [{column: value, ...}, ...]}`` with numbers kept as numbers.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterable, Sequence
from itertools import repeat
from typing import Any


def cell(value: Any) -> str:
    """Slurm's parsable cell: blank for None, C's ``%f`` for doubles (``inf`` included)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:f}"
    return str(value)


def parsable(
    columns: Sequence[str], rows: Sequence[Sequence[Any]], trailing: bool, header: bool = True
) -> str:
    end = "|" if trailing else ""
    lines = ["|".join(columns) + end] if header else []
    lines += ["|".join(cell(v) for v in row) + end for row in rows]
    return "\n".join(lines) + ("\n" if lines else "")


def json_value(value: Any) -> Any:
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    return value


def as_json(
    key: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], meta: dict | None = None
) -> str:
    import json  # 1.3 ms (its regexes) that the tables and -P output do without

    doc: dict[str, Any] = {}
    if meta:
        doc["meta"] = meta
    doc[key] = [{c: json_value(v) for c, v in zip(columns, row)} for row in rows]
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"


def is_terminal(stream) -> bool:
    """Whether ``stream`` is a terminal: the one place that asks, for the commands (a rich
    table, tree or plan, a progress bar) and the tables alike, so tests can pretend."""
    return stream.isatty()


def console(stderr: bool = False, record: bool = False):
    """A rich console: colour off with NO_COLOR, on a dumb terminal or when not a
    terminal; as wide as the terminal (``COLUMNS`` first), 160 columns when piped.

    ``record=True`` keeps what is printed for :func:`save_svg` (with its colours even
    when they are not shown).
    """
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    tty = is_terminal(stream)
    width = None if tty else int(os.environ.get("COLUMNS", "160"))
    height = None
    if tty and os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
        # rich sizes a dumb terminal 80x25 whatever COLUMNS says (Emacs' shell sets both)
        import shutil  # here only: it brings bz2, lzma, zlib (1-3 ms a start-up)

        width, height = shutil.get_terminal_size()
    return Console(
        file=stream,
        width=width,
        height=height,
        force_terminal=tty,
        record=record,
        no_color=bool(os.environ.get("NO_COLOR")) or not tty,
        highlight=False,
        soft_wrap=False,
        emoji=False,
    )


def picture(
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    title: str | None = None,
    header: bool = True,
    right: Sequence[bool] | None = None,
):
    """A recording console holding the table as a rich table as wide as its values (for
    :func:`save_svg`); nothing is printed."""
    import io

    from rich.console import Console

    recorded = Console(
        file=io.StringIO(),
        width=_rich_width(widths(columns, column_texts(columns, rows), header)),
        record=True,
        force_terminal=True,
        highlight=False,
        soft_wrap=False,
        emoji=False,
    )
    recorded.print(rich_table(columns, rows, title, header, right=right))
    return recorded


def offline_svg_format() -> str:
    """rich's SVG template without its ``@font-face`` rules, which fetch Fira Code from a
    CDN when the picture is opened: the picture names the font (an installed Fira Code
    is used) and falls back to the viewer's monospace font, and opens offline."""
    import re

    from rich.console import CONSOLE_SVG_FORMAT

    return re.sub(r"\s*@font-face \{\{.*?\}\}", "", CONSOLE_SVG_FORMAT, flags=re.S)


def save_svg(recorded, path: str, title: str) -> None:
    """Save what a ``console(record=True)`` printed as an SVG picture of a terminal that
    needs no network to open."""
    from fscli.errors import InvalidValue

    try:
        recorded.save_svg(path, title=title, code_format=offline_svg_format())
    except OSError as exc:
        raise InvalidValue(f"cannot write the SVG file {path}: {exc.strerror or exc}") from None


def rich_table(
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    title: str | None = None,
    header: bool = True,
    right: Sequence[bool] | None = None,
):
    """A table; the columns ``right`` flags (by position, for titles that repeat) are
    right-aligned."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, box=box.SIMPLE_HEAD, show_header=header, pad_edge=False)
    flags = right if right is not None else [False] * len(columns)
    for column, flag in zip(columns, flags):
        # fold, never "…": a value that does not fit wraps onto the next line
        table.add_column(column, justify="right" if flag else "left", overflow="fold")
    for row in rows:
        table.add_row(*[Text(cell(v)) for v in row])  # Text: "[...]" in data is not markup
    return table


def drop_empty_columns(
    columns: Sequence[str], rows: Sequence[Sequence[Any]], keep: Sequence[str]
) -> tuple[list[str], list[list[Any]]]:
    """For people: columns with no value in any row say nothing, so leave them out."""
    wanted = [i for i, c in enumerate(columns) if c in keep or any(cell(row[i]) for row in rows)]
    return [columns[i] for i in wanted], [[row[i] for i in wanted] for row in rows]


RICH_ROWS = 2000
"""Above this many rows a terminal gets plain aligned text: rich measures every cell of
every row, which costs many times the text itself at 100,000 rows."""
GAP = "  "


def plain(
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    header: bool = True,
    right: Sequence[bool] | None = None,
) -> str:
    """Aligned text with no width limit, for pipes and files: every value whole, numbers
    right-aligned, columns two spaces apart."""
    texts = column_texts(columns, rows)
    return aligned(columns, texts, widths(columns, texts, header), header, right)


def column_texts(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[list[str]]:
    """Each column's cells as text, column by column: at 100,000 rows, ``map`` over a
    column costs a fraction of a Python loop over every cell."""
    if not rows:
        return [[] for _ in columns]
    return [list(map(cell, values)) for values in zip(*rows)]


def widths(columns: Sequence[str], texts: Sequence[Sequence[str]], header: bool) -> list[int]:
    """Each column's width with every value (and the header) whole."""
    return [
        max(len(name) if header else 0, max(map(len, values), default=0))
        for name, values in zip(columns, texts)
    ]


def aligned(
    columns: Sequence[str],
    texts: Sequence[Sequence[str]],
    sizes: Sequence[int],
    header: bool = True,
    right: Sequence[bool] | None = None,
) -> str:
    """The :func:`column_texts` as lines, padded column by column (the last column, when
    left-aligned, is not padded: lines end with their text)."""
    flags = list(right) if right is not None else [False] * len(columns)
    last = len(columns) - 1
    padded: list[Iterable[str]] = []
    for i, (values, width, flag) in enumerate(zip(texts, sizes, flags)):
        if flag:
            padded.append(map(str.rjust, values, repeat(width)))
        else:
            padded.append(values if i == last else map(str.ljust, values, repeat(width)))
    lines = list(map(str.rstrip, map(GAP.join, zip(*padded))))
    if header:
        names = [
            name.rjust(width) if flag else name.ljust(width)
            for name, width, flag in zip(columns, sizes, flags)
        ]
        lines.insert(0, GAP.join(names).rstrip())
    return "\n".join(lines) + ("\n" if lines else "")


def records(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """One block per row, ``Column: value`` a line: for a terminal too narrow for the
    table, since no value may be cut."""
    width = max((len(c) for c in columns), default=0)
    blocks = ["\n".join(f"{c:>{width}}: {cell(v)}" for c, v in zip(columns, row)) for row in rows]
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def _width(sizes: Sequence[int]) -> int:
    """The width of a table of columns ``sizes`` wide, :data:`GAP` apart."""
    return sum(sizes) + len(GAP) * max(0, len(sizes) - 1)


def _rich_width(sizes: Sequence[int]) -> int:
    """The width of a :func:`rich_table` of columns ``sizes`` wide: three cells between
    two columns (a cell of padding either side of the box's divider) and the box's edge
    on either side. Given less, rich folds values onto a second line."""
    return sum(sizes) + 3 * max(0, len(sizes) - 1) + 2


def show(
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    title: str | None = None,
    header: bool = True,
    right: Sequence[bool] | None = None,
) -> None:
    """Print a table for people, never cutting a value.

    Into a pipe or a file: :func:`plain` text. On a terminal: a rich table when it fits
    the width (:data:`RICH_ROWS` rows at most), else plain text when that fits (its
    columns are closer), else one record per row (:func:`records`), and a hint on
    stderr that ``-P`` gives every column in one line.
    """
    right = list(right) if right is not None else [False] * len(columns)
    stream = sys.stdout
    texts = column_texts(columns, rows)
    sizes = widths(columns, texts, header)
    if not is_terminal(stream):
        stream.write(aligned(columns, texts, sizes, header, right))
        return
    width = terminal_width()
    if _rich_width(sizes) <= width and len(rows) <= RICH_ROWS:
        console().print(rich_table(columns, rows, title, header, right=right))
    elif _width(sizes) <= width:
        stream.write(aligned(columns, texts, sizes, header, right))
    else:
        stream.write(records(columns, rows))
        sys.stderr.write(
            f"fscli: the table is wider than the terminal ({width} "
            "columns): one record per row; -P prints a row a line, -o picks "
            "columns\n"
        )


def terminal_width() -> int:
    """The terminal's width as rich sees it (``$COLUMNS`` first), without making a rich
    console: the plain-text path of a big table needs nothing else from rich."""
    import shutil

    return shutil.get_terminal_size().columns
