"""TRES run-minutes (sshare's TRESRunMins): what running jobs still hold, pass by pass."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fscli.engine.runmins import Allocation, held_seconds, run_minutes

PERIOD = 300


def job(
    start: int = 1000, limit: int | None = 60, uf: float = 1.0, assoc: int = 3, **tres: int
) -> Allocation:
    return Allocation(assoc, start, limit, tres or {"cpu": 2}, uf)


def test_held_seconds_stand_still_between_passes() -> None:
    j = job(start=1000)  # passes at 1200, 1500, ...
    assert held_seconds(j, 1000, PERIOD) == 3600
    assert held_seconds(j, 1199, PERIOD) == 3600  # no pass since the start
    assert held_seconds(j, 1200, PERIOD) == 3400
    assert held_seconds(j, 1499, PERIOD) == 3400
    assert held_seconds(j, 1500, PERIOD) == 3100


def test_held_seconds_follow_the_anchor() -> None:
    j = job(start=1000)  # passes at 938, 1238, ...
    assert held_seconds(j, 1237, PERIOD, anchor=38) == 3600
    assert held_seconds(j, 1300, PERIOD, anchor=38) == 3600 - 238


def test_nothing_is_held_past_the_time_limit() -> None:
    j = job(start=1000, limit=10)  # ends at 1600, between the passes at 1500 and 1800
    assert held_seconds(j, 1500, PERIOD) == 100
    assert held_seconds(j, 1800, PERIOD) == 0
    assert held_seconds(j, 99_000, PERIOD) == 0


def test_usage_factor_truncates_each_step_like_slurms_integers() -> None:
    j = job(start=1000, limit=1, uf=0.5)  # 60 s limit -> 30 held
    assert held_seconds(j, 1000, PERIOD) == 30
    j = job(start=1001, limit=60, uf=0.5)  # first step 199 s -> 99, not 99.5
    assert held_seconds(j, 1200, PERIOD) == 1800 - 99
    assert held_seconds(j, 1500, PERIOD) == 1800 - 99 - 150


def test_no_time_limit_is_slurms_infinite() -> None:
    assert (
        held_seconds(job(start=1000, limit=None), 1200, PERIOD) == 0xFFFFFFFF * 60 - 200
    )  # Slurm's INFINITE, in minutes


@given(
    st.integers(0, 10_000),
    st.integers(0, 500),
    st.integers(0, 40_000),
    st.sampled_from([1.0, 0.5, 2.0, 0.0, 1.7]),
    st.integers(1, 900),
    st.integers(0, 899),
)
def test_held_seconds_equal_the_pass_by_pass_counter(start, limit, at, uf, period, anchor):
    """The closed form against slurmctld's loop: add at start, take back at every pass."""
    held = int(limit * 60 * uf)
    end = start + limit * 60
    previous = start
    k = (start - anchor) // period + 1
    while anchor + k * period <= at:
        moment = anchor + k * period
        if previous < end:
            held -= int((min(moment, end) - previous) * uf)
        previous = moment
        k += 1
    j = Allocation(1, start, limit, {"cpu": 1}, uf)
    assert held_seconds(j, at, period, anchor) == max(0, held)


def test_run_minutes_add_up_the_tree_in_integer_minutes() -> None:
    parent_of = {1: None, 2: 1, 3: 2, 4: 2, 5: 1}
    jobs = [
        job(assoc=3, cpu=64, node=1, billing=64, energy=5, mem=0),
        job(assoc=4, cpu=1, start=1000, limit=1),
        job(assoc=99, cpu=8),
    ]  # not in the tree: left out
    got = run_minutes(jobs, parent_of, 1000, PERIOD)
    assert got == {
        3: {"cpu": 3840, "node": 60, "billing": 3840},
        4: {"cpu": 1},
        2: {"cpu": 3841, "node": 60, "billing": 3840},
        1: {"cpu": 3841, "node": 60, "billing": 3840},
    }
    # seconds are summed before the division: two 30-second remainders make a minute
    halves = [job(assoc=3, cpu=1, start=0, limit=1), job(assoc=4, cpu=1, start=0, limit=1)]
    got = run_minutes(halves, parent_of, 30, 30)
    assert got[3] == {"cpu": 0} and got[2] == {"cpu": 1}


def test_a_job_that_holds_nothing_names_no_association() -> None:
    assert run_minutes([job(limit=0)], {3: None}, 5000, PERIOD) == {}
    assert run_minutes([job(cpu=0)], {3: None}, 1000, PERIOD) == {}


@pytest.mark.parametrize("at,minutes", [(1000, 180), (1234, 170)])
def test_run_minutes_of_a_lone_job(at: int, minutes: int) -> None:
    assert run_minutes([job(cpu=3)], {3: None}, at, PERIOD) == {3: {"cpu": minutes}}
