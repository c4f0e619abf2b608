"""Raw usage with Slurm's discrete decay, usage resets and job charging.

slurmctld's decay thread runs every ``PriorityCalcPeriod``: at pass times
``P_k = anchor + k * period`` it multiplies every association's usage by
``D ** (P_k - P_{k-1})`` with ``D = 1 - 0.693 / PriorityDecayHalfLife`` (per second; no
decay when the half-life is 0), then charges running jobs. So a charge of ``a`` made at
time ``t`` counts ``a * D ** (P(T) - P(t))`` at time ``T``, where ``P(x)`` is the last pass
at or before ``x`` (:func:`raw_usage`). ``PriorityUsageResetPeriod`` drops every charge
made at or before the last reset boundary (:func:`reset_boundary`, local time).

A job (:class:`Run`) is charged the way slurmctld charges it: at each pass during its
run ``billing * x * D**x * UsageFactor`` with ``x`` the seconds since the previous pass
(or since its start), and at its end the same for the remainder. :class:`_RunCharger`
sums those charges in closed form, so long jobs cost O(1) (the pass-by-pass charges it
is checked against are ``tests/engine/reference_usage.py``).
:func:`billable` is Slurm's billing TRES of an allocation.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from fscli.engine.config import PriorityConfig
from fscli.engine.model import Charge
from fscli.engine.passes import decay_factor, geometric, last_pass
from fscli.errors import InvalidValue

_NODE_TRES = ("cpu", "mem", "node")


class Run(NamedTuple):
    """A job's allocation as charged: ``billing`` per second, ``end`` None = still running."""

    assoc_id: int
    start: int
    end: int | None
    billing: float
    usage_factor: float = 1.0


@dataclass(frozen=True, slots=True)
class Charges:
    """Charges as three columns (position ``k`` is one charge): what the store loads and
    what :func:`raw_usage` takes (charges made one by one come in through :meth:`of`)."""

    assoc_id: Sequence[int] = ()
    at: Sequence[int] = ()
    amount: Sequence[float] = ()

    def __len__(self) -> int:
        return len(self.at)

    @classmethod
    def of(cls, charges: Iterable[Charge]) -> Charges:
        items = list(charges)
        return cls([c.assoc_id for c in items], [c.at for c in items], [c.amount for c in items])


class _Powers(dict):
    """``d ** (top - k * period)`` per pass number ``k``, computed once per pass (charges
    share passes): the decay at ``top`` of a charge made in pass ``k``."""

    def __init__(self, d: float, top: int, period: int):
        super().__init__()
        self.d, self.top, self.period = d, top, period

    def __missing__(self, k: int) -> float:
        value = self[k] = self.d ** (self.top - k * self.period)
        return value


class _HistoryPowers(dict):
    """:class:`_Powers` across half-life changes (:mod:`fscli.engine.decay_history`)."""

    def __init__(self, history, top: int, period: int, anchor: int):
        super().__init__()
        self.history, self.top, self.period, self.anchor = history, top, period, anchor

    def __missing__(self, k: int) -> float:
        value = self[k] = self.history.between(self.anchor + k * self.period, self.top)
        return value


def _decay_history(cfg: PriorityConfig):
    """The half-life's history (:class:`fscli.engine.decay_history.DecayHistory`), or None
    when it never changed after usage: the fast path."""
    if not cfg.earlier:
        return None
    from fscli.engine.decay_history import DecayHistory

    return DecayHistory.of(cfg)


