"""``fscli sprio`` — the priority of every pending job, factor by factor, as sprio prints it.

The store is read once (``store.state``); fair-share factors come from the fair-share
engine in the configured algorithm; ``engine.priority`` computes one row per job and
partition; ``render.sprio`` prints sprio's exact text. On a terminal the plain command
prints a rich table with the same columns; ``-l``, ``-n``, ``-w``, ``-o``, ``-h`` (and any
output into a pipe or file) give sprio's text, ``--json`` the full breakdown and
``--explain JOB`` the derivation of one job's priority.
"""

from __future__ import annotations

import os
import sys

import click

from fscli.cli.change_words import whatif_options
from fscli.cli.complete import ALGORITHM_NAMES, ChoicesCompleter, NamesCompleter


def _ids(texts: tuple[str, ...]) -> list[int]:
    from fscli.errors import InvalidValue

    ids = []
    for item in _names(texts) or ():
        if not (item.isascii() and item.isdigit()):
            raise InvalidValue(f"Invalid job id: {item}")
        ids.append(int(item))
    return ids


def _names(texts: tuple[str, ...]) -> list[str] | None:
    from fscli.cli.words import split_list

    return [name for text in texts for name in split_list(text)] or None


@click.command(context_settings={"ignore_unknown_options": False})
@click.argument("job_args", nargs=-1, metavar="[JOBS]")
@click.option("-l", "--long", "long_", is_flag=True, help="Every factor, and the user (sprio -l).")
@click.option("-n", "--norm", is_flag=True, help="Normalized factors instead of weighted ones.")
@click.option("-w", "--weights", is_flag=True, help="Print the weights, no jobs.")
@click.option(
    "-j",
    "--jobs",
    "jobs",
    multiple=True,
    metavar="LIST",
    shell_complete=NamesCompleter("job", many=True),
    help="Only these job ids.",
)
@click.option(
    "-u",
    "--user",
    "--users",
    "users",
    multiple=True,
    metavar="LIST",
    shell_complete=NamesCompleter("user", many=True),
    help="Only these users' jobs (adds the USER column).",
)
@click.option(
    "-p",
    "--partition",
    "partitions",
    multiple=True,
    metavar="LIST",
    shell_complete=NamesCompleter("partition", many=True),
    help="Only rows of these partitions.",
)
@click.option(
    "-o",
    "--format",
    "fmt",
    metavar="FORMAT",
    help="sprio's %-format: %.15i %9r %.8u %o %n %c %Y/%y %S %A/%a %B/%b %F/%f "
    "%J/%j %P/%p %Q/%q %N %T/%t.",
)
@click.option("-S", "--sort", metavar="SPEC", help="Sort letters, '-' for descending (default i).")
@click.option("-h", "--noheader", is_flag=True, help="No header line.")
@click.option("--json", "as_json", is_flag=True, help="Every factor of every row as JSON.")
@click.option(
    "--explain",
    metavar="JOB",
    type=int,
    shell_complete=NamesCompleter("job"),
    help="How the job's priority is made up.",
)
@click.option(
    "--algorithm",
    metavar="NAME",
    shell_complete=ChoicesCompleter(ALGORITHM_NAMES),
    help="Fair-share algorithm for this call: fair_tree, classic, depth_oblivious, linear.",
)
@whatif_options
@click.option(
    "-P", "--parsable2", "parsable", is_flag=True, help="With --with: '|' between fields."
)
@click.pass_obj
def sprio(
    app,
    job_args,
    long_,
    norm,
    weights,
    jobs,
    users,
    partitions,
    fmt,
    sort,
    noheader,
    as_json,
    explain,
    algorithm,
    whatif,
    parsable,
) -> None:
    """Priority factors of the pending jobs, one row per job and partition (like sprio).

    Output into a pipe, and with -l, -n, -w, -o or -h, is sprio's own text; on a
    terminal the plain command prints a rich table. --at fixes "now" for the age factor.
    SPRIO_FORMAT is used when neither -o nor -l is given.

    \b
    Example:
      fscli sprio -l
      fscli --at 2026-11-21T15:38:38 sprio -j 4,5 -o '%.15i %9r %.10Y %.10F'
      fscli sprio --explain 4
      fscli sprio --with 'qos=high priority=+1000' --with-config PriorityWeightAge=0
    """
    from fscli.engine.priority import explain as explain_row
    from fscli.engine.priority import filter_columns
    from fscli.errors import InvalidValue, NotFound
    from fscli.heap import bulk, keep_until_exit
    from fscli.render import tables
    from fscli.render.sprio import (
        LONG_WITH_FORMAT,
        default_format,
        render_chunks,
        render_json,
        show_table,
    )

    if fmt is not None and long_:
        raise InvalidValue(LONG_WITH_FORMAT)
    if fmt is None and not long_:
        fmt = os.environ.get("SPRIO_FORMAT") or None
    job_ids = _ids(jobs + job_args) or None
    user_list = _names(users)
    if whatif is not None or parsable:
        if whatif is None or explain is not None or fmt or long_ or norm or weights:
            raise InvalidValue("-P goes with --with; --with leaves out --explain, -o, -l, -n, -w")
        selection = (job_ids, user_list, _names(partitions))
        _show_whatif(app, whatif, algorithm, selection, parsable, noheader, as_json)
        return
    result = app.store.priorities(
        app.cluster_name, app.now, algorithm, jobs=job_ids, users=user_list
    )
    keep_until_exit(result)
    for warning in result.warnings:
        click.echo(f"fscli: warning: {warning}", err=True)
    rows = filter_columns(result.columns, job_ids, user_list, _names(partitions))
    if explain is not None:
        chosen = rows.take(i for i, job_id in enumerate(rows.job_id) if job_id == explain).rows
        if not chosen:
            from fscli.api.priorities import why_not_listed

            raise NotFound(why_not_listed(app.store, explain))
        if as_json:
            import json

            from fscli.render.sprio import row_dict, weights_dict

            jobs = [{**row_dict(r), "explain": explain_row(r)} for r in chosen]
            doc = {"cluster": result.cluster, "weights": weights_dict(result.config)}
            click.echo(json.dumps({**doc, "jobs": jobs, "warnings": result.warnings}, indent=2))
        else:
            click.echo("\n\n".join("\n".join(explain_row(r)) for r in chosen))
        return
    if as_json:
        with bulk():
            text = render_json(result.cluster, result.config, rows, result.warnings)
        click.echo(text, nl=False)
        return
    if fmt or long_ or norm or weights or noheader or not tables.is_terminal(sys.stdout):
        with bulk():
            for text in render_chunks(
                rows,
                result.config,
                fmt=fmt,
                long=long_,
                normalized=norm,
                weights=weights,
                header=not noheader,
                sort=sort,
                users=user_list is not None,
            ):
                click.echo(text, nl=False)
        return
    show_table(
        rows, result.config, default_format(result.config, users=user_list is not None), sort=sort
    )


