"""A job's usage charged pass by pass, as slurmctld's decay thread charges it: the reference
that the engine's closed form (``fscli.engine.usage``, O(1) per job) is checked against.

At each decay pass during the run the job is charged ``billing * UsageFactor * x * D**x``,
``x`` the seconds since the previous pass (or since its start), and at its end the same
for the remainder; ``D`` is the decay factor of the pass (of the half-life then in force
when it changed: :class:`~fscli.engine.decay_history.DecayHistory`). Decaying these
charges to a moment (``raw_usage``) gives the job's RawUsage then.
"""

from __future__ import annotations

from fscli.engine.config import PriorityConfig
from fscli.engine.decay_history import DecayHistory
from fscli.engine.model import Charge
from fscli.engine.passes import decay_factor, last_pass
from fscli.engine.usage import Run


def run_charges(run: Run, at: int, cfg: PriorityConfig) -> list[Charge]:
    """The charges slurmctld makes for a job up to ``at``, pass by pass."""
    if run.start >= at:
        return []
    ended = run.end is not None and run.end <= at
    stop = run.end if run.end is not None and ended else at
    period, anchor = cfg.calc_period, cfg.calc_anchor
    d = decay_factor(cfg.decay_half_life)
    history = DecayHistory.of(cfg) if cfg.earlier else None
    rate = run.billing * run.usage_factor
    charges = []
    prev = run.start
    moment = last_pass(run.start, period, anchor) + period
    while moment <= stop:
        x = moment - prev
        if history is not None:
            d = history.d_at(moment)
        charges.append(Charge(run.assoc_id, moment, rate * x * d**x))
        prev = moment
        moment += period
    if ended and stop > prev:
        x = stop - prev
        if history is not None:
            d = history.d_at(stop)
        charges.append(Charge(run.assoc_id, stop, rate * x * d**x))
    return charges
