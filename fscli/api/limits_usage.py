"""The decayed usage GrpTRESMins and GrpWall count, through the pass cache
(:mod:`fscli.store.pass_cache`).

A check under such a limit needs the decayed minutes of the whole cluster: every job and
charge read and decayed (0.8 s of a 0.9 s ``limits check`` at 2,000 accounts, 10,000
users and 22,000 jobs), though they are the same for every association, user and
command within one decay pass and one store state. They are kept once per store
version, cluster and pass, and read back (a few ms) while the pass's moments
(charges, jobs' starts and ends, settings changes, usage resets:
:func:`fscli.api.pass_state.state_moments`) leave them as they were computed. What the
cache holds is what the computation gave, so no output changes by a byte.

Only the stored settings are ever cached: a what-if (``--with``, ``--with-config``)
computes its own and neither reads nor writes the entry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fscli.store.limits.state import Decayed

ENTRY = "limits-usage"
"""The cache entry's name (one per cluster: the newest pass and version wins)."""


def pass_usage(conn, cluster: str | None, at: int) -> Callable[[], Decayed]:
    """What the limit checker calls for the decayed usage of ``cluster`` at ``at``
    (``attach_jobs(usage=...)``), while ``conn``'s read transaction is open: from the
    pass cache when it holds, else computed (and cached)."""

    def usage() -> Decayed:
        from fscli.api.pass_state import pass_span, state_moments
        from fscli.engine.usage import reset_boundary
        from fscli.heap import bulk
        from fscli.store import snapshot
        from fscli.store.answers import next_charge
        from fscli.store.limits.state import Decayed, decayed_usage, usage_state
        from fscli.store.pass_cache import PassCache

        cache = PassCache.of(conn)
        cid = snapshot.cluster_id_for(conn, cluster)
        config = snapshot.load_priority_config(conn, cid)
        span = pass_span(config, at)
        # the usage reset in force as the pass begins and as it ends, in this process's
        # time zone (a calendar reset falls at local midnight)
        resets = tuple(
            reset_boundary(config.usage_reset_period, moment, config.usage_reset_at)
            for moment in (span[0], span[0] + span[1] - 1)
        )
        key = (cid, resets)
        name = f"{ENTRY}-{cid}"
        with bulk():  # 12,000 small dicts at once: no collector pass over them
            cached = cache.get(name, key, at)
        if cached is not None:
            return Decayed(*cached)
        state = usage_state(conn, cluster, at)
        found = decayed_usage(state, at)
        if cache.where is None:  # a server's store, or no stamp: nothing is kept
            return found
        moments = state_moments(state, span)
        later = next_charge(conn, cid, at, span[0] + span[1] - 1)  # read up to ``at`` only
        if later is not None:
            moments.append(later)
        cache.put(name, key, at, span, moments, tuple(found))
        return found

    return usage
