"""Usage decay in Slurm's discrete passes, reset periods, job charging and billing.

Local time is UTC here: tests/conftest.py pins ``TZ`` for the whole session.
"""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscli.engine.config import PriorityConfig, parse_tres_weights
from fscli.engine.model import Charge
from fscli.engine.passes import decay_factor, last_pass
from fscli.engine.usage import (
    Charges,
    Run,
    billable,
    reset_boundary,
)
from tests.engine.adapt import raw_usage, run_usage
from tests.engine.reference_usage import run_charges

DAY = 86400
T0 = 1_700_000_100  # a multiple of 300: a decay pass with the default anchor


def cfg(**values: str) -> PriorityConfig:
    return PriorityConfig.from_mapping(values)


def test_one_half_life_ago_counts_as_slurm_counts_it() -> None:
    conf = cfg()  # half-life 7 days, period 5 minutes
    h = 7 * DAY
    usage = raw_usage([Charge(1, T0, 1000.0)], T0 + h, conf)
    assert usage[1] == pytest.approx(1000.0 * (1 - 0.693 / h) ** h, rel=1e-12)
    assert usage[1] == pytest.approx(500.0, abs=0.1)  # 0.693 ~ ln 2 makes it ~ a half


def test_decay_happens_in_whole_passes() -> None:
    conf = cfg(PriorityCalcPeriod="5", PriorityDecayHalfLife="60")
    d = decay_factor(3600)
    charges = [Charge(1, T0 + 10, 100.0)]
    # same pass: no decay yet; 299 s later still the same pass
    assert raw_usage(charges, T0 + 299, conf)[1] == 100.0
    assert raw_usage(charges, T0 + 300, conf)[1] == pytest.approx(100.0 * d**300)
    assert raw_usage(charges, T0 + 9, conf) == {}  # not charged yet
    anchored = cfg(
        PriorityCalcPeriod="5", PriorityDecayHalfLife="60", PriorityCalcAnchor=str(T0 + 20)
    )
    # passes now fall at T0+20, T0+320, ...: the charge at T0+10 is decayed at T0+20
    assert raw_usage(charges, T0 + 19, anchored)[1] == 100.0
    assert raw_usage(charges, T0 + 20, anchored)[1] == pytest.approx(100.0 * d**300)
    assert last_pass(T0 + 400, 300, T0 + 20) == T0 + 320


def test_no_decay_when_half_life_zero() -> None:
    conf = cfg(PriorityDecayHalfLife="0", PriorityUsageResetPeriod="NONE")
    assert decay_factor(0) == 1.0
    assert raw_usage([Charge(2, T0, 7.0), Charge(2, T0 + 5, 3.0)], T0 + 99 * DAY, conf) == {2: 10.0}


@pytest.mark.parametrize(
    "period,at,boundary",
    [
        ("DAILY", "2026-03-18T15:00:00", "2026-03-18T00:00:00"),
        ("WEEKLY", "2026-03-18T15:00:00", "2026-03-15T00:00:00"),  # a Wednesday -> Sunday
        ("WEEKLY", "2026-03-15T00:00:00", "2026-03-15T00:00:00"),
        ("MONTHLY", "2026-03-18T15:00:00", "2026-03-01T00:00:00"),
        ("QUARTERLY", "2026-05-18T15:00:00", "2026-04-01T00:00:00"),
        ("YEARLY", "2026-05-18T15:00:00", "2026-01-01T00:00:00"),
    ],
)
def test_reset_boundaries_in_local_time(period: str, at: str, boundary: str) -> None:
    from fscli.engine.timestr import parse_when

    assert reset_boundary(period, parse_when(at, 0)) == parse_when(boundary, 0)


def test_reset_boundary_follows_the_local_timezone(monkeypatch) -> None:
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        at = 1_773_849_600  # 2026-03-18T16:00:00Z = 12:00 in New York (EDT)
        assert reset_boundary("DAILY", at) == at - 12 * 3600
    finally:
        monkeypatch.undo()
        time.tzset()
    assert os.environ.get("TZ") != "America/New_York"


def test_reset_period_drops_earlier_usage() -> None:
    conf = cfg(PriorityUsageResetPeriod="DAILY", PriorityDecayHalfLife="0")
    midnight = 1_773_792_000  # 2026-03-18T00:00:00Z
    charges = [
        Charge(1, midnight - 60, 50.0),
        Charge(1, midnight, 5.0),
        Charge(1, midnight + 60, 7.0),
    ]
    assert raw_usage(charges, midnight + 3600, conf) == {1: 7.0}
    # the day before, the earlier charge still counts
    assert raw_usage(charges, midnight - 1, conf) == {1: 50.0}
    now_reset = cfg(PriorityUsageResetPeriod="NOW", PriorityDecayHalfLife="0")
    assert raw_usage(charges, midnight + 3600, now_reset, reset_at=midnight + 30) == {1: 7.0}
    assert raw_usage(charges, midnight + 3600, now_reset) == {1: 62.0}
    assert reset_boundary("NONE", midnight) is None


