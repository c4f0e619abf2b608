"""``limits check``: the run-minutes running jobs hold count times their QOS UsageFactor.

slurmctld adds ``TRES x time limit x UsageFactor`` to grp_used_tres_run_secs when a job
starts and takes back ``TRES x seconds run x UsageFactor`` at each decay pass
(acct_policy.c ``_adjust_limit_usage``, priority_multifactor.c ``_apply_new_usage``):
GrpTRESRunMins checks and sshare's TRESRunMins read that one counter, so they agree.
The request itself is weighed times its QOS's UsageFactor only under the QOS flag
UsageFactorSafe, and only before it starts (``acct_policy_job_runnable_post_select``),
not at submission; a job in a QOS with UsageFactor 0 sees no run-minutes in use. The
wall-time checks before start weigh the time alike (``acct_policy_job_runnable_pre_select``).
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import build_science

AT = "2026-01-05T10:00:00"  # a decay pass (every 5 minutes)


def _check(fscli, *words: str) -> dict:
    return json.loads(fscli.ok("limits", "check", *words, "--json", at=AT).stdout)


def _parsable(fscli, *words: str) -> list[str]:
    return fscli.ok("limits", "check", *words, "-P", at=AT).stdout.splitlines()


def _held_cpu_minutes(fscli, account: str = "chem") -> str:
    """The account's CPU run-minutes in ``sshare -l``'s TRESRunMins."""
    header, row = fscli.ok("sshare", "-l", "-P", "-A", account, at=AT).stdout.splitlines()
    return dict(zip(header.split("|"), row.split("|")))["TRESRunMins"].split(",")[0]


def build_big(fscli) -> None:
    """chem has GrpTRESRunMins=cpu=1000; bob runs 4 CPUs in QOS big with 100 of his 120
    minutes left."""
    build_science(fscli)
    fscli.ok("qos", "add", "big", "usagefactor=2")
    fscli.ok("limits", "set", "cluster=c1", "qos=normal,big")
    fscli.ok("limits", "set", "account=chem", "GrpTRESRunMins=cpu=1000")
    fscli.ok(
        "job",
        "submit",
        "user=bob",
        "account=chem",
        "qos=big",
        "cpus=4",
        "time=2:00:00",
        "state=running",
        "start=2026-01-05T09:40:00",
        at=AT,
    )


@pytest.fixture
def big(fscli, template):
    """The store :func:`build_big` leaves, copied from its template."""
    return template(fscli, build_big)


def test_usage_factor_2_doubles_what_a_running_job_holds(big):
    doc = _check(big, "user=carol", "cpus=1", "time=5:00:00")
    assert (doc["verdict"], doc["reason"], doc["value"], doc["current"], doc["request"]) == (
        "pend",
        "AssocGrpCPURunMinutesLimit",
        1000,
        800,
        300,
    )  # 4 x 100 x 2, 1 x 300
    assert _parsable(big, "user=carol", "cpus=1", "time=5:00:00") == [
        "Verdict|Reason|Limit|TRES|Value|Current|Request|Level|Source",
        "pend|AssocGrpCPURunMinutesLimit|GrpTRESRunMins|cpu|1000|800|300|account|chem",
    ]
    assert _held_cpu_minutes(big) == "cpu=800"
    assert _check(big, "user=carol", "cpus=1", "time=3:20:00")["verdict"] == "run"  # 1000


def test_usage_factor_half_halves_it(big):
    big.ok("qos", "modify", "big", "set", "usagefactor=0.5")
    assert _check(big, "user=carol", "cpus=1", "time=5:00:00")["verdict"] == "run"  # 200 + 300
    doc = _check(big, "user=carol", "cpus=3", "time=4:30:00")  # 200 + 810
    assert (doc["verdict"], doc["current"], doc["request"]) == ("pend", 200, 810)
    assert _held_cpu_minutes(big) == "cpu=200"


def test_a_qos_run_minutes_limit_counts_the_same(big):
    big.ok("limits", "set", "account=chem", "GrpTRESRunMins=cpu=-1")
    big.ok("limits", "set", "qos=big", "GrpTRESRunMins=cpu=1000")
    doc = _check(big, "user=carol", "qos=big", "cpus=1", "time=5:00:00")
    assert (doc["reason"], doc["current"], doc["request"], doc["level"]) == (
        "QOSGrpCPURunMinutesLimit",
        800,
        300,
        "job-qos",
    )


def test_the_request_counts_times_its_usage_factor_under_usage_factor_safe(big):
    # without the flag slurmctld weighs the request's own time limit
    doc = _check(big, "user=carol", "qos=big", "cpus=1", "time=1:40:00")
    assert (doc["verdict"], doc["request"]) == ("run", None)
    big.ok("qos", "modify", "big", "set", "flags=UsageFactorSafe")
    doc = _check(big, "user=carol", "qos=big", "cpus=1", "time=1:41:00")
    assert (doc["verdict"], doc["current"], doc["request"]) == ("pend", 800, 202)
    assert _check(big, "user=carol", "qos=big", "cpus=1", "time=1:40:00")["verdict"] == "run"
    # the normal QOS has no such flag
    assert _check(big, "user=carol", "cpus=1", "time=3:20:00")["verdict"] == "run"


def test_submission_weighs_the_plain_time_limit(big):
    """Strict checking (DenyOnLimit) compares time x TRES alone with the limit at submit;
    UsageFactorSafe weighs the factor in only when the job waits to start."""
    big.ok("qos", "modify", "big", "set", "flags=DenyOnLimit,UsageFactorSafe")
    big.ok("job", "cancel", "1", at=AT)
    doc = _check(big, "user=carol", "qos=big", "cpus=1", "time=10:00:00")
    assert (doc["verdict"], doc["current"], doc["request"]) == ("pend", 0, 1200)
    big.ok("qos", "modify", "big", "set", "usagefactor=0.5")
    assert _check(big, "user=carol", "qos=big", "cpus=1", "time=16:40:00")["verdict"] == "run"
    doc = _check(big, "user=carol", "qos=big", "cpus=1", "time=16:41:00")
    assert (doc["verdict"], doc["reason"], doc["request"]) == (
        "reject",
        "AssocGrpCPURunMinutesLimit",
        1001,
    )


def test_a_job_in_a_free_qos_sees_no_run_minutes_in_use(big):
    big.ok("qos", "add", "free", "usagefactor=0")
    big.ok("limits", "set", "cluster=c1", "qos=normal,big,free")
    big.ok(
        "job",
        "submit",
        "user=bob",
        "account=chem",
        "qos=free",
        "cpus=64",
        "time=1:00:00",
        "state=running",
        "start=2026-01-05T09:40:00",
        at=AT,
    )
    assert _held_cpu_minutes(big) == "cpu=800"  # the free job holds nothing
    assert _check(big, "user=carol", "cpus=1", "time=3:21:00")["verdict"] == "pend"
    doc = _check(big, "user=carol", "qos=free", "cpus=1", "time=16:40:00")
    assert doc["verdict"] == "run"
    doc = _check(big, "user=carol", "qos=free", "cpus=1", "time=16:41:00")
    assert (doc["verdict"], doc["current"], doc["request"]) == ("pend", 0, 1001)


def test_fractional_factors_truncate_each_step_as_sshare_shows(science):
    """UsageFactor 0.5 from an odd second: slurmctld's integers drop half a second at the
    first pass, 120 CPUs x 3001 s = 6002 minutes held (3000.5 s would give 6001)."""
    science.ok("qos", "add", "half", "usagefactor=0.5")
    science.ok("limits", "set", "cluster=c1", "qos=normal,half")
    science.ok("limits", "set", "account=chem", "GrpTRESRunMins=cpu=10000")
    science.ok(
        "job",
        "submit",
        "user=bob",
        "account=chem",
        "qos=half",
        "cpus=120",
        "time=2:00:00",
        "state=running",
        "start=2026-01-05T09:40:01",
        at=AT,
    )
    assert _held_cpu_minutes(science) == "cpu=6002"
    doc = _check(science, "user=carol", "cpus=1", "time=66:39:00")  # 3999 minutes
    assert (doc["verdict"], doc["current"], doc["request"]) == ("pend", 6002, 3999)
    assert _check(science, "user=carol", "cpus=1", "time=66:38:00")["verdict"] == "run"


def test_max_wall_weighs_the_time_before_start_not_at_submit(science):
    """QOS MaxWall=60 with UsageFactor 2 under UsageFactorSafe: a 40-minute job counts 80
    minutes when it waits to start (``_qos_job_runnable_pre_select``), while submission
    (``acct_policy_validate``, strict under DenyOnLimit) compares the 40 minutes alone."""
    science.ok("-Q", "config", "set", "AccountingStorageEnforce=associations,limits,qos,safe")
    science.ok("qos", "add", "big", "usagefactor=2", "flags=UsageFactorSafe,DenyOnLimit")
    science.ok("limits", "set", "cluster=c1", "qos=normal,big")
    science.ok("limits", "set", "qos=big", "MaxWall=60")
    limit = "QOSMaxWallDurationPerJobLimit|MaxWallDurationPerJob||01:00:00|"
    assert _parsable(science, "user=carol", "qos=big", "time=40") == [
        "Verdict|Reason|Limit|TRES|Value|Current|Request|Level|Source",
        f"pend|{limit}|01:20:00|job-qos|big",
    ]
    assert _parsable(science, "user=carol", "qos=big", "time=61")[1] == (
        f"reject|{limit}|01:01:00|job-qos|big"
    )
    assert _check(science, "user=carol", "qos=big", "time=30")["verdict"] == "run"
    science.ok("qos", "modify", "big", "set", "flags=DenyOnLimit")
    assert _check(science, "user=carol", "qos=big", "time=40")["verdict"] == "run"
