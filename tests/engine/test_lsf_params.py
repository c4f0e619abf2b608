"""LSF fairshare parameters: names, values, defaults and per-queue overrides."""

from __future__ import annotations

import pytest

from fscli.engine.lsf.params import PARAM_DEFAULTS, LsfParams, canonical_param, validate_param
from fscli.errors import InvalidValue, UsageProblem


def test_defaults_are_lsf_defaults():
    assert LsfParams.from_mapping() == LsfParams(
        cpu_time_factor=0.7,
        run_time_factor=0.7,
        run_job_factor=3.0,
        committed_run_time_factor=0.0,
        hist_hours=5.0,
        run_time_decay=False,
        enable_hist_run_time=False,
        fairshare_adjustment_factor=0.0,
    )
    assert LsfParams() == LsfParams.from_mapping()  # the dataclass agrees with PARAMS
    assert PARAM_DEFAULTS["RUN_JOB_FACTOR"] == "3"
    assert PARAM_DEFAULTS["RUN_TIME_DECAY"] == "N"


@pytest.mark.parametrize("name", ["cpu_time_factor", "Cpu_Time_Factor", " CPU_TIME_FACTOR "])
def test_names_are_case_insensitive(name):
    assert canonical_param(name) == "CPU_TIME_FACTOR"


def test_unknown_name_suggests_close_matches():
    with pytest.raises(
        UsageProblem,
        match=r"unknown LSF parameter 'RUN_TIME_FACTR'; did you mean "
        r"RUN_TIME_FACTOR",
    ):
        canonical_param("RUN_TIME_FACTR")


def test_unknown_name_without_match_lists_known():
    with pytest.raises(UsageProblem, match="known: CPU_TIME_FACTOR, RUN_TIME_FACTOR"):
        validate_param("zzz", "1")


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("cpu_time_factor", " 1.50 ", ("CPU_TIME_FACTOR", "1.5")),
        ("RUN_JOB_FACTOR", "3.0", ("RUN_JOB_FACTOR", "3")),
        ("COMMITTED_RUN_TIME_FACTOR", "1", ("COMMITTED_RUN_TIME_FACTOR", "1")),
        ("HIST_HOURS", "0", ("HIST_HOURS", "0")),
        ("run_time_decay", "yes", ("RUN_TIME_DECAY", "Y")),
        ("ENABLE_HIST_RUN_TIME", "n", ("ENABLE_HIST_RUN_TIME", "N")),
        ("FAIRSHARE_ADJUSTMENT_FACTOR", "0.25", ("FAIRSHARE_ADJUSTMENT_FACTOR", "0.25")),
    ],
)
def test_values_are_normalized(name, text, expected):
    assert validate_param(name, text) == expected


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("CPU_TIME_FACTOR", "-0.1", "invalid CPU_TIME_FACTOR '-0.1': must be >= 0"),
        ("RUN_JOB_FACTOR", "-3", "invalid RUN_JOB_FACTOR '-3': must be >= 0"),
        ("RUN_TIME_FACTOR", "fast", "invalid RUN_TIME_FACTOR 'fast': expected a number"),
        ("HIST_HOURS", "-1", "invalid HIST_HOURS '-1': must be >= 0"),
        ("COMMITTED_RUN_TIME_FACTOR", "1.5", "must be from 0 to 1"),
        ("FAIRSHARE_ADJUSTMENT_FACTOR", "inf", "expected a finite number"),
        ("RUN_TIME_DECAY", "maybe", "invalid RUN_TIME_DECAY 'maybe': expected Y or N"),
    ],
)
def test_bad_values(name, text, message):
    with pytest.raises(InvalidValue, match=message.replace("(", r"\(")):
        validate_param(name, text)


def test_queue_overrides_global():
    params = LsfParams.from_mapping(
        {"cpu_time_factor": "1", "HIST_HOURS": "10"},
        {"CPU_TIME_FACTOR": "2", "RUN_TIME_DECAY": "y"},
    )
    assert params.cpu_time_factor == 2.0
    assert params.hist_hours == 10.0
    assert params.run_time_decay is True
    assert params.run_job_factor == 3.0


def test_bad_override_is_reported():
    with pytest.raises(InvalidValue, match="RUN_JOB_FACTOR"):
        LsfParams.from_mapping(None, {"run_job_factor": "-1"})