def test_job_charged_pass_by_pass() -> None:
    conf = cfg(PriorityCalcPeriod="5", PriorityDecayHalfLife="60")
    d = decay_factor(3600)
    run = Run(3, start=T0 + 100, end=T0 + 700, billing=4.0, usage_factor=0.5)
    charges = run_charges(run, T0 + 10_000, conf)
    assert [(c.at, round(c.amount, 9)) for c in charges] == [
        (T0 + 300, round(2.0 * 200 * d**200, 9)),
        (T0 + 600, round(2.0 * 300 * d**300, 9)),
        (T0 + 700, round(2.0 * 100 * d**100, 9)),
    ]
    # still running at T0+650: charged up to the pass at T0+600 only
    assert [c.at for c in run_charges(run, T0 + 650, conf)] == [T0 + 300, T0 + 600]
    assert run_charges(run, T0 + 100, conf) == []


def test_undecayed_job_is_billing_times_seconds() -> None:
    conf = cfg(PriorityDecayHalfLife="0")
    run = Run(1, start=T0 + 17, end=T0 + 17 + 3600, billing=16.0)
    assert run_usage(run, T0 + DAY, conf) == pytest.approx(16 * 3600)
    assert raw_usage([], T0 + DAY, conf, runs=[run]) == {1: pytest.approx(57600.0)}


@settings(max_examples=60, deadline=None)
@given(
    start=st.integers(0, 5000),
    length=st.integers(0, 6000),
    extra=st.integers(0, 4000),
    running=st.booleans(),
    half=st.sampled_from(["0", "30", "600"]),
    reset=st.sampled_from(["NONE", "NOW"]),
    reset_off=st.integers(0, 9000),
)
def test_closed_form_equals_pass_by_pass(
    start, length, extra, running, half, reset, reset_off
) -> None:
    conf = cfg(
        PriorityCalcPeriod="1",
        PriorityDecayHalfLife=half,
        PriorityUsageResetPeriod=reset if half != "0" or reset != "NONE" else "NOW",
    )
    run = Run(1, T0 + start, None if running else T0 + start + length, 2.5, 1.5)
    at = T0 + start + length + extra
    reset_at = T0 + reset_off
    expected = raw_usage(run_charges(run, at, conf), at, conf, reset_at=reset_at).get(1, 0.0)
    assert run_usage(run, at, conf, reset_at=reset_at) == pytest.approx(
        expected, rel=1e-9, abs=1e-9
    )


def test_billable_weights_and_max_tres() -> None:
    alloc = {"cpu": 16, "mem": 64 * 1024, "node": 1, "gres/gpu": 2, "billing": 99}
    assert billable(alloc) == 16.0
    weights = parse_tres_weights("CPU=1.0,Mem=0.25G,GRES/gpu=2.0")
    assert billable(alloc, weights) == pytest.approx(16 + 16 + 4)
    assert billable(alloc, weights, {"MAX_TRES"}) == pytest.approx(16)
    with_license = dict(alloc, **{"license/matlab": 3})
    weights["license/matlab"] = 10.0
    assert billable(with_license, weights, ["MAX_TRES"]) == pytest.approx(16 + 30)


def test_many_charges_are_cheap() -> None:
    conf = cfg()
    charges = [Charge(k % 100, T0 + k * 7, 1.0) for k in range(100_000)]
    at = T0 + 800_000
    usage = raw_usage(charges, at, conf)
    d = decay_factor(7 * DAY)
    expected = [0.0] * 100
    for c in charges:
        expected[c.assoc_id] += c.amount * d ** (last_pass(at, 300) - last_pass(c.at, 300))
    assert usage == pytest.approx(dict(enumerate(expected)), rel=1e-12)


def test_charge_columns_give_the_same_usage_as_charge_objects() -> None:
    conf = cfg(PriorityUsageResetPeriod="DAILY")
    charges = [Charge(k % 7, T0 - 2 * DAY + k * 997, float(k)) for k in range(400)]
    at = T0 + 3600  # charges after it are ignored; the daily reset drops those before T0's day
    expected = {}
    for c in charges:
        if c.at <= at and c.at > reset_boundary("DAILY", at):
            age = last_pass(at, 300) - last_pass(c.at, 300)
            expected[c.assoc_id] = (
                expected.get(c.assoc_id, 0.0) + c.amount * decay_factor(7 * DAY) ** age
            )
    table = Charges.of(charges)
    assert len(table) == 400 and table.at[3] == charges[3].at
    assert raw_usage(table, at, conf) == raw_usage(charges, at, conf) == expected
    assert raw_usage(Charges(), at, conf) == {}
