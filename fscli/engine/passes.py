"""Slurm's decay passes: when they fall and what one second of decay multiplies by.

slurmctld's decay thread runs every ``PriorityCalcPeriod`` from an anchor; usage
(:mod:`fscli.engine.usage`), half-life changes (:mod:`fscli.engine.decay_history`), run
minutes and limit checks all count time in these passes, so the arithmetic lives here,
below all of them.
"""

from __future__ import annotations

import math


def decay_factor(half_life: int) -> float:
    """Slurm's per-second decay ``1 - 0.693 / H`` (a first-order 2**(-1/H)); 1.0 when H = 0."""
    return 1.0 - 0.693 / half_life if half_life > 0 else 1.0


def last_pass(t: int, period: int, anchor: int = 0) -> int:
    """The last decay pass at or before ``t``."""
    return anchor + (t - anchor) // period * period


def geometric(q: float, m: int) -> float:
    """1 + q + ... + q**(m-1)."""
    return float(m) if q == 1.0 else -math.expm1(m * math.log(q)) / (1.0 - q)
