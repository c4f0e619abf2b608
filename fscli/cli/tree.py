"""``fscli tree [ACCOUNT]`` — the account tree with shares, usage and fair-share, drawn
(``render.tree``) from the rows ``fscli sshare`` prints (same engine call)."""

from __future__ import annotations

import click

from fscli.cli.output import svg_option


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
    from fscli.cli.sshare import share_result
    from fscli.errors import NotFound
    from fscli.render import tables
    from fscli.render.tree import share_tree

    state, result, algorithm = share_result(app, algorithm)
    rows = result.rows
    if account is not None:  # "tree ''" names no account: an error, not the whole tree
        start = next((i for i, r in enumerate(rows)
                      if r.user is None and r.account == account.lower()), None)
        if start is None:
            raise NotFound(f"account '{account}' does not exist on cluster {state.cluster.name}")
        end = next((i for i in range(start + 1, len(rows)) if rows[i].depth <= rows[start].depth),
                   len(rows))
        rows = rows[start:end]
    console = tables.console(record=svg is not None)
    console.print(f"cluster {state.cluster.name}, {algorithm}, bar: usage █ vs share |")
    console.print(share_tree(rows, algorithm))
    if svg is not None:
        from fscli.cli.output import command_line

        tables.save_svg(console, svg, command_line(click.get_current_context()))
