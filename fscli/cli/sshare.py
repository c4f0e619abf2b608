"""``fscli sshare`` — every association's fair-share, exactly as Slurm's sshare prints it.

The store is read once (``store.state``), the engine computes, ``render.sshare`` prints:
``-p``/``-P`` give real sshare's parsable text, the default is a rich table with the
same columns, ``--json`` one object per row. ``--explain ASSOC`` prints the derivation of
one association's numbers instead.
"""

from __future__ import annotations

from collections.abc import Iterable

import click

from fscli.cli.change_words import whatif_options
from fscli.cli.complete import (
    ALGORITHM_NAMES,
    ChoicesCompleter,
    NamesCompleter,
    skipped_while_completing,
)
from fscli.cli.output import output_options, svg_option


def extras_of(answer, columns=None):
    """What sshare's renderer needs beside the rows, from the API's answer: the TRES
    run-minutes and usage only when ``columns`` (field names; None = all) show them."""
    from fscli.render.sshare import Extras

    def wanted(name: str) -> bool:
        return columns is None or name in columns

    return Extras(
        answer.cluster,
        answer.tres_names,
        answer.run_minutes if wanted("TRESRunMins") else {},
        answer.tres_usage if wanted("GrpTRESRaw") else {},
    )


@skipped_while_completing  # a TAB parses the words: it must print nothing
def _print_fields(ctx: click.Context, _param, given: bool) -> None:
    """``-e``: print the field list and exit before the store is read (as sshare does);
    an eager option's callback, so it runs before the other options are even checked."""
    if not given:
        return
    from fscli.render.sshare import help_format

    click.echo(help_format(), nl=False)
    ctx.exit(0)


