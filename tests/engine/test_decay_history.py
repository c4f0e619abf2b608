"""Usage across changes of the settings it depends on (``PriorityConfig.earlier``): each
pass decays at the half-life then in force, a job is billed under the settings of its
start; the closed forms against a pass-by-pass count written out here."""

from __future__ import annotations

import random

import pytest

from fscli.engine.config import PriorityConfig
from fscli.engine.decay_history import DecayHistory
from fscli.engine.model import Charge
from fscli.engine.usage import Run, pass_start_usage, tres_seconds
from tests.engine.adapt import raw_usage, run_usage

PERIOD = 300


def config(*changes: tuple[int, str], now: str = "60") -> PriorityConfig:
    """5-minute passes; PriorityDecayHalfLife (minutes) ``now``, each earlier value
    ``(replaced at, value)``."""
    history = [("PriorityDecayHalfLife", at, value) for at, value in changes]
    return PriorityConfig.from_mapping(
        {"PriorityCalcPeriod": "5", "PriorityDecayHalfLife": now}, history
    )


def per_second(cfg: PriorityConfig, moment: int) -> float:
    """D of the pass (or job end) at ``moment``: a pass at a change's moment ran before it."""
    half_life = next((c for u, c in cfg.earlier if moment <= u), cfg).decay_half_life
    return 1.0 - 0.693 / half_life if half_life else 1.0


def decayed(cfg: PriorityConfig, amount: float, since: int, at: int) -> float:
    """``amount`` charged in the pass at ``since``, at ``at``: times each later pass's decay."""
    top = at // PERIOD * PERIOD
    for moment in range(since + PERIOD, top + 1, PERIOD):
        amount *= per_second(cfg, moment) ** PERIOD
    return amount


def counted(cfg: PriorityConfig, run: Run, at: int) -> float:
    """A run's RawUsage at ``at``, pass by pass (fscli's model: the spec's usage notes)."""
    total, prev = 0.0, run.start
    stop = at if run.end is None or run.end > at else run.end
    moment = (run.start // PERIOD + 1) * PERIOD
    while moment <= stop:
        x = moment - prev
        total += decayed(cfg, run.billing * x * per_second(cfg, moment) ** x, moment, at)
        prev, moment = moment, moment + PERIOD
    if run.end is not None and run.end <= at and run.end > prev:
        x = run.end - prev
        since = run.end // PERIOD * PERIOD
        total += decayed(cfg, run.billing * x * per_second(cfg, run.end) ** x, since, at)
    return total


def test_history_keeps_the_value_in_force_before_each_change():
    cfg = PriorityConfig.from_mapping(
        {"PriorityDecayHalfLife": "30", "TRESBillingWeights": "CPU=3"},
        [
            ("TRESBillingWeights", 2000, "CPU=2"),
            ("PriorityDecayHalfLife", 1000, "10"),
            ("TRESBillingWeights", 500, ""),
        ],
    )
    assert [until for until, _ in cfg.earlier] == [500, 1000, 2000]
    assert [(c.decay_half_life, c.billing_weights) for _, c in cfg.earlier] == [
        (600, {}),
        (600, {"cpu": 2.0}),
        (1800, {"cpu": 2.0}),
    ]
    assert cfg.at(499).billing_weights == {} and cfg.at(500).billing_weights == {"cpu": 2.0}
    assert cfg.at(2000) is cfg
    assert PriorityConfig.from_mapping({"PriorityDecayHalfLife": "30"}).earlier == ()


def test_no_half_life_change_takes_the_fast_path():
    assert DecayHistory.of(config()) is None
    assert DecayHistory.of(config((3000, "60"))) is None  # a change back to the same value
    assert DecayHistory.of(config((3000, "30"))) is not None


def test_charges_decay_under_each_pass_half_life():
    cfg = config((3000, "30"), (6100, "120"))
    charges = [Charge(1, t, 1000.0) for t in (0, 299, 2950, 3000, 3001, 6000, 6200, 9000)]
    at = 12345
    got = raw_usage(charges, at, cfg)
    want = sum(decayed(cfg, c.amount, c.at // PERIOD * PERIOD, at) for c in charges)
    assert got[1] == pytest.approx(want, rel=1e-12)
    # a view before a change decays as the cluster did then
    assert raw_usage(charges, 3000, cfg)[1] == pytest.approx(
        sum(decayed(cfg, c.amount, c.at // PERIOD * PERIOD, 3000) for c in charges if c.at <= 3000)
    )


@pytest.mark.parametrize("seed", range(40))
def test_runs_across_changes_as_counted_pass_by_pass(seed):
    rnd = random.Random(seed)
    changes = sorted(rnd.sample(range(0, 20000), rnd.randint(1, 3)))
    cfg = config(*((c, str(rnd.choice((5, 10, 30, 60, 0)))) for c in changes))
    start = rnd.randint(0, 15000)
    end = rnd.choice((None, start + rnd.randint(0, 8000)))
    run = Run(1, start, end, billing=rnd.choice((1.0, 3.0, 2.5)))
    at = start + rnd.randint(0, 12000)
    assert run_usage(run, at, cfg) == pytest.approx(counted(cfg, run, at), rel=1e-9, abs=1e-9)
    seconds = tres_seconds([(run, {"cpu": 2})], at, cfg).get(1, {}).get("cpu", 0.0)
    assert seconds == pytest.approx(2 * counted(cfg, run, at) / run.billing, rel=1e-9, abs=1e-9)


def test_pass_start_usage_decays_the_runs_by_the_last_pass():
    cfg = config((3000, "30"))
    run = Run(1, 2000, None, 4.0)
    at = 3000 + 50
    before = pass_start_usage({}, [run], at, cfg)[1]
    # runs charged up to the pass before (2700), decayed by the pass at 3000 (old D)
    assert before == pytest.approx(counted(cfg, run, 2999) * per_second(cfg, 3000) ** PERIOD)
