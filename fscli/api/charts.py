"""The numbers behind ``fscli plot``: each chart as plain series, from the same API calls
the text views make (``Store.shares()`` for sshare, ``Store.priorities()`` for sprio, the
LSF queue's share blocks for ``bqueues -l``), so a chart never shows a number that the
matching view would not print. Drawing is ``render.plot``'s job; a Python caller can use
these series with any plotting library.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from fscli.engine.chart import Chart, Series
from fscli.errors import InvalidValue, NotFound

if TYPE_CHECKING:
    from fscli.api.store import Store

KINDS = ("usage", "shares", "sprio", "lsf", "report")
TOP = 10
"""Series a usage chart draws by default (and sprio's jobs: ``SPRIO_TOP``): beyond them,
lines and colours stop telling accounts apart."""
SPRIO_TOP = 40
DEFAULT_WINDOW = 28 * 86400


def usage_chart(
    store: Store,
    cluster: str | None,
    moments: Sequence[int],
    accounts: Sequence[str] = (),
    users: Sequence[str] = (),
    top: int = TOP,
    level: int = 1,
) -> Chart:
    """sshare's RawUsage of the accounts at ``level`` of the tree (1: the root's children;
    a parent's usage holds its children's, so two levels on one axis count twice), or of
    ``accounts``, or of ``users``' associations, at each of ``moments``: the decay of past
    usage by the half-life shows as the lines fall. The ``top`` largest (by their peak;
    0: all) are drawn, largest first, the rest summed as one line, "others"."""
    from fscli.api.shares import shares_over
    from fscli.engine.timestr import utc_iso

    answers = shares_over(store, cluster, moments)  # one read: the same rows at every moment
    wanted_users = {u.lower() for u in users}
    wanted_accounts = {a.lower() for a in accounts}

    def plotted(row) -> bool:
        if wanted_users:
            return row.user in wanted_users
        if wanted_accounts:
            return row.user is None and row.account in wanted_accounts
        return row.user is None and row.raw_shares is not None and row.depth == level

    rows = [r for r in answers[0].rows if plotted(r)]
    if not rows:
        where = "" if wanted_users or wanted_accounts else f" at level {level}"
        raise NotFound(
            f"nothing to plot: no such association{where} on cluster {answers[0].cluster}"
        )
    usage = [{r.assoc_id: r.raw_usage for r in answer.rows} for answer in answers]
    series = [Series(_name(r), tuple(u[r.assoc_id] for u in usage)) for r in rows]
    return Chart(
        "usage",
        "lines",
        f"RawUsage on cluster {answers[0].cluster} ({answers[0].algorithm})",
        tuple(utc_iso(at)[:16].replace("T", " ") for at in moments),
        largest(series, top),
        "RawUsage (billing TRES-hours, decayed)",
        scale=3600.0,
    )


def largest(series: Sequence[Series], top: int) -> tuple[Series, ...]:
    """The ``top`` series with the highest peak, highest first, then the rest summed as
    ``others`` (``top`` 0: every series, highest first): 40 lines on one axis read as
    none, and colours run out."""
    ranked = sorted(series, key=lambda s: -max(s.values, default=0.0))
    if top <= 0 or len(ranked) <= top:
        return tuple(ranked)
    rest = ranked[top:]
    summed = tuple(sum(values) for values in zip(*(s.values for s in rest)))
    return (*ranked[:top], Series(f"others ({len(rest)})", summed, other=True))


def fitted_start(store: Store, cluster: str | None, end: int) -> int:
    """Where a usage chart starts when no ``--from`` is given: at the first usage the
    cluster was charged (a charge, or a job's start), so that the window holds the data
    and no empty stretch; 28 days before ``end`` when there is none before it."""
    from fscli.store.lists import first_usage
    from fscli.store.snapshot import cluster_id_for

    with store.viewing() as conn:
        first = first_usage(conn, cluster_id_for(conn, cluster))
    return first if first is not None and first < end else end - DEFAULT_WINDOW


def spread(start: int, end: int, points: int) -> list[int]:
    """``points`` moments from ``start`` to ``end``, evenly apart (both ends included)."""
    if points < 2 or end <= start:
        raise InvalidValue("a usage chart needs --from before --to and at least 2 --points")
    return [start + (end - start) * i // (points - 1) for i in range(points)]


def _name(row) -> str:
    """An association as sshare names it: ACCOUNT, or USER/ACCOUNT[/PARTITION]."""
    if row.user is None:
        return row.account
    return "/".join(p for p in (row.user, row.account, row.partition) if p)


def _short_name(row) -> str:
    """An association under its parent in a tree: ACCOUNT, USER, or USER (PARTITION), so
    that a user's partition association is not a second line of the same name."""
    if row.user is None:
        return row.account
    return f"{row.user} ({row.partition})" if row.partition else row.user


def shares_chart(
    store: Store, cluster: str | None, at: int, algorithm: str | None = None, users: bool = False
) -> Chart:
    """sshare's NormShares beside the usage each is compared with at its level (Fair Tree:
    EffectvUsage, the share of the parent's usage; the others: NormUsage), for every
    account (and user, with ``users``) in sshare's order, indented by depth."""
    answer = store.shares(cluster, at, algorithm)
    rows = [r for r in answer.rows if r.raw_shares is not None and (users or r.user is None)]
    level = answer.algorithm == "fair_tree"
    usage_name = "EffectvUsage" if level else "NormUsage"
    return Chart(
        "shares",
        "pairs",
        f"Shares vs usage on cluster {answer.cluster} ({answer.algorithm})",
        tuple("· " * (r.depth - 1) + _short_name(r) for r in rows),
        (
            Series("NormShares", tuple(r.norm_shares for r in rows)),
            Series(
                usage_name,
                tuple((r.effective_usage if level else r.norm_usage) or 0.0 for r in rows),
            ),
        ),
        "fraction",
    )


def sprio_chart(
    store: Store,
    cluster: str | None,
    at: int,
    algorithm: str | None = None,
    top: int = SPRIO_TOP,
) -> Chart:
    """sprio's weighted factors of the ``top`` pending jobs by priority (0: all), highest
    first, one stacked bar each, named JOBID USER (PARTITION): the factors with a
    non-zero weight, then each weighted TRES."""
    from fscli.engine.priority import FACTORS, WEIGHT_KEYS

    answer = store.priorities(cluster, at, algorithm)
    if not answer.rows:
        raise NotFound(f"nothing to plot: no pending job on cluster {answer.cluster}")
    ranked = sorted(answer.rows, key=lambda r: (-r.exact, r.job_id, r.partition))
    rows = ranked[:top] if top > 0 else ranked
    weights = answer.config.weights
    series = [
        Series(name.upper(), tuple(r.weighted_values[i] for r in rows))
        for i, name in enumerate(FACTORS)
        if weights.get(WEIGHT_KEYS[name], 0)
    ]
    tres = dict.fromkeys(n for r in rows for n in r.tres_names)
    series += [
        Series(f"TRES:{name}", tuple(r.tres_weighted.get(name, 0.0) for r in rows)) for name in tres
    ]
    shown = "" if len(rows) == len(ranked) else f" (top {len(rows)} of {len(ranked)})"
    return Chart(
        "sprio",
        "stacked",
        f"Pending jobs' priority factors on cluster {answer.cluster}{shown}",
        tuple(f"{r.job_id} {r.user} ({r.partition})" for r in rows),
        tuple(series),
        "weighted priority",
    )


def lsf_chart(store: Store, cluster: str | None, at: int, queue: str | None = None) -> Chart:
    """``bqueues -l``'s share holders of an LSF queue (default: the highest-priority
    fairshare queue): each holder's SHARES and its dynamic PRIORITY, every level of a
    share tree (holders named by their path below the queue)."""
    from fscli.api.lsf import view

    chosen_view = view(store, [queue] if queue else [], cluster, at, first_fair="plot")
    [chosen] = chosen_view.queues
    blocks = chosen_view.share_info(chosen)
    if not blocks:
        raise InvalidValue(f"LSF queue '{chosen.name}' has no fairshare policy to plot")
    prefix = f"{chosen.name}/"
    holders = [(b.path[len(prefix) :] + r.name, r) for b in blocks for r in b.rows]
    return Chart(
        "lsf",
        "pairs",
        f"LSF queue {chosen.name}: dynamic priority vs shares",
        tuple(name for name, _ in holders),
        (
            Series("SHARES", tuple(float(r.shares) for _, r in holders)),
            Series("PRIORITY", tuple(r.priority for _, r in holders), right=True),
        ),
        "shares",
        "dynamic priority",
    )


def report_chart(
    store: Store,
    cluster: str | None,
    at: int,
    start: int | None = None,
    end: int | None = None,
    top: int = TOP,
) -> Chart:
    """``fscli report user TopUsage``'s rows as bars: the ``top`` users' CPU-hours in the
    window (sreport's: yesterday unless ``start``/``end``), most first, each named USER
    (ACCOUNT) as the report lists them."""
    from fscli.api.reports import usage_report
    from fscli.engine.report import ReportQuery
    from fscli.engine.timestr import utc_iso

    query = ReportQuery("TopUsage", start, end, top_count=top if top > 0 else 1 << 30)
    answer = usage_report(store, cluster, query, at)
    rows = [r for r in answer.rows if r.used.get("cpu", 0)]
    if not rows:
        raise NotFound(
            f"nothing to plot: no job ran on cluster {answer.cluster} from "
            f"{utc_iso(answer.window.start)} to {utc_iso(answer.window.end)}"
        )
    return Chart(
        "report",
        "pairs",
        f"TopUsage on cluster {answer.cluster}, "
        f"{utc_iso(answer.window.start)} - {utc_iso(answer.window.end)}",
        tuple(f"{r.user} ({r.account})" for r in rows),
        (Series("CPU-hours", tuple(float(r.used["cpu"]) for r in rows)),),
        "CPU-hours",
        scale=3600,
    )


def chart(store: Store, kind: str, cluster: str | None, at: int, **options) -> Chart:
    """The chart ``kind`` (one of :data:`KINDS`) at ``at``; ``options`` are the kind's own
    (usage: ``start`` (None: :func:`fitted_start`), ``end``, ``points``, ``accounts``,
    ``users``, ``top``, ``level``; shares: ``algorithm``, ``users``; sprio: ``algorithm``,
    ``top``; lsf: ``queue``; report: ``start``, ``end``, ``top``)."""
    if kind == "usage":
        end = options.pop("end")
        start = options.pop("start", None)
        if start is None:
            start = fitted_start(store, cluster, end)
        moments = spread(start, end, options.pop("points"))
        return usage_chart(store, cluster, moments, **options)
    makers: dict[str, Callable[..., Chart]] = {
        "shares": shares_chart,
        "sprio": sprio_chart,
        "lsf": lsf_chart,
        "report": report_chart,
    }
    if kind not in makers:
        raise InvalidValue(f"unknown chart '{kind}': expected one of {', '.join(KINDS)}")
    return makers[kind](store, cluster, at, **options)
