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
    terminal the plain command prints a rich table. --at fixes "now"; the factors are
    those of the last priority pass before it, as slurmctld sets them (a job waits to
    that pass). SPRIO_FORMAT is used when neither -o nor -l is given.

    \b
    Example:
      fscli sprio -l
      fscli --at 2026-11-21T15:38:38 sprio -j 4,5 -o '%.15i %9r %.10Y %.10F'
      fscli sprio --explain 4
      fscli sprio --with 'qos=high priority=+1000' --with-config PriorityWeightAge=0
    """
    from fscli.api import views as api
    from fscli.cli.output import Output, emit
    from fscli.errors import InvalidValue
    from fscli.render import priority_views as views
    from fscli.render.sprio import LONG_WITH_FORMAT
    from fscli.render.views import View

    if fmt is not None and long_:
        raise InvalidValue(LONG_WITH_FORMAT)
    if fmt is None and not long_:
        fmt = os.environ.get("SPRIO_FORMAT") or None
    job_ids, user_list = _ids(jobs + job_args) or None, _names(users)
    if (whatif is not None or parsable) and (
        whatif is None or explain is not None or fmt or long_ or norm or weights
    ):
        raise InvalidValue("-P goes with --with; --with leaves out --explain, -o, -l, -n, -w")
    query = api.PriorityQuery(algorithm, job_ids, user_list, _names(partitions))
    where = (app.store, app.cluster_name, app.now, query)
    view: View
    if whatif is not None:
        from fscli.render.whatif_views import PriorityWhatIfView

        view = PriorityWhatIfView(api.compare_priorities(*where, whatif))
    elif explain is not None:
        view = views.PriorityExplainView(api.select_priorities(*where, explain))
    else:
        options = {"fmt": fmt, "long": long_, "normalized": norm, "weights": weights}
        options |= {"sort": sort, "users": user_list is not None}
        text_only = bool(fmt or long_ or norm or weights or noheader)
        view = views.PrioritiesView(api.select_priorities(*where), options, text_only)
    if whatif is None:
        from fscli.cli.answers import may_record

        may_record(app, windowed=True)  # within the pass, until a job begins to accrue
    emit(view, Output(as_json, "P" if parsable else None, noheader), say=app.say)
