"""The least whole number at which a monotone condition holds: the what-if solvers'
search (RawShares that reach a FairShare, the moment a usage has decayed to a value)."""

from __future__ import annotations

from collections.abc import Callable


def least(holds: Callable[[int], bool], low: int, high: int) -> int | None:
    """The least ``n`` in ``[low, high]`` for which ``holds(n)``, where ``holds`` is false
    then true (never false again) over that range; None when ``holds(high)`` is false.
    ``holds`` is called about log2(high - low) times."""
    if not holds(high):
        return None
    while low < high:
        middle = (low + high) // 2
        if holds(middle):
            high = middle
        else:
            low = middle + 1
    return low


def first_bound(holds: Callable[[int], bool], start: int, step: int, limit: int) -> int | None:
    """A value ``start + step * 2**k`` (k = 0, 1, ...) at which ``holds``, at most ``limit``;
    None if none up to ``limit``: the upper end for :func:`least` when none is known."""
    value = start + step
    while value < limit:
        if holds(value):
            return value
        step *= 2
        value = start + step
    return limit if holds(limit) else None
