"""``fscli plot KIND -o FILE`` — a chart of what sshare, sprio or bqueues print.

One API call (``Store.chart``) gives the chart's numbers; ``render.plot`` draws them with
matplotlib (the ``[plot]`` extra). The picture's format and matplotlib's presence are
checked before the store is read, so a wrong name costs nothing.
"""

from __future__ import annotations

import click

from fscli.cli.complete import ALGORITHM_NAMES, ChoicesCompleter, NamesCompleter

# option -> the kinds it applies to
OWN_OPTIONS = {
    "start": ("usage", "report"),
    "end": ("usage", "report"),
    "points": ("usage",),
    "accounts": ("usage",),
    "users": ("usage",),
    "top": ("usage", "sprio", "report"),
    "level": ("usage",),
    "all_users": ("shares",),
    "algorithm": ("shares", "sprio"),
    "queue": ("lsf",),
}


@click.command()
@click.argument(
    "kind",
    metavar="KIND",
    shell_complete=ChoicesCompleter(("usage", "shares", "sprio", "lsf", "report")),
)
@click.option("-o", "--output", "path", metavar="FILE", help="The picture: FILE.svg or FILE.png.")
@click.option(
    "--from",
    "start",
    metavar="TIME",
    help="usage: first moment (default: the first usage charged, or now-28days); "
    "report: the window's start (default: yesterday's midnight).",
)
@click.option(
    "--to",
    "end",
    metavar="TIME",
    default="now",
    show_default=True,
    help="usage: last moment; report: the window's end (default: today's midnight).",
)
@click.option(
    "--points",
    type=click.IntRange(2, 500),
    default=15,
    show_default=True,
    help="usage: moments drawn.",
)
@click.option(
    "-A",
    "--accounts",
    metavar="LIST",
    shell_complete=NamesCompleter("account", many=True),
    help="usage: only these accounts.",
)
@click.option(
    "-u",
    "--users",
    metavar="LIST",
    shell_complete=NamesCompleter("user", many=True),
    help="usage: these users' associations.",
)
@click.option(
    "--top",
    type=click.IntRange(0),
    help="usage: the N largest accounts, the rest as 'others' (default 10); "
    "sprio: the N highest-priority jobs (default 40); report: the N top users "
    "(default 10); 0: all.",
)
@click.option(
    "--level",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="usage: the accounts at this depth (1: the root's children); a parent's "
    "usage holds its children's, so levels are not mixed.",
)
@click.option("-a", "--all-users", is_flag=True, help="shares: users too, not only accounts.")
@click.option(
    "--algorithm",
    metavar="NAME",
    shell_complete=ChoicesCompleter(ALGORITHM_NAMES),
    help="shares, sprio: fair_tree|classic|depth_oblivious|linear (default: PriorityFlags).",
)
@click.option(
    "--queue",
    metavar="QUEUE",
    shell_complete=NamesCompleter("queue"),
    help="lsf: the queue (default: the first fairshare one).",
)
@click.pass_context
def plot(ctx, kind, path, **options) -> None:
    """Draw KIND as a chart in FILE (.svg or .png; needs 'pip install fscli[plot]').

    \b
    KIND:
      usage   RawUsage over time of the accounts at --level (-A, -u: which), the
              --top largest and 'others', from the first usage (--from) to --to
      shares  NormShares vs usage of every account (-a: users too), tree order
      sprio   the --top pending jobs' weighted priority factors, stacked, by priority
      lsf     an LSF queue's share holders: shares vs dynamic priority
      report  'report user TopUsage' as bars: the --top users' CPU-hours from
              --from to --to (default: yesterday, as sreport)

    \b
    Example:
      fscli --at 2026-05-01T00:00:00 plot usage --from now-28days -o usage.svg
      fscli plot usage --level 2 --top 8 -o departments.png
      fscli plot shares -a -o shares.png
      fscli plot sprio -o sprio.svg
      fscli plot lsf --queue normal -o lsf.svg
      fscli plot report --from 2026-11-01 --to 2026-12-01 --top 20 -o top.png
    """
    from fscli.api.charts import KINDS
    from fscli.cli.words import split_list
    from fscli.errors import UsageProblem
    from fscli.render import plot as draw

    app = ctx.obj
    if kind not in KINDS:
        raise UsageProblem(f"unknown chart '{kind}': expected one of {', '.join(KINDS)}")
    if not path:
        raise UsageProblem("plot needs -o FILE (.svg or .png)")
    draw.file_format(path)
    draw.require()
    given = {
        name: value
        for name, value in options.items()
        if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
    }
    for name in given:
        if kind not in OWN_OPTIONS[name]:
            flag = next(p.opts[-1] for p in ctx.command.params if p.name == name)
            raise UsageProblem(f"{flag} applies to 'plot {'/'.join(OWN_OPTIONS[name])}' only")
    wanted = {name: options[name] for name in OWN_OPTIONS if kind in OWN_OPTIONS[name]}
    for name in ("accounts", "users"):
        if name in wanted:
            wanted[name] = split_list(wanted[name] or "")
    if "all_users" in wanted:
        wanted["users"] = wanted.pop("all_users")
    if kind == "report" and "end" not in given:
        wanted["end"] = None  # sreport's window: yesterday, unless told
    if wanted.get("top") is None:
        wanted.pop("top", None)  # each kind's own default
    chart = app.store.chart(kind, app.cluster_name, app.now, **wanted)
    draw.save(chart, path)
    app.say(f"wrote {path}: {chart.title}, {len(chart.labels)} points")