def reset_boundary(period: str, at: int, reset_at: int | None = None) -> int | None:
    """The last PriorityUsageResetPeriod boundary at or before ``at`` (local time), or None.

    ``NOW`` resets once, when it was configured: pass that moment as ``reset_at``.
    """
    period = period.upper()
    if period == "NONE":
        return None
    if period == "NOW":
        return reset_at if reset_at is not None and reset_at <= at else None
    local = datetime.fromtimestamp(at)
    day = datetime(local.year, local.month, local.day)
    if period == "DAILY":
        start = day
    elif period == "WEEKLY":  # Sunday 00:00; Python's Monday is 0
        start = day - timedelta(days=(day.weekday() + 1) % 7)
    elif period == "MONTHLY":
        start = day.replace(day=1)
    elif period == "QUARTERLY":
        start = day.replace(month=(day.month - 1) // 3 * 3 + 1, day=1)
    elif period == "YEARLY":
        start = day.replace(month=1, day=1)
    else:
        raise InvalidValue(f"invalid PriorityUsageResetPeriod '{period}'")
    return int(start.timestamp())


def _cutoff(cfg: PriorityConfig, at: int, reset_at: int | None) -> int | None:
    return reset_boundary(cfg.usage_reset_period, at, reset_at)


def raw_usage(
    charges: Charges,
    at: int,
    cfg: PriorityConfig,
    runs: Iterable[Run] = (),
    reset_at: int | None = None,
) -> dict[int, float]:
    """RawUsage per association at time ``at`` from charges (and job runs) made to it.

    A charge at ``t`` is decayed by ``D ** (P(at) - P(t))`` with ``P(t) = anchor + k * period``
    (its pass, ``k = (t - anchor) // period``); the powers are computed once per pass.
    """
    ids, ats, amounts = charges.assoc_id, charges.at, charges.amount
    period, anchor = cfg.calc_period, cfg.calc_anchor
    p_at = last_pass(at, period, anchor)
    cutoff = _cutoff(cfg, at, reset_at)
    if ats and (max(ats) > at or (cutoff is not None and min(ats) <= cutoff)):
        keep = [k for k, t in enumerate(ats) if t <= at and (cutoff is None or t > cutoff)]
        ids, ats, amounts = (
            [ids[k] for k in keep],
            [ats[k] for k in keep],
            [amounts[k] for k in keep],
        )
    history = _decay_history(cfg)
    powers = (
        _Powers(decay_factor(cfg.decay_half_life), p_at - anchor, period)
        if history is None
        else _HistoryPowers(history, p_at, period, anchor)
    )
    shifted = map(operator.sub, ats, itertools.repeat(anchor)) if anchor else ats
    factors = map(powers.__getitem__, map(operator.floordiv, shifted, itertools.repeat(period)))
    out: dict[int, float] = {}
    get = out.get
    for assoc_id, amount, factor in zip(ids, amounts, factors):
        out[assoc_id] = get(assoc_id, 0.0) + amount * factor
    _add_runs(out, runs, _RunCharger(at, cfg, reset_at, cutoff))
    return out


def with_runs(
    charged: Mapping[int, float],
    runs: Iterable[Run],
    at: int,
    cfg: PriorityConfig,
    reset_at: int | None = None,
) -> dict[int, float]:
    """``charged`` (:func:`raw_usage` of charges alone) plus the runs: ``raw_usage`` with
    them, in the same order of additions."""
    out = dict(charged)
    _add_runs(out, runs, _RunCharger(at, cfg, reset_at))
    return out


def _add_runs(
    out: dict[int, float], runs: Iterable[Run], charger: _RunCharger, scale: float = 1.0
) -> None:
    """Add each run's RawUsage as ``charger`` counts it (times ``scale``) to ``out``."""
    for run in runs:
        amount = run.billing * run.usage_factor * charger.seconds(run) * scale
        if amount:
            out[run.assoc_id] = out.get(run.assoc_id, 0.0) + amount


def pass_start_usage(
    charged: Mapping[int, float],
    runs: Iterable[Run],
    at: int,
    cfg: PriorityConfig,
    reset_at: int | None = None,
) -> dict[int, float]:
    """RawUsage per association as it stood when the last pass at or before ``at`` began,
    before that pass charged the running jobs: ``charged`` (:func:`raw_usage` of the
    charges alone at ``at``) plus each run as charged up to the pass before.

    Only ratios of these numbers are used (NormUsage), and a pass decays every association
    alike, so the runs are decayed to the same pass as the charges (one more period). A
    reset applies as at ``at``: slurmctld resets at the start of the pass.
    """
    out = dict(charged)
    p_at = last_pass(at, cfg.calc_period, cfg.calc_anchor)
    charger = _RunCharger(p_at - 1, cfg, reset_at, _cutoff(cfg, at, reset_at))
    history = _decay_history(cfg)
    one_pass = (
        decay_factor(cfg.decay_half_life) ** cfg.calc_period
        if history is None
        else history.between(p_at - cfg.calc_period, p_at)
    )
    _add_runs(out, runs, charger, one_pass)
    return out


def _charged_span(run: Run, at: int) -> tuple[int, bool] | None:
    """(last charged moment, ended by then) or None when nothing is charged by ``at``."""
    if run.start >= at:
        return None
    if run.end is not None and run.end < run.start:
        raise InvalidValue(f"job of association {run.assoc_id} ends before it starts")
    ended = run.end is not None and run.end <= at
    return (run.end if ended else at), ended  # type: ignore[return-value]


class _RunCharger:
    """Jobs' RawUsage at one moment, each in closed form: what depends only on the moment
    and the configuration (decay factor, passes, reset boundary) is worked out once, not once
    per job (100,000 jobs spent half their time there)."""

    __slots__ = (
        "at",
        "d",
        "d_period",
        "period",
        "anchor",
        "p_at",
        "cutoff",
        "first_after_reset",
        "history",
    )

    def __init__(
        self,
        at: int,
        cfg: PriorityConfig,
        reset_at: int | None = None,
        cutoff: int | None | bool = False,
    ):
        """``cutoff``: the reset boundary to apply if already known (False: ``at``'s)."""
        self.at, self.period, self.anchor = at, cfg.calc_period, cfg.calc_anchor
        self.d = decay_factor(cfg.decay_half_life)
        self.d_period = self.d**self.period
        self.history = _decay_history(cfg)
        self.p_at = last_pass(at, self.period, self.anchor)
        self.cutoff = _cutoff(cfg, at, reset_at) if cutoff is False else cutoff
        self.first_after_reset = (
            None
            if self.cutoff is None
            else last_pass(self.cutoff, self.period, self.anchor) + self.period
        )

    def seconds(self, run: Run) -> float:
        """The decayed seconds of ``run`` charged by ``at`` (times billing and UsageFactor:
        its RawUsage)."""
        span = _charged_span(run, self.at)
        if span is None:
            return 0.0
        stop, ended = span
        d, period, anchor, p_at, cutoff = self.d, self.period, self.anchor, self.p_at, self.cutoff
        first = last_pass(run.start, period, anchor) + period
        if self.first_after_reset is not None:  # set exactly when there is a cutoff
            first = max(first, self.first_after_reset)
        last = last_pass(stop, period, anchor)
        if self.history is not None:
            charged_end = cutoff is None or stop > cutoff
            return self.history.run_seconds(run.start, first, last, stop, ended, charged_end, p_at)
        total = 0.0
        if first <= last:
            x = first - max(run.start, first - period)
            total += x * d**x * d ** (p_at - first)
            more = (last - first) // period
            if more:
                total += (
                    period * self.d_period * d ** (p_at - last) * geometric(self.d_period, more)
                )
        if ended and (cutoff is None or stop > cutoff):
            x = stop - max(run.start, last)
            if x > 0:
                total += x * d**x * d ** (p_at - last)
        return total


def tres_seconds(
    runs: Iterable[tuple[Run, Mapping[str, int]]],
    at: int,
    cfg: PriorityConfig,
    reset_at: int | None = None,
) -> dict[int, dict[str, float]]:
    """Decayed TRES-seconds per association charged to itself by job runs, each paired with
    its allocation (Slurm's ``usage_tres_raw``): the run's decayed seconds (times its
    UsageFactor, as :func:`raw_usage` charges them) times each TRES count.

    Billing and energy are left out: fscli's RawUsage is the billing usage (charges made
    without a job count there too), and a job holds no energy.
    """
    out: dict[int, dict[str, float]] = {}
    charger = _RunCharger(at, cfg, reset_at)
    for run, alloc in runs:
        seconds = run.usage_factor * charger.seconds(run)
        if not seconds:
            continue
        own = out.setdefault(run.assoc_id, {})
        for name, count in alloc.items():
            if count and name not in ("billing", "energy"):
                own[name] = own.get(name, 0.0) + count * seconds
    return out


def billable(
    tres_alloc: Mapping[str, float],
    weights: Mapping[str, float] | None = None,
    flags: Iterable[str] = (),
) -> float:
    """Billing TRES of an allocation (``calc_job_billable_tres``).

    No weights: the allocated CPUs. Otherwise the weighted sum (``billing`` itself
    excluded); with ``MAX_TRES`` only the largest of the node TRES (cpu, mem, node,
    gres/*) counts, plus every other TRES. Memory is in MB, weights per MB.
    """
    if not weights:
        return float(tres_alloc.get("cpu", 0))
    max_tres = "MAX_TRES" in set(flags)
    node_part = 0.0
    other = 0.0
    for name, count in tres_alloc.items():
        if name == "billing":
            continue
        value = weights.get(name, 0.0) * count
        if max_tres and (name in _NODE_TRES or name.startswith("gres/")):
            node_part = max(node_part, value)
        else:
            other += value
    return node_part + other
