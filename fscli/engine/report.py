"""sreport's utilization reports computed from job records: who used how much in a window.

Real sreport reads slurmdbd's hourly rollups; fscli has the job records themselves, so a
job's share of a window is what the rollup would hold: its allocated TRES count times
the seconds of its run inside the window. An account's usage is its subtree's (Slurm
charges every ancestor). The window is rounded as ``slurmdb_report_set_start_end_time``
rounds it (to the hour: 30 minutes or more rounds up; the default is yesterday, local
midnight to midnight; at least one hour), so the numbers match a report of the same
window taken from the rollups. Only the standard library: plain data in, rows out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from fscli.engine.limits.counting import running_end
from fscli.engine.model import Assoc, Job, Partition
from fscli.engine.tree import display_order, subtree_totals

HOUR = 3600


@dataclass(frozen=True)
class Window:
    """The report's period, ``start`` included, ``end`` excluded (epoch seconds)."""

    start: int
    end: int

    @property
    def seconds(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class UsageRow:
    """One line of a report: an association (``user`` None: an account's own line) or a
    user's accounts (TopUsage with ``group``), and its TRES-seconds in the window."""

    account: str
    user: str | None
    used: dict[str, int]


@dataclass(frozen=True)
class ReportQuery:
    """What a report asks: which report, the window as given (None: sreport's default),
    the TRES (sreport's ``--tres``, ``cpu`` by default), TopUsage's ``TopCount``/``Group``,
    and the users/accounts to keep (empty: all)."""

    report: str
    start: int | None = None
    end: int | None = None
    tres: tuple[str, ...] = ("cpu",)
    top_count: int = 10
    group: bool = False
    users: frozenset[str] = frozenset()
    accounts: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Report:
    """A report's answer: its rows (TRES-seconds), the rounded window, and per TRES the
    cluster's capacity in the window (count x seconds; 0 when the store has no size),
    which sreport's percentages divide by."""

    query: ReportQuery
    cluster: str
    window: Window
    rows: list[UsageRow]
    capacity: dict[str, int]


def _to_hour(moment: datetime) -> datetime:
    """sreport's rounding: seconds >= 30 add a minute, then minutes >= 30 add an hour."""
    minute = moment.minute + (1 if moment.second >= 30 else 0)
    base = moment.replace(minute=0, second=0, microsecond=0)
    return base + timedelta(hours=1) if minute >= 30 else base


def report_window(start: int | None, end: int | None, now: int) -> Window:
    """The window sreport reports for ``start=``/``end=`` (None: not given) at ``now``:
    an end later than now is now; both are rounded to the hour in local time; the default
    is yesterday (midnight to midnight); a window under an hour is stretched to one."""
    today = datetime.fromtimestamp(now).replace(hour=0, minute=0, second=0, microsecond=0)
    stop = today if end is None else _to_hour(datetime.fromtimestamp(min(end, now)))
    begin = today - timedelta(days=1) if start is None else _to_hour(datetime.fromtimestamp(start))
    first, last = int(begin.timestamp()), int(stop.timestamp())
    return Window(first, max(last, first + HOUR))


def _count(job: Job, tres: str) -> int:
    if tres == "cpu":
        return job.tres.get("cpu", job.cpus)
    if tres == "node":
        return job.tres.get("node", job.nodes)
    return job.tres.get(tres, 0)


def job_seconds(
    jobs: Iterable[Job],
    tres: Sequence[str],
    window: Window,
    now: int,
    partitions: Mapping[str, Partition] | None = None,
) -> dict:
    """Per association id, each TRES's allocated seconds inside ``window``: a job that
    started counts from its start to its end; a running job to ``now``, or to its start
    plus the time limit it runs under if that comes first (slurmctld ends it then:
    :func:`fscli.engine.limits.counting.running_end`, with the job's first partition)."""
    out: dict[int, dict[str, int]] = {}
    for job in jobs:
        if job.start is None or job.assoc_id is None:
            continue
        stop = job.end if job.end is not None else _running_stop(job, now, partitions or {})
        secs = min(stop, window.end) - max(job.start, window.start)
        if secs <= 0:
            continue
        used = out.setdefault(job.assoc_id, {})
        for name in tres:
            used[name] = used.get(name, 0) + secs * _count(job, name)
    return out


def _running_stop(job: Job, now: int, partitions: Mapping[str, Partition]) -> int:
    partition = partitions.get(job.partitions[0]) if job.partitions else None
    end = running_end(job.start, job.time_limit, partition)
    return now if end is None else min(now, end)


def _has_usage(used: dict[str, int] | None) -> bool:
    return used is not None and any(used.values())


def account_by_user(assocs: list[Assoc], own: dict[int, dict[str, int]]) -> list[UsageRow]:
    """AccountUtilizationByUser: every association that used something, in the tree's
    order (root first, an account before its users and sub-accounts), an account with
    its subtree's sum. A user's partition associations are one line, as in sreport."""
    parent_of = {a.id: a.parent_id for a in assocs}
    totals = subtree_totals(own, parent_of)
    rows: list[UsageRow] = []
    seen: dict[tuple[str, str | None], int] = {}
    for assoc, _depth in display_order(assocs):
        used = totals.get(assoc.id)
        if not _has_usage(used):
            continue
        key = (assoc.account, assoc.user)
        if key in seen:  # a partition association: add to the user's line
            merged = dict(rows[seen[key]].used)
            for name, secs in (used or {}).items():
                merged[name] = merged.get(name, 0) + secs
            rows[seen[key]] = UsageRow(assoc.account, assoc.user, merged)
            continue
        seen[key] = len(rows)
        rows.append(UsageRow(assoc.account, assoc.user, dict(used or {})))
    return rows


def _by_usage(rows: list[UsageRow], tres: str) -> list[UsageRow]:
    """sreport's ``sort_user_dec``: most used first, then by login."""
    return sorted(rows, key=lambda r: (-r.used.get(tres, 0), r.user or ""))


def user_by_account(assocs: list[Assoc], own: dict[int, dict[str, int]], tres: str) -> list:
    """UserUtilizationByAccount: one line per user and account that used something,
    most used first (by ``tres``)."""
    users = [r for r in account_by_user(assocs, own) if r.user is not None]
    return _by_usage(users, tres)


def top_usage(
    assocs: list[Assoc], own: dict[int, dict[str, int]], tres: str, count: int, group: bool
) -> list[UsageRow]:
    """TopUsage: the ``count`` users (per account, or with ``group`` all of a user's
    accounts on one line, names joined by ", " as sreport joins them) who used the most
    ``tres``."""
    rows = user_by_account(assocs, own, tres)
    if group:
        merged: dict[str, UsageRow] = {}
        for row in sorted(rows, key=lambda r: r.account):
            user = row.user or ""
            before = merged.get(user)
            if before is None:
                merged[user] = row
                continue
            used = dict(before.used)
            for name, secs in row.used.items():
                used[name] = used.get(name, 0) + secs
            merged[user] = UsageRow(f"{before.account}, {row.account}", row.user, used)
        rows = _by_usage(list(merged.values()), tres)
    return rows[:count]
