"""The limit checker's decayed usage (GrpTRESMins, GrpWall) read from the store's jobs.

slurmctld charges a job's decayed run time times its QOS UsageFactor to every TRES the
job holds, billing included, and to wall time, for its association and its QOS alike;
a usage reset clears them all.
"""

from __future__ import annotations

import json

AT = "2026-01-05T10:00:00"


def _check(fscli, *words: str) -> dict:
    return json.loads(fscli.ok("limits", "check", *words, "--json", at=AT).stdout)


def _one_hour_in_qos_big(science):
    """bob ran 10 CPUs for an hour in QOS big (UsageFactor 2), without decay."""
    science.ok("config", "set", "PriorityDecayHalfLife=0")
    science.ok("qos", "add", "big", "usagefactor=2")
    science.ok("limits", "set", "cluster=c1", "qos=normal,big")
    science.ok(
        "job",
        "submit",
        "user=bob",
        "account=chem",
        "qos=big",
        "cpus=10",
        "state=completed",
        "start=2026-01-05T08:00:00",
        "end=2026-01-05T09:00:00",
        at=AT,
    )


def test_a_qos_counts_its_jobs_billing_times_usage_factor(science):
    _one_hour_in_qos_big(science)
    # the checker weighs only the TRES a request names: this one names billing
    doc = _check(
        science,
        "user=bob",
        "qos=big",
        "tres=billing=1",
        "--with",
        "qos=big GrpTRESMins=billing=1000",
    )
    assert (doc["verdict"], doc["reason"], doc["current"], doc["value"]) == (
        "pend",
        "QOSGrpBillingMinutes",
        1200,
        1000,
    )  # 10 CPUs x 60 min x 2
    assert (
        _check(
            science,
            "user=bob",
            "qos=big",
            "tres=billing=1",
            "--with",
            "qos=big GrpTRESMins=billing=1201",
        )["verdict"]
        == "run"
    )


def test_wall_time_is_charged_times_the_usage_factor(science):
    _one_hour_in_qos_big(science)
    for where in ("qos=big", "account=chem"):
        doc = _check(science, "user=bob", "qos=big", "--with", f"{where} GrpWall=100")
        assert (doc["verdict"], doc["current"], doc["value"]) == ("pend", 120, 100), where
        assert doc["reason"] == ("QOSGrpWallLimit" if where == "qos=big" else "AssocGrpWallLimit")


def test_cpu_minutes_count_times_the_usage_factor(science):
    _one_hour_in_qos_big(science)
    doc = _check(science, "user=bob", "qos=big", "--with", "account=chem GrpTRESMins=cpu=1000")
    assert (doc["reason"], doc["current"], doc["value"]) == ("AssocGrpCPUMinutesLimit", 1200, 1000)


def test_a_usage_reset_now_clears_tres_and_wall_minutes(science):
    _one_hour_in_qos_big(science)
    science.ok("config", "set", "PriorityUsageResetPeriod=NOW", at="2026-01-05T09:30:00")
    for limit in (
        "account=chem GrpTRESMins=cpu=1",
        "account=chem GrpWall=1",
        "qos=big GrpTRESMins=billing=1",
    ):
        doc = _check(science, "user=bob", "qos=big", "tres=billing=1", "--with", limit)
        assert doc["verdict"] == "run", (limit, doc)
