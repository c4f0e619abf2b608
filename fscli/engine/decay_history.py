"""Usage decay across changes of PriorityDecayHalfLife: each pass at the half-life then.

slurmctld's decay thread multiplies all usage, at each pass, by ``D ** run_delta`` with
the ``D`` of the half-life in force at that pass (a reconfigure changes it for the passes
after); a job's new usage is ``x * D ** x`` with that pass's ``D``. So usage charged before
a change has decayed under the old half-life up to it, and decays under the new one from
then: nothing is re-priced. :class:`DecayHistory` holds the passes' factors segment by
segment (from :attr:`fscli.engine.config.PriorityConfig.earlier`); the store's usage
without such a change never builds one (:mod:`fscli.engine.usage` keeps its fast path).
"""

from __future__ import annotations

from collections.abc import Sequence

from fscli.engine.config import PriorityConfig
from fscli.engine.passes import decay_factor, geometric, last_pass


class DecayHistory:
    """Per-second decay factors by pass: the passes after ``bounds[i - 1]`` up to
    ``bounds[i]`` (pass moments) decay by ``factors[i]``, those after the last bound by
    ``factors[-1]``; ``untils[i]`` is the moment the half-life of ``factors[i]`` was replaced."""

    __slots__ = ("untils", "bounds", "factors", "period")

    def __init__(
        self, untils: Sequence[int], bounds: Sequence[int], factors: Sequence[float], period: int
    ):
        self.untils, self.bounds, self.factors, self.period = (
            list(untils),
            list(bounds),
            list(factors),
            period,
        )

    @classmethod
    def of(cls, cfg: PriorityConfig) -> DecayHistory | None:
        """The history of ``cfg``'s half-life; None when it never changed (fast path)."""
        if not cfg.earlier:
            return None
        period, anchor = cfg.calc_period, cfg.calc_anchor
        untils = [until for until, _ in cfg.earlier]
        factors = [decay_factor(then.decay_half_life) for _, then in cfg.earlier]
        factors.append(decay_factor(cfg.decay_half_life))
        if len(set(factors)) == 1:
            return None
        # the passes up to the change decay at the replaced half-life (a pass at the
        # change's moment ran before it), the later ones at the new one
        bounds = [last_pass(until, period, anchor) for until in untils]
        return cls(untils, bounds, factors, period)

    def d_at(self, moment: int) -> float:
        """The per-second decay factor of a pass (or a job's end) at ``moment``: the
        replaced one up to and at the moment of the change."""
        for until, d in zip(self.untils, self.factors):
            if moment <= until:
                return d
        return self.factors[-1]

    def _segments(self):
        """(after, up to, factor) per segment of passes; None = unbounded."""
        lo = None
        for bound, d in zip(self.bounds, self.factors):
            yield lo, bound, d
            lo = bound
        yield lo, None, self.factors[-1]

    def between(self, p0: int, p1: int) -> float:
        """What the passes after ``p0`` up to ``p1`` (pass moments) multiply usage by."""
        out = 1.0
        for lo, hi, d in self._segments():
            a = p0 if lo is None else max(p0, lo)
            b = p1 if hi is None else min(p1, hi)
            if b > a:
                out *= d ** (b - a)
        return out

    def run_seconds(
        self, start: int, first: int, last: int, stop: int, ended: bool, charged_end: bool, top: int
    ) -> float:
        """:meth:`fscli.engine.usage._RunCharger.seconds` across half-life changes: the
        decayed seconds at pass ``top`` of a run from ``start``, charged at the passes
        ``first`` to ``last`` and (``ended`` and ``charged_end``) at its end ``stop``."""
        period = self.period
        total = 0.0
        if first <= last:
            x = first - max(start, first - period)
            d = self.d_at(first)
            total += x * d**x * self.between(first, top)
            for lo, hi, d in self._segments():  # the passes after ``first``, segment by segment
                a = first if lo is None else max(first, lo)
                b = last if hi is None else min(last, hi)
                if b > a:
                    q = d**period
                    total += period * q * self.between(b, top) * geometric(q, (b - a) // period)
        if ended and charged_end:
            x = stop - max(start, last)
            if x > 0:
                d = self.d_at(stop)
                total += x * d**x * self.between(last, top)
        return total
