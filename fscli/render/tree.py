"""The account tree as a rich tree: ``fscli tree``.

Each node shows its raw and normalized shares, RawUsage, the fair-share factor (users;
LevelFS for Fair Tree accounts) and a bar comparing usage with share at that level:
filled = usage, ``|`` = share; green when under share, red when over. The bars form one
column, as wide as a terminal allows, so that they compare at a glance.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape
from rich.text import Text
from rich.tree import Tree

from fscli.engine.fairshare import NO_VAL, ShareRow
from fscli.render.sshare import cell_values

BAR = 20
"""The bars' width off a terminal (a pipe, a file): fixed, whatever ``$COLUMNS`` says."""
MIN_BAR = 10
GUIDE = 4  # rich's tree guide takes four cells a level ("├── ")


def usage_bar(share: float, usage: float, width: int = BAR) -> str:
    """``███████░░░|░░░░░░░░░`` — usage filled, share marked with ``|``."""
    filled = min(width, round(usage * width))
    mark = min(width - 1, round(share * width))
    cells = ["█" if i < filled else "░" for i in range(width)]
    cells[mark] = "|"
    return "".join(cells)


def compared_usage(row: ShareRow, algorithm: str) -> float:
    """The usage a node's share is compared with: Fair Tree compares with siblings (usage
    of the parent's), classic with the cluster."""
    if algorithm == "fair_tree" or row.norm_usage is None:
        return row.effective_usage
    return row.norm_usage


def node_label(row: ShareRow, algorithm: str) -> str:
    """One node's text (rich markup): name, shares, usage and factor."""
    cells = cell_values(row)
    name = f"[bold]{escape(row.user)}[/]" if row.user else f"[cyan]{escape(row.account)}[/]"
    shares = cells["RawShares"]
    parts = [
        name,
        f"shares {shares if shares is not None else '-'} ({row.norm_shares:.4f})",
        f"usage {cells['RawUsage']} ({compared_usage(row, algorithm):.4f})",
    ]
    if row.fairshare is not None:
        parts.append(f"fairshare {row.fairshare:.6f}")
    elif row.level_fs is not None and row.level_fs != NO_VAL:
        parts.append(f"levelfs {'inf' if row.level_fs == float('inf') else f'{row.level_fs:.4f}'}")
    return "  ".join(parts)


def node_bar(row: ShareRow, algorithm: str, width: int) -> str:
    """The node's bar (markup): green under its share, red over it; none for root."""
    if row.raw_shares is None:  # root: nothing to compare with
        return ""
    usage = compared_usage(row, algorithm)
    colour = "red" if usage > row.norm_shares else "green"
    return f"[{colour}]{usage_bar(row.norm_shares, usage, width)}[/]"


def levels(rows: Sequence[ShareRow]) -> list[int]:
    """Each row's level below the first row (the tree's top is level 0)."""
    out = [0]
    stack = [rows[0].depth]
    for row in rows[1:]:
        while stack[-1] >= row.depth:
            stack.pop()
        out.append(len(stack))
        stack.append(row.depth)
    return out


def share_tree(
    rows: Sequence[ShareRow], algorithm: str, width: int | None = None
) -> tuple[Tree, int]:
    """``rows`` (sshare order, the first one the top) as a tree, and its widest line.

    The bars form one column: each label is padded so that every bar starts where the
    widest label (guides included) ends, plus two cells. On a terminal ``width`` wide the
    bars take the rest of the line (at least :data:`MIN_BAR`); with ``width`` None (not a
    terminal) they are :data:`BAR` wide, and the caller prints lines as wide as they are.
    """
    level = levels(rows)
    labels = [node_label(row, algorithm) for row in rows]
    ends = [GUIDE * n + Text.from_markup(label).cell_len for n, label in zip(level, labels)]
    column = max(ends) + 2
    bar = BAR if width is None else max(MIN_BAR, width - column - 1)
    lines = [
        label + " " * (column - end) + node_bar(row, algorithm, bar)
        if row.raw_shares is not None
        else label
        for row, label, end in zip(rows, labels, ends)
    ]
    top = Tree(lines[0], guide_style="dim")
    stack = [top]
    for n, line in zip(level[1:], lines[1:]):
        del stack[n:]
        stack.append(stack[-1].add(line))
    return top, column + bar
