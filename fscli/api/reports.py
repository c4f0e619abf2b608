"""``fscli report``: sreport's utilization reports over the stored job records.

Reads the cluster's associations and the jobs that ran (``job`` table: ``job submit``
and ``usage import --format sacct`` rows), asks :mod:`fscli.engine.report` for the rows
and returns them with what sreport's header and percentages need (the window, the
cluster's size per TRES). Usage charged with ``usage add``/``usage set`` is a billing
amount at a moment, with no TRES and no run time: it is not a job record, and no report
counts it (as sreport does not count what slurmdbd never saw as a job).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fscli.engine.report import Report, ReportQuery

if TYPE_CHECKING:
    from fscli.api.store import Store


def usage_report(store: Store, cluster: str | None, query: ReportQuery, now: int) -> Report:
    """The report ``query`` asks for on the cluster at ``now``."""
    from fscli.engine import report as engine
    from fscli.store import snapshot

    window = engine.report_window(query.start, query.end, now)
    with store.viewing() as conn:
        cid = snapshot.cluster_id_for(conn, cluster)
        info = snapshot.load_cluster(conn, cid)
        assocs = list(snapshot.load_assocs(conn, cid, settings=False))
        jobs = snapshot.load_jobs(conn, cid, states=("running", "completed", "cancelled"))
        partitions = snapshot.load_partitions(conn, cid)
    own = engine.job_seconds(jobs, query.tres, window, now, partitions)
    first = query.tres[0]
    if query.report == "AccountUtilizationByUser":
        rows = engine.account_by_user(assocs, own)
    elif query.report == "UserUtilizationByAccount":
        rows = engine.user_by_account(assocs, own, first)
    else:  # the filters choose whose usage competes for the top places
        wanted = [a for a in assocs if _kept(a.user, a.account, query)]
        rows = engine.top_usage(wanted, own, first, query.top_count, query.group)
    rows = [r for r in rows if _kept(r.user, r.account, query)]
    size = {"cpu": info.cpus or 0, "node": info.nodes or 0, **info.tres}
    capacity = {name: size.get(name, 0) * window.seconds for name in query.tres}
    return Report(query, info.name, window, rows, capacity)


def _kept(user: str | None, account: str, query: ReportQuery) -> bool:
    if query.users and user is not None and user not in query.users:
        return False
    return not query.accounts or bool(query.accounts & set(account.split(", ")))
