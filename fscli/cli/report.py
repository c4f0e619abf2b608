"""``fscli report cluster|user REPORT`` — sreport's utilization reports over stored jobs.

The words are sreport's (``start=``, ``end=``, ``Users=``, ``Accounts=``, TopUsage's
``TopCount=`` and ``Group``), so a script's sreport line keeps its meaning; ``-t``,
``--tres``, ``-p``/``-P``/``-n`` print what sreport prints, ``--json`` the rows in seconds.
"""

from __future__ import annotations

import click

from fscli.cli.output import output_options

REPORTS = {
    "cluster": ("AccountUtilizationByUser", "UserUtilizationByAccount"),
    "user": ("TopUsage",),
}
_KEYS = {
    "start": "start",
    "end": "end",
    "user": "users",
    "users": "users",
    "account": "accounts",
    "accounts": "accounts",
    "topcount": "topcount",
}


def _report_name(kind: str, text: str) -> str:
    """The report ``text`` names (any case, or a prefix of one report's name)."""
    from fscli.errors import UsageProblem

    found = [name for name in REPORTS[kind] if name.lower().startswith(text.lower())]
    if len(found) != 1:
        choices = ", ".join(REPORTS[kind])
        raise UsageProblem(f"unknown {kind} report '{text}': expected one of {choices}")
    return found[0]


def _query(report: str, words: tuple[str, ...], tres: str | None, now: int):
    """sreport's condition words as a :class:`~fscli.api.reports.ReportQuery`."""
    from fscli.api.reports import ReportQuery
    from fscli.engine.timestr import parse_slurm_time
    from fscli.engine.tres import tres_order
    from fscli.errors import UsageProblem

    given: dict[str, str] = {}
    group = False
    for word in words:
        key, sep, value = word.partition("=")
        key = key.lower()
        if not sep and key == "group" and report == "TopUsage":
            group = True
        elif sep and key in _KEYS:
            given[_KEYS[key]] = value
        else:
            raise UsageProblem(f"unknown condition '{word}' for {report}")
    if "topcount" in given and report != "TopUsage":
        raise UsageProblem(f"unknown condition 'TopCount={given['topcount']}' for {report}")
    moments = {}
    for key in ("start", "end"):
        if key in given:
            moments[key] = parse_slurm_time(given[key], now)
            if moments[key] is None:
                raise UsageProblem(f"invalid {key} time '{given[key]}'")
    count = given.get("topcount", "10")
    if not count.isdigit() or int(count) < 1:
        raise UsageProblem(f"invalid TopCount '{count}': expected a whole number of 1 or more")
    names = [t.strip().lower() for t in (tres or "cpu").split(",") if t.strip()]
    if not names:
        raise UsageProblem("--tres needs at least one TRES name (cpu, mem, gres/gpu, ...)")
    return ReportQuery(
        report,
        moments.get("start"),
        moments.get("end"),
        tuple(tres_order(set(names))),
        int(count),
        group,
        frozenset(u.lower() for u in given.get("users", "").split(",") if u),
        frozenset(a.lower() for a in given.get("accounts", "").split(",") if a),
    )


def _run(app, kind: str, name: str, words, time_fmt: str, tres: str | None, out) -> None:
    from fscli.api.reports import usage_report
    from fscli.errors import UsageProblem
    from fscli.render.report import MINUTES, report_json, report_text, time_format

    fmt = time_format(time_fmt) if time_fmt else MINUTES
    query = _query(_report_name(kind, name), words, tres, app.now)
    if "node" in query.tres and fmt.percent:
        raise UsageProblem(  # sreport's fatal(): a node's share of the cluster means little
            "TRES node usage is no longer reported in percent format reports.  "
            "Please use TRES CPU instead."
        )
    answer = usage_report(app.store, app.cluster_name, query, app.now)
    if out.json:
        click.echo(report_json(answer), nl=False)
        return
    text = report_text(answer, fmt, tres is not None, out.parsable, not out.noheader)
    click.echo(text, nl=False)


def _report_options(func):
    """A report command's arguments (REPORT, condition words) and options."""
    func = output_options(click.pass_obj(func))
    func = click.option(
        "--tres",
        metavar="NAMES",
        help="Report these TRES (cpu,mem,node,billing,gres/gpu...), one line each.",
    )(func)
    func = click.option(
        "-t",
        "time_fmt",
        metavar="FORMAT",
        help="Seconds, Minutes (default), Hours, Percent, SecPer, MinPer or HourPer.",
    )(func)
    func = click.argument("words", nargs=-1)(func)
    return click.argument("name", metavar="REPORT")(func)


@click.group()
def report() -> None:
    """Usage reports over a period, like sreport, from the stored job records.

    \b
    Examples:
      fscli report cluster AccountUtilizationByUser start=2026-11-01 end=2026-12-01 -t Hours
      fscli report cluster UserUtilizationByAccount -P
      fscli report user TopUsage TopCount=5 Group --tres cpu,gres/gpu
    """


@report.command("cluster")
@_report_options
def cluster(app, name, words, time_fmt, tres, out) -> None:
    """AccountUtilizationByUser or UserUtilizationByAccount over a period.

    \b
    Conditions: start=TIME end=TIME (default: yesterday) Users=U,... Accounts=A,...
    Times round to the hour as sreport rounds them; usage is TRES-seconds of the jobs'
    runs inside the period (running jobs to --at); accounts include their sub-accounts.

    \b
    Example:
      fscli report cluster AccountUtilizationByUser start=2026-11-01 end=2026-12-01 -t Hours
    """
    _run(app, "cluster", name, words, time_fmt, tres, out)


@report.command("user")
@_report_options
def user(app, name, words, time_fmt, tres, out) -> None:
    """TopUsage: the users who used the most over a period.

    \b
    Conditions: start=TIME end=TIME Users=U,... Accounts=A,... TopCount=N (default 10)
    Group (one line per user, all accounts; default one line per user and account).

    \b
    Example:
      fscli report user TopUsage start=now-7days end=now TopCount=5 -P
    """
    _run(app, "user", name, words, time_fmt, tres, out)
