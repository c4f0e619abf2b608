"""The account tree, drawn under rich.tree's guides: ``fscli tree``.

Each node shows its raw and normalized shares, RawUsage, the fair-share factor (users;
LevelFS for Fair Tree accounts) and a bar comparing usage with share at that level:
filled = usage, ``|`` = share; green when under share, red when over. The bars form one
column, as wide as a terminal allows, so that they compare at a glance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from fscli.engine.fairshare import NO_VAL, ShareRow, share_columns
from fscli.render.sshare import field_values

if TYPE_CHECKING:
    from rich.text import Text

BAR = 20
"""The bars' width off a terminal (a pipe, a file): fixed, whatever ``$COLUMNS`` says."""
MIN_BAR = 10


def usage_bar(share: float, usage: float, width: int = BAR) -> str:
    """``███████░░░|░░░░░░░░░`` — usage filled, share marked with ``|``."""
    return _bar(min(width, round(usage * width)), min(width - 1, round(share * width)), width)


@cache
def _bar(filled: int, mark: int, width: int) -> str:
    """A bar's cells: a few hundred kinds, built once each, not once per node."""
    cells = "█" * filled + "░" * (width - filled)
    return cells[:mark] + "|" + cells[mark + 1 :]


def node_parts(
    row: ShareRow, algorithm: str, shares: object, raw_usage: object
) -> tuple[str, str, float | None, str]:
    """One node's text in pieces: its name; shares, usage and factor; the usage its bar
    shows and the bar's colour (None and "" for the root: nothing to compare with).
    ``shares`` and ``raw_usage`` are the row's sshare cells
    (:func:`fscli.render.sshare.field_values`)."""
    # Fair Tree compares with siblings (level share vs usage/parent), classic with the cluster.
    usage = (
        row.effective_usage
        if algorithm == "fair_tree" or row.norm_usage is None
        else row.norm_usage
    )
    parts = [
        "",
        f"shares {shares if shares is not None else '-'} ({row.norm_shares:.4f})",
        f"usage {raw_usage} ({usage:.4f})",
    ]
    if row.fairshare is not None:
        parts.append(f"fairshare {row.fairshare:.6f}")
    elif row.level_fs is not None and row.level_fs != NO_VAL:
        parts.append(f"levelfs {'inf' if row.level_fs == float('inf') else f'{row.level_fs:.4f}'}")
    name = row.user or row.account
    if row.raw_shares is None:
        return name, "  ".join(parts), None, ""
    colour = "red" if usage > row.norm_shares else "green"
    return name, "  ".join(parts), usage, colour


GUIDES = ("│   ", "    ")  # rich.tree's: an ancestor with siblings below, or a last child
BRANCHES = ("├── ", "└── ")


def _last_children(depths: Sequence[int]) -> list[bool]:
    """Whether each row (sshare order: depth first) is its parent's last child."""
    last = [True] * len(depths)
    seen: list[bool] = []  # per depth: a later sibling was met (walking backwards)
    for i in range(len(depths) - 1, -1, -1):
        depth = depths[i]
        del seen[depth + 1 :]
        seen += [False] * (depth + 1 - len(seen))
        last[i] = not seen[depth]
        seen[depth] = True
    return last


def share_tree(
    rows: Sequence[ShareRow], algorithm: str, width: int | None = None, styled: bool = True
) -> tuple[Drawing, int]:
    """``rows`` (sshare order, the first one the top) drawn a line per node under
    rich.tree's guides, and the widest line's width. Drawn here, not by
    ``rich.tree.Tree``, which lays out every node apart: 14 s for 100,000 associations.

    The bars form one column: every bar starts two cells after the widest label (guides
    included). On a terminal ``width`` wide the bars take the rest of the line (at least
    :data:`MIN_BAR`); with ``width`` None (not a terminal) they are :data:`BAR` wide.
    Names, numbers and guides are one cell a character, so lengths are widths. Without
    ``styled`` (a pipe: no colour to show) the drawing has no styles (three a node).
    """
    top = rows[0].depth
    depths = [row.depth - top for row in rows]
    columns = share_columns(rows)
    shares, usages = field_values("RawShares", columns), field_values("RawUsage", columns)
    ancestors: list[bool] = []  # per level: that ancestor is its parent's last child
    nodes = []
    for row, depth, last, share, raw in zip(rows, depths, _last_children(depths), shares, usages):
        del ancestors[depth:]
        ancestors.append(last)
        guide = "".join(GUIDES[x] for x in ancestors[1:-1]) + BRANCHES[last] if depth else ""
        nodes.append((row, guide, *node_parts(row, algorithm, share, raw)))
    start = max(len(guide) + len(name) + len(text) for _, guide, name, text, _, _ in nodes) + 2
    bar = BAR if width is None else max(MIN_BAR, width - start - 1)
    lines = [
        f"{guide}{name}{text}"
        if usage is None
        else f"{guide}{name}{text}".ljust(start) + usage_bar(row.norm_shares, usage, bar)
        for row, guide, name, text, usage, _ in nodes
    ]
    styles = _styles(nodes, lines, start, bar) if styled else []
    return Drawing("\n".join(lines), styles), start + bar


def _styles(nodes: list, lines: list[str], start: int, bar: int) -> list[tuple[int, int, str]]:
    """(start, end, style) of each node's guide, name and bar, as offsets into the lines
    joined by line breaks."""
    styles, at = [], 0
    for (row, guide, name, _, usage, colour), line in zip(nodes, lines):
        begin = at + len(guide)
        if guide:
            styles.append((at, begin, "dim"))
        styles.append((begin, begin + len(name), "bold" if row.user else "cyan"))
        if usage is not None:
            styles.append((at + start, at + start + bar, colour))
        at += len(line) + 1
    return styles


@dataclass(frozen=True)
class Drawing:
    """The tree's lines, and their styles as (start, end, style) offsets into them."""

    plain: str
    styles: list[tuple[int, int, str]]

    def text(self) -> Text:
        """The lines with their styles, for a console that shows them (built only then:
        rich's Text reads 100,000 lines slowly)."""
        from rich.text import Span, Text

        return Text(self.plain, spans=[Span(*style) for style in self.styles])
