"""The what-if's pure parts: relative values, the solvers' search, settings from --at on."""

from __future__ import annotations

import pytest

from fscli.engine.relative import Relative, parse_relative
from fscli.engine.search import first_bound, least
from fscli.engine.whatif import changed_config, new_settings
from fscli.errors import Conflict, InvalidValue, UsageProblem


@pytest.mark.parametrize(
    "text, relative",
    [
        ("+50", Relative(50, False)),
        ("-10%", Relative(-10, True)),
        ("+2.5%", Relative(2.5, True)),
        ("-3", Relative(-3, False)),
        ("-1", None),  # sacctmgr's "clear", never one less
        ("50", None),
        ("parent", None),
        ("+", None),
    ],
)
def test_parse_relative(text, relative):
    assert parse_relative(text) == relative


def test_relative_applied():
    assert Relative(50, False).applied(10, whole=True) == "60"
    assert Relative(-10, True).applied(25, whole=True) == "22"  # 22.5 rounds to even
    assert Relative(50, True).applied(1.5, whole=False) == "2.25"
    assert Relative(-10, True).text() == "-10%"


def test_least_and_first_bound():
    calls = []

    def holds(n: int) -> bool:
        calls.append(n)
        return n * n >= 1000

    assert least(holds, 0, 1000) == 32
    assert len(calls) <= 12
    assert least(lambda n: False, 0, 10) is None
    assert first_bound(lambda n: n >= 100, 0, 1, 1 << 20) == 128
    assert first_bound(lambda n: False, 0, 1, 50) is None


def test_new_settings_checks_as_config_set():
    assert new_settings({}, {"PriorityWeightAge": Relative(500, False)}) == {
        "PriorityWeightAge": "500"
    }
    with pytest.raises(InvalidValue, match="PriorityFlags"):
        new_settings({}, {"PriorityFlags": Relative(1, False)})
    with pytest.raises(UsageProblem, match="did you mean"):
        new_settings({}, {"PriorityWeightAg": "1"})


def test_changed_config_from_now_keeps_the_old_value_until_then():
    config = changed_config({}, [], {"PriorityDecayHalfLife": "1-0"}, 1000, always=False)
    assert config.decay_half_life == 86400
    assert config.at(999).decay_half_life == 604800  # Slurm's default, before the change
    always = changed_config(
        {"PriorityDecayHalfLife": "60"},
        [("PriorityDecayHalfLife", 500, "120")],
        {"PriorityDecayHalfLife": "1-0"},
        1000,
        always=True,
    )
    assert always.at(0).decay_half_life == 86400 and not always.earlier
    with pytest.raises(Conflict, match="cannot be placed before a later one"):
        changed_config(
            {}, [("PriorityDecayHalfLife", 2000, "60")], {"PriorityDecayHalfLife": "1"}, 1000, False
        )