@click.command()
@click.option("-a", "--all", "all_users", is_flag=True, help="Show every user's rows.")
@click.option(
    "-l",
    "--long",
    "long_",
    is_flag=True,
    help="Long format (NormUsage, LevelFS, GrpTRESMins, TRESRunMins).",
)
@click.option(
    "-A",
    "--accounts",
    metavar="ACCOUNTS",
    shell_complete=NamesCompleter("account", many=True),
    help="Only these accounts' rows.",
)
@click.option(
    "-u",
    "--users",
    metavar="USERS",
    shell_complete=NamesCompleter("user", many=True),
    help="Add these users' rows (-1 = all).",
)
@click.option("-U", "--Users", "users_only", is_flag=True, help="Only user rows (with -a or -u).")
@click.option("-m", "--partition", is_flag=True, help="Add the Partition column.")
@click.option(
    "-o",
    "--format",
    "fmt",
    metavar="FORMAT",
    help="Columns, Slurm names and prefixes (Account,User%15,Eff).",
)
@click.option(
    "--algorithm",
    metavar="NAME",
    shell_complete=ChoicesCompleter(ALGORITHM_NAMES),
    help="fair_tree|classic|depth_oblivious|linear (default: from PriorityFlags).",
)
@click.option(
    "--explain",
    metavar="ASSOC",
    shell_complete=NamesCompleter("assoc"),
    help="Explain one association (ACCOUNT or USER/ACCOUNT).",
)
@click.option(
    "--over",
    is_flag=True,
    help="Only associations over their share: LevelFS < 1 (usage among siblings above shares).",
)
@click.option(
    "--sort",
    "sort_spec",
    metavar="FIELD",
    help="Sort rows by a column (RawUsage, FairShare, LevelFS...; -FIELD: descending).",
)
@click.option(
    "-e",
    "--helpformat",
    is_flag=True,
    is_eager=True,
    expose_value=False,
    callback=_print_fields,
    help="List the fields -o takes, and exit.",
)
@whatif_options
@output_options
@svg_option
@click.pass_obj
def sshare(
    app,
    all_users,
    long_,
    accounts,
    users,
    users_only,
    partition,
    fmt,
    algorithm,
    explain,
    whatif,
    over,
    sort_spec,
    out,
    svg,
) -> None:
    """Fair-share of every association as of --at (default now), like Slurm's sshare.

    --over keeps the associations using more than their share at their level: LevelFS < 1
    (Fair Tree's LevelFS; under the other algorithms computed the same way from RawShares
    and RawUsage among siblings). --sort orders the rows by a column (-FIELD: descending).

    \b
    Example:
      fscli sshare -a --over --sort -RawUsage
      fscli sshare -a -l
      fscli sshare -a -P --algorithm classic
      fscli --at now-1day sshare --explain alice/physics
      fscli sshare -a --svg shares.svg
      fscli sshare -a --with 'account=physics fairshare=+50'
      fscli sshare -a --with-config PriorityDecayHalfLife=14-0 --as-if-always
    """
    from fscli.render.sshare import LONG, SHORT, select_fields

    if svg is not None and (explain is not None or out.json or out.parsable):
        from fscli.errors import UsageProblem

        raise UsageProblem("--svg saves the table: leave out -p, -P, --json and --explain")
    if explain is not None and out.parsable:
        from fscli.errors import UsageProblem

        raise UsageProblem("--explain prints a derivation: leave out -p and -P (or use --json)")
    from fscli.api.shares import algorithm_name, column_pieces, row_filter
    from fscli.cli.words import split_list
    from fscli.heap import keep_until_exit

    fields = select_fields(fmt) if fmt else None  # a bad -o fails before the store is read
    algorithm = algorithm_name(algorithm)
    if whatif is not None:
        if explain is not None or svg is not None or over or sort_spec:
            from fscli.errors import UsageProblem

            raise UsageProblem(
                "--with and --with-config leave out --explain, --svg, --over and --sort"
            )
        keep = row_filter(
            all_users, split_list(accounts or ""), split_list(users or ""), users_only
        )
        _show_whatif(app, whatif, algorithm, keep, fmt, long_, partition, out)
        return
    if explain is not None:  # "--explain ''" names no association: an error, not the table
        from fscli.engine.fsexplain import explain as derive

        answer = app.store.shares(app.cluster_name, app.now, algorithm, settings=out.json)
        row = answer.row(explain)
        lines = derive(answer.result, row.assoc_id)
        if out.json:
            emit_json([row], answer.algorithm, extras_of(answer), app.now, explain=lines)
        else:
            click.echo("\n".join(lines))
        return
    # the associations' limits are read only for the one column that shows them
    shown = [f.name for f in fields] if fields else LONG if long_ else SHORT
    settings = out.json or "GrpTRESMins" in shown
    answer = app.store.shares(app.cluster_name, app.now, algorithm, settings=settings)
    keep_until_exit(answer)
    algorithm = answer.algorithm
    fields = fields or select_fields(None, algorithm, long_, partition)
    keep = row_filter(all_users, split_list(accounts or ""), split_list(users or ""), users_only)
    extras = extras_of(answer, None if out.json else {f.name for f in fields})
    if out.parsable and not out.json and not (over or sort_spec):  # a piece at a time
        from fscli.heap import bulk
        from fscli.render.sshare import CHUNK, render_pieces

        pieces = column_pieces(answer, CHUNK, keep)
        with bulk():  # each piece is gone before the next: no collector passes
            for text in render_pieces(pieces, fields, out.parsable, not out.noheader, extras):
                click.echo(text, nl=False)
        return
    rows = keep(answer.rows)
    if over or sort_spec:
        rows = _over_sorted(answer.rows, keep, over, sort_spec)
    if out.parsable and not out.json:
        from fscli.render.sshare import render_text

        click.echo(render_text(rows, fields, out.parsable, not out.noheader, extras), nl=False)
        return
    if out.json:
        emit_json(rows, algorithm, extras, app.now)
    else:
        from fscli.render import tables
        from fscli.render.sshare import table_cells

        columns, cells, right = table_cells(rows, fields, extras)
        title = f"Fair-share on {extras.cluster} ({algorithm})"
        tables.show(columns, cells, title, not out.noheader, right)
        if svg is not None:
            from fscli.cli.output import command_line

            picture = tables.picture(columns, cells, title, not out.noheader, right)
            tables.save_svg(picture, svg, command_line(click.get_current_context()))


