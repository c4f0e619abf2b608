"""sreport 22.05's text for ``fscli report``: the header block, the columns, the numbers.

Following ``src/sreport`` (read, not copied): an 80-dash block names the report, its
window (``start - end-1 (N secs)``, local time) and the unit; the table is Slurm's
``print_fields`` (:func:`fscli.render.sacctmgr.table`); the usage columns are 8 wide up to
99,999,999 seconds and one wider per further digit of the largest usage *in seconds*
(9 more for the ``...Per`` formats), whatever unit is shown. Minutes and hours are
rounded as C's ``%.0lf`` rounds (half to even), percentages of the cluster's capacity
in the window show two decimals. sreport prints the user's GECOS name under "Proper
Name"; the store knows no such name, so the column is empty.
"""

from __future__ import annotations

from dataclasses import dataclass

from fscli.engine.report import Report
from fscli.engine.timestr import format_when, utc_iso
from fscli.errors import InvalidValue
from fscli.render.sacctmgr import Column, table

DASHES = "-" * 80


@dataclass(frozen=True)
class TimeFormat:
    """sreport's ``-t``: the divisor of seconds (0: none shown), whether a percentage is
    shown, and the words of the header's "Usage reported in" line."""

    name: str
    divisor: int
    percent: bool
    label: str


# (name, letters a prefix needs, format), in the order sreport tries them
_FORMATS = (
    ("SecPer", 6, TimeFormat("SecPer", 1, True, "Seconds/Percentage of Total")),
    ("MinPer", 6, TimeFormat("MinPer", 60, True, "Minutes/Percentage of Total")),
    ("HourPer", 6, TimeFormat("HourPer", 3600, True, "Hours/Percentage of Total")),
    ("Seconds", 1, TimeFormat("Seconds", 1, False, "Seconds")),
    ("Minutes", 1, TimeFormat("Minutes", 60, False, "Minutes")),
    ("Hours", 1, TimeFormat("Hours", 3600, False, "Hours")),
    ("Percent", 1, TimeFormat("Percent", 0, True, "Percentage of Total")),
)
MINUTES = _FORMATS[4][2]


def time_format(text: str) -> TimeFormat:
    """sreport's ``-t`` value: a case-insensitive prefix of a format's name, at least as
    long as sreport asks (``min``, ``h``, ``minper``)."""
    low = text.lower()
    for name, least, fmt in _FORMATS:
        if name.lower().startswith(low) and len(low) >= least:
            return fmt
    choices = ", ".join(name for name, _least, _fmt in _FORMATS)
    raise InvalidValue(f"unknown time format '{text}': expected one of {choices}")


_TITLES = {
    "AccountUtilizationByUser": "Cluster/Account/User Utilization",
    "UserUtilizationByAccount": "Cluster/User/Account Utilization",
}
_NAMES = {"Cluster": 9, "Account": 15, "Login": 9, "Proper Name": 15, "TRES Name": 14}


def _value(secs: int, total: int, fmt: TimeFormat) -> str:
    """``slurmdb_report_print_time``'s text for ``secs`` of ``total`` (0 counts as 1)."""
    share = f"{secs / (total or 1) * 100:.2f}%"
    if fmt.divisor == 0:
        return share
    amount = str(secs) if fmt.divisor == 1 else f"{secs / fmt.divisor:.0f}"
    return f"{amount}({share})" if fmt.percent else amount


def _usage_width(largest: int, fmt: TimeFormat) -> int:
    width, order = 8, 100_000_000
    while largest >= order and width < 25:
        width, order = width + 1, order * 10
    return width + (9 if fmt.percent and fmt.divisor else 0)


def _titles(report: Report, tres_given: bool) -> list[str]:
    """The columns in sreport's default order (``Cl,L,P,A,...`` for the user reports)."""
    who = (
        ["Account", "Login", "Proper Name"]
        if report.query.report == "AccountUtilizationByUser"
        else ["Login", "Proper Name", "Account"]
    )
    return ["Cluster", *who, *(["TRES Name", "Used"] if tres_given else ["Used", "Energy"])]


def report_text(
    report: Report, fmt: TimeFormat, tres_given: bool, parsable: str | None, header: bool
) -> str:
    """The report as sreport prints it (``parsable``: ``p``/``P``; ``header``: not ``-n``)."""
    titles = _titles(report, tres_given)
    largest = max((max(r.used.values(), default=0) for r in report.rows), default=0)
    columns = [
        Column(t, _NAMES[t]) if t in _NAMES else Column(t, _usage_width(largest, fmt), cut=False)
        for t in titles
    ]
    if "Energy" in titles:  # no energy is recorded: its column is as narrow as it gets
        columns[-1] = Column("Energy", _usage_width(0, fmt))
    lines = []
    for row in report.rows:
        for tres in report.query.tres if tres_given else report.query.tres[:1]:
            cells = {
                "Cluster": report.cluster,
                "Account": row.account,
                "Login": row.user or "",
                "Proper Name": "",
                "TRES Name": tres,
                "Used": _value(row.used.get(tres, 0), report.capacity.get(tres, 0), fmt),
                "Energy": _value(0, 0, fmt),
            }
            lines.append([cells[t] or ("" if parsable else " ") for t in titles])
    text = table(columns, lines, parsable, header)
    return (_header(report, fmt, tres_given) if header else "") + text


def _header(report: Report, fmt: TimeFormat, tres_given: bool) -> str:
    query, window = report.query, report.window
    title = _TITLES.get(query.report, f"Top {query.top_count} Users")
    span = f"{format_when(window.start)} - {format_when(window.end - 1)}"
    unit = fmt.label if fmt.divisor == 0 else f"{'TRES' if tres_given else 'CPU'} {fmt.label}"
    lines = [DASHES, f"{title} {span} ({window.seconds} secs)", f"Usage reported in {unit}"]
    return "\n".join([*lines, DASHES, ""])


def report_json(report: Report) -> str:
    """The report as JSON (docs/json.md): one object per row keyed by sreport's ``-P``
    column names, ``Used`` in TRES-seconds per TRES, ``Percent`` the share of the
    cluster's capacity in the window (null when the store does not know its size); the
    report, its window (UTC) and TRES in ``meta``."""
    from fscli.render.tables import as_json

    tres = report.query.tres

    def percent(secs: int, name: str) -> float | None:
        total = report.capacity.get(name, 0)
        return round(secs / total * 100, 4) if total else None

    rows = [
        (
            report.cluster,
            row.account,
            row.user,
            {t: row.used.get(t, 0) for t in tres},
            {t: percent(row.used.get(t, 0), t) for t in tres},
        )
        for row in report.rows
    ]
    meta = {
        "report": report.query.report,
        "cluster": report.cluster,
        "start": utc_iso(report.window.start),
        "end": utc_iso(report.window.end),
        "seconds": report.window.seconds,
        "tres": list(tres),
    }
    return as_json("report", ["Cluster", "Account", "Login", "Used", "Percent"], rows, meta)