def _show_whatif(app, whatif, algorithm, selection, parsable, noheader, as_json) -> None:
    """sprio's priorities before and after ``whatif``, job by job, with the rank change."""
    from fscli.engine.priority import filter_columns

    answer = app.store.priorities_whatif(whatif, app.cluster_name, app.now, algorithm)
    before, after = answer.before.columns, answer.after.columns
    old = {(j, p): k for k, (j, p) in enumerate(zip(before.job_id, before.partition))}
    new = {(j, p): k for k, (j, p) in enumerate(zip(after.job_id, after.partition))}
    kept = filter_columns(after, *selection)
    rows = []
    for key in zip(kept.job_id, kept.partition):
        k, j = new[key], old[key]
        rows.append(
            (
                *key,
                after.user[k],
                before.priority[j],
                after.priority[k],
                answer.rank_before[j],
                answer.rank_after[k],
            )
        )
    if as_json:
        import json

        from fscli.engine.timestr import utc_iso

        keys = ("job_id", "partition", "user", "priority", "priority_after", "rank", "rank_after")
        jobs = [dict(zip(keys, row), rank_change=row[5] - row[6]) for row in rows]
        meta = {"cluster": answer.after.cluster, "at": utc_iso(app.now), "with": answer.changes}
        click.echo(json.dumps({"meta": meta, "jobs": jobs}, indent=2))
        return
    from fscli.render.whatif import priority_lines

    for line in answer.changes:
        app.say(f"with {line}")
    for text in priority_lines(rows, "P" if parsable else None, not noheader):
        click.echo(text, nl=False)
