"""``fscli tree [ACCOUNT]`` — the account tree with shares, usage and fair-share, drawn
(``render.tree``) from the rows ``fscli sshare`` prints (same engine call)."""

from __future__ import annotations

import sys

import click

from fscli.cli.change_words import whatif_options
from fscli.cli.complete import ALGORITHM_NAMES, ChoicesCompleter, NamesCompleter
from fscli.cli.output import output_options, svg_option


@click.command()
@click.argument("account", required=False, shell_complete=NamesCompleter("account"))
@click.option(
    "--algorithm",
    metavar="NAME",
    shell_complete=ChoicesCompleter(ALGORITHM_NAMES),
    help="fair_tree|classic|depth_oblivious|linear (default: from PriorityFlags).",
)
@whatif_options
@output_options
@svg_option
@click.pass_obj
def tree(app, account, algorithm, whatif, out, svg) -> None:
    """Draw the account tree (or ACCOUNT's subtree) with shares, usage and fair-share.

    --json gives each association as sshare --json does, its children under "children";
    -p, -P and -n do not apply to a drawing (sshare -a -P gives the rows as text).

    \b
    Example:
      fscli tree
      fscli --at now-7days tree physics
      fscli tree --svg tree.svg
      fscli tree physics --with 'account=physics fairshare=+50'
    """
    from fscli.errors import UsageProblem
    from fscli.heap import keep_until_exit
    from fscli.render import tables
    from fscli.render.tree import share_tree

    if out.parsable or out.noheader:
        raise UsageProblem("tree draws the tree: -p, -P and -n do not apply (use --json)")
    if out.json and svg is not None:
        raise UsageProblem("--svg saves the drawing: leave out --json")
    if out.json and whatif is not None:
        raise UsageProblem("tree --json leaves out --with: sshare --with --json compares the rows")
    if whatif is None:
        answer = app.store.shares(
            app.cluster_name, app.now, algorithm, settings=out.json, extras=out.json
        )
        answers = [("", answer)]
    else:  # the tree as it is, then as it would be: one snapshot, nothing written
        both = app.store.shares_whatif(whatif, app.cluster_name, app.now, algorithm)
        answers = [(", as it is", both.before), (", with " + "; ".join(both.changes), both.after)]
    keep_until_exit(answers)
    if out.json:
        answer = answers[0][1]
        # "tree ''" names no account: an error, not the whole tree
        _emit_json(answer, answer.subtree(account) if account is not None else answer.rows, app.now)
        return
    if svg is None and not tables.is_terminal(sys.stdout):
        # a pipe or a file: the lines whole, as they are, without rich (~40 ms to import)
        for label, answer in answers:
            title, rows = _title(answer, account, label)
            drawn, _ = share_tree(rows, answer.algorithm, None, False)
            sys.stdout.write(f"{title}\n{drawn.plain}\n")
        return
    console = tables.console(record=svg is not None)
    for label, answer in answers:
        _draw(console, answer, account, label)
    if svg is not None:
        from fscli.cli.output import command_line

        tables.save_svg(console, svg, command_line(click.get_current_context()))


def _title(answer, account: str | None, label: str) -> tuple[str, list]:
    """(the title line, the rows) of one answer's tree: ACCOUNT's subtree if given."""
    # "tree ''" names no account: an error, not the whole tree
    rows = answer.subtree(account) if account is not None else answer.rows
    return f"cluster {answer.cluster}, {answer.algorithm}{label}, bar: usage █ vs share |", rows


def _draw(console, answer, account: str | None, label: str) -> None:
    """One answer's tree on ``console`` (a terminal, or recorded for ``--svg``), under its
    title."""
    from fscli.render import tables
    from fscli.render.tree import share_tree

    title, rows = _title(answer, account, label)
    terminal = tables.is_terminal(console.file)
    drawn, width = share_tree(rows, answer.algorithm, console.width if terminal else None, True)
    if not terminal:  # recorded for --svg: every line whole, whatever $COLUMNS says
        console.width = max(console.width, width)
    console.print(title)
    # soft wrap: a line wider than the terminal folds there, whole (rich's wrapping of
    # 100,000 lines would cost seconds)
    console.print(drawn.text(), soft_wrap=True)


def _emit_json(answer, rows, now: int) -> None:
    """The rows of sshare --json, nested: each under its parent's ``children``."""
    import json

    from fscli.engine.timestr import utc_iso
    from fscli.render.sshare import extras_of, json_rows

    top: list[dict] = []
    path: list[dict] = []
    for row, doc in zip(rows, json_rows(rows, extras_of(answer))):
        doc["children"] = []
        del path[row.depth - rows[0].depth :]
        (path[-1]["children"] if path else top).append(doc)
        path.append(doc)
    meta = {"cluster": answer.cluster, "algorithm": answer.algorithm, "at": utc_iso(now)}
    click.echo(json.dumps({"meta": meta, "tree": top}, indent=2))