def _over_sorted(rows, keep, over: bool, sort_spec: str | None):
    """The rows ``keep`` keeps, with ``--over`` (judged on the whole tree) and ``--sort``."""
    from fscli.engine.over import over as over_rows
    from fscli.engine.over import sort_rows

    if over:
        wanted = {row.assoc_id for row in over_rows(rows)}
        rows = [row for row in rows if row.assoc_id in wanted]
    rows = keep(rows)
    return sort_rows(rows, sort_spec) if sort_spec else rows


def emit_json(rows, algorithm: str, extras, now: int, explain: list[str] | None = None) -> None:
    """``--json``: the rows; with ``--explain``, the one row and its derivation's lines."""
    import json

    from fscli.engine.timestr import utc_iso
    from fscli.render.sshare import json_rows

    doc: dict = {
        "meta": {"cluster": extras.cluster, "algorithm": algorithm, "at": utc_iso(now)},
        "shares": json_rows(rows, extras),
    }
    if explain is not None:
        doc["explain"] = explain
    click.echo(json.dumps(doc, indent=2))


def _sides(answer, whatif, keep) -> tuple[list, list]:
    """The rows before and after that ``keep`` keeps, matched association by association
    when a tree changes which there are (:func:`fscli.render.whatif.aligned`)."""
    before, after = keep(answer.before.rows), keep(answer.after.rows)
    if whatif.tree is None:
        return before, after
    from fscli.render.whatif import aligned

    return aligned(before, after)


def _show_whatif(app, whatif, algorithm, keep, fmt, long_, partition, out) -> None:
    """sshare before and after ``whatif``, side by side (:mod:`fscli.render.whatif`).
    Without a tree both sides have the same associations in the same order, so one
    filter keeps the same rows of each; without one the rows are never made: the text
    comes a piece at a time from the engine's columns, as plain sshare -P's does. With a
    tree the rows are matched by association (:func:`_sides`)."""
    from fscli.api.shares import column_pieces
    from fscli.render.sshare import CHUNK, select_fields

    fields = select_fields(fmt, algorithm or "fair_tree", long_, partition)
    settings = out.json or "GrpTRESMins" in {f.name for f in fields}
    answer = app.store.shares_whatif(
        whatif, app.cluster_name, app.now, algorithm, settings=settings
    )
    fields = select_fields(fmt, answer.after.algorithm, long_, partition)
    shown = None if out.json else {f.name for f in fields}
    extras = (extras_of(answer.before, shown), extras_of(answer.after, shown))
    ranks = (answer.rank_before, answer.rank_after)
    if out.json:
        import json

        from fscli.engine.timestr import utc_iso
        from fscli.render.whatif import share_json

        doc = {
            "meta": {
                "cluster": answer.after.cluster,
                "algorithm": answer.before.algorithm,
                "algorithm_after": answer.after.algorithm,
                "at": utc_iso(app.now),
                "with": answer.changes,
                "as_if_always": whatif.always,
            },
            "shares": share_json(*_sides(answer, whatif, keep), extras, ranks),
        }
        click.echo(json.dumps(doc, indent=2))
        return
    from fscli.heap import bulk
    from fscli.render.whatif import share_lines

    for line in answer.changes:
        app.say(f"with {line}")
    pieces: Iterable = zip(
        column_pieces(answer.before, CHUNK, keep), column_pieces(answer.after, CHUNK, keep)
    )
    if whatif.tree is not None:
        from fscli.render.whatif import aligned_pieces

        pieces = [aligned_pieces(*_sides(answer, whatif, keep))]
    with bulk():
        for text in share_lines(pieces, fields, out.parsable, not out.noheader, extras, ranks):
            click.echo(text, nl=False)
