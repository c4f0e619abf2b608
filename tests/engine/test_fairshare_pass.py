"""Classic and depth-oblivious between passes: account rows lag one pass behind.

slurmctld (22.05 ``_decay_thread``) works out the account rows' NormUsage and EffectvUsage
at the *start* of each pass, before that pass's decay and the running jobs' new usage;
user rows are worked out lazily, later, from the current usage and their parent's lagging
EffectvUsage (spec/fairshare.md a.2). Fair Tree computes after the new usage: no lag.

The scenario (no decay, PriorityCalcPeriod 5 minutes, passes on multiples of 300 s):
root -> a (1 share) -> u1, u2 (1 share each); root -> b (1 share) -> u3 (1 share).
u3 was charged 600 long ago; u2 runs a 1-CPU job that started on pass P0. At T = P0 + 700
the passes at P0+300 and P0+600 have charged it 300 + 300:

* current usage: u1 0, u2 600, u3 600 -> a 600, b 600, root 1200;
* as the pass at P0+600 began: u2 300 -> a 300, b 600, root 900.
"""

from __future__ import annotations

import pytest

from fscli.engine.config import PriorityConfig
from fscli.engine.model import Assoc, Charge
from fscli.engine.usage import Run, pass_start_usage, with_runs
from tests.engine.adapt import compute, raw_usage

P0 = 1_800_000_000 // 300 * 300
T = P0 + 700
TREE = [
    Assoc(1, None, "root"),
    Assoc(2, 1, "a"),
    Assoc(3, 1, "b"),
    Assoc(4, 2, "a", "u1"),
    Assoc(5, 2, "a", "u2"),
    Assoc(6, 3, "b", "u3"),
]


def _usages(flags: str) -> tuple[dict[int, float], dict[int, float], PriorityConfig]:
    cfg = PriorityConfig.from_mapping({"PriorityDecayHalfLife": "0", "PriorityFlags": flags})
    charged = raw_usage([Charge(6, P0 - 1000, 600.0)], T, cfg)
    runs = [Run(5, P0, None, 1.0)]
    return with_runs(charged, runs, T, cfg), pass_start_usage(charged, runs, T, cfg), cfg


def _rows(algorithm: str, lag: bool = True) -> dict[str, tuple]:
    now, before, _ = _usages("NO_FAIR_TREE")
    result = compute(TREE, now, algorithm, 1, before if lag else None)
    return {
        r.user or r.account: (
            r.raw_usage,
            r.norm_usage,
            round(r.effective_usage, 6),
            None if r.fairshare is None else round(r.fairshare, 6),
        )
        for r in result.rows
    }


def test_usage_before_the_pass_leaves_out_the_pass_s_job_charge() -> None:
    now, before, _ = _usages("NO_FAIR_TREE")
    assert now == {6: 600.0, 5: 600.0}
    assert before == {6: 600.0, 5: 300.0}


def test_classic_accounts_lag_users_current() -> None:
    """a: UN = 300/900 = 1/3 (lagging), fs-parent root -> UE = UN, F = 2^(-(1/3)/0.5)
    = 2^(-2/3) = 0.629961. b: UN = 600/900 = 2/3, F = 2^(-4/3) = 0.396850.
    u1: UN = 0/1200 = 0, S = 0.25, UE = 0 + (1/3 - 0) * 1/2 = 1/6, F = 2^(-(1/6)/0.25)
    = 0.629961. u2: UN = 600/1200 = 0.5, UE = 0.5 + (1/3 - 0.5)/2 = 5/12 = 0.416667,
    F = 2^(-5/3) = 0.314980. u3: UN = 0.5, UE = 0.5 + (2/3 - 0.5) * 1/1 = 2/3,
    F = 2^(-(2/3)/0.5) = 0.396850 (without the lag: UE 0.5, F 0.5)."""
    assert _rows("classic") == {
        "root": (1200.0, None, 1.0, 0.5),
        "a": (600.0, pytest.approx(1 / 3), 0.333333, 0.629961),
        "u1": (0.0, 0.0, 0.166667, 0.629961),
        "u2": (600.0, 0.5, 0.416667, 0.31498),
        "b": (600.0, pytest.approx(2 / 3), 0.666667, 0.39685),
        "u3": (600.0, 0.5, 0.666667, 0.39685),
    }


def test_without_the_lag_every_row_uses_the_current_usage() -> None:
    rows = _rows("classic", lag=False)
    assert (rows["a"][1:], rows["u3"][2:]) == ((0.5, 0.5, 0.5), (0.5, 0.5))


def test_depth_oblivious_users_use_their_parent_s_lagging_values() -> None:
    """u1: UN = 0 -> UE = UN = 0, F = 1. u2: ratio_p = UE_a / S_a = (1/3)/0.5 = 2/3;
    ratio_s = (0 + 0.5)/0.5 = 1; ratio_l = (0.5/0.25)/1 = 2; ln(2/3)*ln(2) < 0, so
    k = 1/(1 + (5 ln(2/3))^2) = 0.195693; UE = 2/3 * 2^k * 0.25 = 0.190879,
    F = 2^(-UE/0.25) = 0.589059. u3: ratio_p = (2/3)/0.5 = 4/3, ratio_l = 1 -> k = 1,
    UE = 4/3 * 1 * 0.5 = 2/3, F = 0.396850."""
    rows = _rows("depth_oblivious")
    assert (rows["a"][2:], rows["b"][2:]) == ((0.333333, 0.629961), (0.666667, 0.39685))
    assert rows["u1"][2:] == (0.0, 1.0)
    assert rows["u2"][2:] == (0.190879, 0.589059)
    assert rows["u3"][2:] == (0.666667, 0.39685)


def test_fair_tree_has_no_lag() -> None:
    now, before, _ = _usages("")
    assert compute(TREE, now, "fair_tree", 1, before).rows == compute(TREE, now).rows


def test_on_the_pass_itself_the_lag_is_the_previous_pass() -> None:
    """At P0+600 exactly the pass has run: before it, u2 had 300 (charged at P0+300)."""
    _, _, cfg = _usages("NO_FAIR_TREE")
    charged = raw_usage([], P0 + 600, cfg)
    assert pass_start_usage(charged, [Run(5, P0, None, 1.0)], P0 + 600, cfg) == {5: 300.0}
    assert pass_start_usage(charged, [Run(5, P0, None, 1.0)], P0 + 599, cfg) == {}


def test_decay_is_applied_alike_so_ratios_do_not_change() -> None:
    """With decay the runs before the pass are decayed one more period, to the pass the
    charges are decayed to: a charge and a run of equal age keep equal weight."""
    cfg = PriorityConfig.from_mapping({"PriorityDecayHalfLife": "60"})
    d = 1 - 0.693 / 3600
    charged = raw_usage([Charge(6, P0 + 300, 300 * d**300)], P0 + 700, cfg)
    before = pass_start_usage(charged, [Run(5, P0, None, 1.0)], P0 + 700, cfg)
    assert before[5] == pytest.approx(before[6], rel=1e-12)
