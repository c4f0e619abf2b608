"""The numbers behind ``fscli plot``: each chart as plain series, from the same API calls
the text views make (``Store.shares()`` for sshare, ``Store.priorities()`` for sprio, the
LSF queue's share blocks for ``bqueues -l``), so a chart never shows a number that the
matching view would not print. Drawing is ``render.plot``'s job; a Python caller can use
these series with any plotting library.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fscli.engine.chart import Chart, Series
from fscli.errors import InvalidValue, NotFound

if TYPE_CHECKING:
    from fscli.api.store import Store

KINDS = ("usage", "shares", "sprio", "lsf")


def usage_chart(
    store: Store,
    cluster: str | None,
    moments: Sequence[int],
    accounts: Sequence[str] = (),
    users: Sequence[str] = (),
) -> Chart:
    """sshare's RawUsage of each account (or of ``users``' associations) at each of
    ``moments``: the decay of past usage by the half-life shows as the lines fall."""
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
        return row.user is None and row.raw_shares is not None  # every account but root

    rows = [r for r in answers[0].rows if plotted(r)]
    if not rows:
        raise NotFound(f"nothing to plot: no such association on cluster {answers[0].cluster}")
    usage = [{r.assoc_id: r.raw_usage for r in answer.rows} for answer in answers]
    return Chart(
        "usage",
        "lines",
        f"RawUsage on cluster {answers[0].cluster} ({answers[0].algorithm})",
        tuple(utc_iso(at)[:16].replace("T", " ") for at in moments),
        tuple(Series(_name(r), tuple(u[r.assoc_id] for u in usage)) for r in rows),
        "RawUsage (decayed TRES-seconds)",
    )


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
        tuple("· " * (r.depth - 1) + (r.user or r.account) for r in rows),
        (
            Series("NormShares", tuple(r.norm_shares for r in rows)),
            Series(
                usage_name,
                tuple((r.effective_usage if level else r.norm_usage) or 0.0 for r in rows),
            ),
        ),
        "fraction",
    )


def sprio_chart(store: Store, cluster: str | None, at: int, algorithm: str | None = None) -> Chart:
    """sprio's weighted factors of every pending job (JOBID/PARTITION), one stacked bar
    each: the factors with a non-zero weight, then each weighted TRES."""
    from fscli.engine.priority import FACTORS, WEIGHT_KEYS

    answer = store.priorities(cluster, at, algorithm)
    if not answer.rows:
        raise NotFound(f"nothing to plot: no pending job on cluster {answer.cluster}")
    weights = answer.config.weights
    series = [
        Series(name.upper(), tuple(r.weighted_values[i] for r in answer.rows))
        for i, name in enumerate(FACTORS)
        if weights.get(WEIGHT_KEYS[name], 0)
    ]
    tres = dict.fromkeys(n for r in answer.rows for n in r.tres_names)
    series += [
        Series(f"TRES:{name}", tuple(r.tres_weighted.get(name, 0.0) for r in answer.rows))
        for name in tres
    ]
    return Chart(
        "sprio",
        "stacked",
        f"Pending jobs' priority factors on cluster {answer.cluster}",
        tuple(f"{r.job_id}/{r.partition}" for r in answer.rows),
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


def chart(store: Store, kind: str, cluster: str | None, at: int, **options) -> Chart:
    """The chart ``kind`` (one of :data:`KINDS`) at ``at``; ``options`` are the kind's own
    (usage: ``start``, ``end``, ``points``, ``accounts``, ``users``; shares: ``algorithm``,
    ``users``; sprio: ``algorithm``; lsf: ``queue``)."""
    if kind == "usage":
        moments = spread(options.pop("start"), options.pop("end"), options.pop("points"))
        return usage_chart(store, cluster, moments, **options)
    makers = {"shares": shares_chart, "sprio": sprio_chart, "lsf": lsf_chart}
    if kind not in makers:
        raise InvalidValue(f"unknown chart '{kind}': expected one of {', '.join(KINDS)}")
    return makers[kind](store, cluster, at, **options)
