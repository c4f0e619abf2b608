"""``fscli tree [ACCOUNT]`` — the account tree with shares, usage and fair-share, drawn.

Each node shows its raw and normalized shares, RawUsage, the fair-share factor (users;
LevelFS for Fair Tree accounts) and a bar comparing usage with share at that level:
filled = usage, ``|`` = share; green when under share, red when over. The numbers are
the ones ``fscli sshare`` prints (same engine call).
"""

from __future__ import annotations

import click

from fscli.cli.output import svg_option

BAR = 20


def usage_bar(share: float, usage: float, width: int = BAR) -> str:
    """``███████░░░|░░░░░░░░░`` — usage filled, share marked with ``|``."""
    filled = min(width, round(usage * width))
    mark = min(width - 1, round(share * width))
    cells = ["█" if i < filled else "░" for i in range(width)]
    cells[mark] = "|"
    return "".join(cells)


def node_label(row, algorithm: str) -> str:
    from rich.markup import escape

    from fscli.engine.fairshare import NO_VAL
    from fscli.render.sshare import cell_values

    cells = cell_values(row)
    name = f"[bold]{escape(row.user)}[/]" if row.user else f"[cyan]{escape(row.account)}[/]"
    # Fair Tree compares with siblings (level share vs usage/parent), classic with the cluster.
    usage = (row.effective_usage if algorithm == "fair_tree" or row.norm_usage is None
             else row.norm_usage)
    shares = cells["RawShares"]
    parts = [name, f"shares {shares if shares is not None else '-'} ({row.norm_shares:.4f})",
             f"usage {cells['RawUsage']} ({usage:.4f})"]
    if row.fairshare is not None:
        parts.append(f"fairshare {row.fairshare:.6f}")
    elif row.level_fs is not None and row.level_fs != NO_VAL:
        parts.append(f"levelfs {'inf' if row.level_fs == float('inf') else f'{row.level_fs:.4f}'}")
    if row.raw_shares is None:  # root: nothing to compare with
        return "  ".join(parts)
    colour = "red" if usage > row.norm_shares else "green"
    return "  ".join(parts) + f"  [{colour}]{usage_bar(row.norm_shares, usage)}[/]"


@click.command()
@click.argument("account", required=False)
@click.option("--algorithm", metavar="NAME",
              help="fair_tree|classic|depth_oblivious|linear (default: from PriorityFlags).")
@svg_option
@click.pass_obj
def tree(app, account, algorithm, svg) -> None:
    """Draw the account tree (or ACCOUNT's subtree) with shares, usage and fair-share.

    \b
    Example:
      fscli tree
      fscli --at now-7days tree physics
      fscli tree --svg tree.svg
    """
    from rich.tree import Tree

    from fscli.cli.sshare import share_result
    from fscli.errors import NotFound
    from fscli.render import tables

    state, result, algorithm = share_result(app, algorithm)
    rows = result.rows
    if account:
        start = next((i for i, r in enumerate(rows)
                      if r.user is None and r.account == account.lower()), None)
        if start is None:
            raise NotFound(f"account '{account}' does not exist on cluster {state.cluster.name}")
        end = next((i for i in range(start + 1, len(rows)) if rows[i].depth <= rows[start].depth),
                   len(rows))
        rows = rows[start:end]
    top = Tree(node_label(rows[0], algorithm), guide_style="dim")
    stack = [(rows[0].depth, top)]
    for row in rows[1:]:
        while stack[-1][0] >= row.depth:
            stack.pop()
        stack.append((row.depth, stack[-1][1].add(node_label(row, algorithm))))
    console = tables.console(record=bool(svg))
    console.print(f"cluster {state.cluster.name}, {algorithm}, bar: usage █ vs share |")
    console.print(top)
    if svg:
        from fscli.cli.output import command_line

        tables.save_svg(console, svg, command_line(click.get_current_context()))
