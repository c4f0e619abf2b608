"""The account tree as a rich tree: ``fscli tree``.

Each node shows its raw and normalized shares, RawUsage, the fair-share factor (users;
LevelFS for Fair Tree accounts) and a bar comparing usage with share at that level:
filled = usage, ``|`` = share; green when under share, red when over.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape
from rich.tree import Tree

from fscli.engine.fairshare import NO_VAL, ShareRow
from fscli.render.sshare import cell_values

BAR = 20


def usage_bar(share: float, usage: float, width: int = BAR) -> str:
    """``███████░░░|░░░░░░░░░`` — usage filled, share marked with ``|``."""
    filled = min(width, round(usage * width))
    mark = min(width - 1, round(share * width))
    cells = ["█" if i < filled else "░" for i in range(width)]
    cells[mark] = "|"
    return "".join(cells)


def node_label(row: ShareRow, algorithm: str) -> str:
    """One node's text (rich markup): name, shares, usage, factor, and the bar."""
    cells = cell_values(row)
    name = f"[bold]{escape(row.user)}[/]" if row.user else f"[cyan]{escape(row.account)}[/]"
    # Fair Tree compares with siblings (level share vs usage/parent), classic with the cluster.
    usage = (
        row.effective_usage
        if algorithm == "fair_tree" or row.norm_usage is None
        else row.norm_usage
    )
    shares = cells["RawShares"]
    parts = [
        name,
        f"shares {shares if shares is not None else '-'} ({row.norm_shares:.4f})",
        f"usage {cells['RawUsage']} ({usage:.4f})",
    ]
    if row.fairshare is not None:
        parts.append(f"fairshare {row.fairshare:.6f}")
    elif row.level_fs is not None and row.level_fs != NO_VAL:
        parts.append(f"levelfs {'inf' if row.level_fs == float('inf') else f'{row.level_fs:.4f}'}")
    if row.raw_shares is None:  # root: nothing to compare with
        return "  ".join(parts)
    colour = "red" if usage > row.norm_shares else "green"
    return "  ".join(parts) + f"  [{colour}]{usage_bar(row.norm_shares, usage)}[/]"


def share_tree(rows: Sequence[ShareRow], algorithm: str) -> Tree:
    """``rows`` (sshare order, the first one the top) as a tree of :func:`node_label`s."""
    top = Tree(node_label(rows[0], algorithm), guide_style="dim")
    stack = [(rows[0].depth, top)]
    for row in rows[1:]:
        while stack[-1][0] >= row.depth:
            stack.pop()
        stack.append((row.depth, stack[-1][1].add(node_label(row, algorithm))))
    return top
