"""A cluster's fair-share factors through the pass cache (:mod:`fscli.store.pass_cache`).

``sprio`` needs, of the whole tree, only each user association's fair-share factor and
the associations' few columns job priority reads; both are kept once per store version,
cluster, algorithm and pass, and read back (a few ms at 10,000 users) instead of being
recomputed (0.1-0.2 s there). What the cache holds is what the computation gave, so the
output never changes by a byte.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fscli.engine.cluster_state import ClusterState
    from fscli.engine.config import PriorityConfig

PRIORITY_ENTRY = "factors"
"""The cache entry sprio reads (one per cluster; the newest pass and version wins)."""


def pass_span(config: PriorityConfig, at: int) -> tuple[int, int]:
    """(start, length) of the decay pass ``at`` falls in."""
    from fscli.engine.passes import last_pass

    return last_pass(at, config.calc_period, config.calc_anchor), config.calc_period


def state_moments(state: ClusterState, span: tuple[int, int]) -> list[int]:
    """Every moment of the pass ``span`` at which the fair-share state can change: charges,
    jobs' starts and ends (running jobs' time limits too), settings changes, usage resets.
    (One look at each charge and job: 100,000 jobs cost a few ms, not a call each.)"""
    from fscli.engine.cluster_state import job_end
    from fscli.engine.usage import reset_boundary

    start, period = span
    last = start + period - 1
    config = state.config

    def within(moments) -> list[int]:
        return [m for m in moments if m is not None and start <= m <= last]

    jobs = state.jobs
    moments = within(state.charges.at)
    moments += within(job.start for job in jobs)
    moments += within(job.end for job in jobs)
    moments += within(job_end(state, job) for job in jobs if job.state == "running")
    moments += within(until for until, _ in config.earlier)
    reset = reset_boundary(config.usage_reset_period, last, config.usage_reset_at)
    return moments + within((config.usage_reset_at, reset))


def priority_factors(conn, state: ClusterState, at: int, algorithm: str):
    """(associations, fair-share factor per user association id) of ``state``'s cluster at
    ``at``, from the pass cache, else computed (and cached). ``state`` comes without its
    tree (``load_state(tree=False)``) and with ``conn``'s transaction still open."""
    from fscli.engine.cluster_state import CHARGED, fairshare
    from fscli.engine.model import AssocColumns
    from fscli.heap import bulk
    from fscli.store.pass_cache import PassCache
    from fscli.store.snapshot import NO_LIMITS, load_jobs
    from fscli.store.state import load_tree

    cache = PassCache.of(conn)
    span = pass_span(state.config, at)
    key = (state.cluster_id, algorithm, reset_key(state.config, span))
    with bulk():  # 20,000 objects at once: no collector passes over them as they come
        entry = cache.entry(PRIORITY_ENTRY, key, at)
    if entry is not None:
        cached, moments = entry
        note_window(at, moments, span)
        return AssocColumns(cached["assocs"], ((), None, NO_LIMITS)), cached["fs"]
    with bulk():  # 100,000 jobs: the collector would rescan them as they are made
        load_tree(conn, state, span[0] + span[1] - 1, settings=False)
        state.jobs = load_jobs(conn, state.cluster_id, states=CHARGED)
    moments = state_moments(state, span)
    with bulk():
        factors = fairshare(state, at, algorithm, last=True).fs_factor
    note_window(at, moments, span)
    assocs = state.assocs
    if isinstance(assocs, AssocColumns):
        columns = [assocs.field(name) for name in _COLUMNS]
        cache.put(PRIORITY_ENTRY, key, at, span, moments, {"assocs": columns, "fs": factors})
    return assocs, factors


def note_window(at: int, moments: list[int], span: tuple[int, int]) -> None:
    """While the answer cache records (:mod:`fscli.api.answers`), the stretch of the pass
    in which what was computed from the pass's state holds (``moments``: every one of
    the pass, charges included)."""
    from fscli.api import answers

    if answers.listening():
        answers.note_window(*window_around(at, moments, span))


_COLUMNS = ("id", "parent_id", "account", "user", "partition", "shares", "priority")
"""The columns of the associations read without settings (``load_assocs``)."""


def reset_key(config: PriorityConfig, span: tuple[int, int]) -> int | None:
    """The usage reset in force as the pass begins (in this process's time zone: a
    calendar reset falls at local midnight)."""
    from fscli.engine.usage import reset_boundary

    return reset_boundary(config.usage_reset_period, span[0], config.usage_reset_at)


def answer_window(conn, state: ClusterState, at: int) -> tuple[int, int]:
    """``[lo, hi)``: the moments at which ``state``'s cluster reads as it does at ``at``,
    every fair-share figure the same (the answer cache's window: :mod:`fscli.api.answers`).
    ``state`` holds the charges made up to ``at``; a later one of the pass is asked of
    ``conn``, in the same read transaction."""
    from fscli.store.answers import next_charge

    span = pass_span(state.config, at)
    moments = state_moments(state, span)
    later = next_charge(conn, state.cluster_id, at, span[0] + span[1] - 1)
    if later is not None:
        moments.append(later)
    return window_around(at, moments, span)


def window_around(at: int, moments: list[int], span: tuple[int, int]) -> tuple[int, int]:
    """The moments of the pass ``span`` for which :func:`fscli.store.pass_cache.still_valid`
    holds what was computed at ``at``, as one interval ``[lo, hi)``: from just after the
    last of ``moments`` before ``at`` to the first after it (``at`` alone when it is one)."""
    start, period = span
    if at in moments:
        return at, at + 1
    lo = max((m for m in moments if m < at), default=start - 1) + 1
    hi = min((m for m in moments if m > at), default=start + period)
    return max(lo, start), min(hi, start + period)
