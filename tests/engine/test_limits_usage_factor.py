"""The QOS UsageFactor in the limit checker's run-minutes, on plain data.

Running jobs hold ``TRES x (time limit x UF - seconds run x UF, pass by pass)``, as
sshare's TRESRunMins (:mod:`fscli.engine.runmins`); the request is weighed times its
QOS's UsageFactor before it starts only under UsageFactorSafe; UsageFactor 0 clears the
minutes in use (acct_policy.c ``acct_policy_job_runnable_post_select``).
"""

from __future__ import annotations

from fscli.engine.limit_check import JobRequest, LimitsState, check
from fscli.engine.limit_jobs import request_tres, running_time_limit, usage_factor
from fscli.engine.model import Assoc, Job, Partition, Qos
from fscli.engine.runmins import Allocation, run_minutes

NOW = 1_700_000_000
LAST_PASS = NOW - NOW % 300  # 200 s before NOW


def _state(run_mins: dict, qos: list[Qos], jobs: list[Job], parts=None) -> LimitsState:
    assocs = [Assoc(1, None, "root", qos=tuple(q.name for q in qos)),
              Assoc(2, 1, "phys", limits={"GrpTRESRunMins": run_mins}),
              Assoc(3, 2, "phys", "alice"), Assoc(4, 2, "phys", "bob")]
    return LimitsState(assocs, qos, parts or [Partition("batch")], jobs,
                       default_partition="batch")


def _bob(qos: str, cpus: int, limit: int | None, start: int, partition="batch") -> Job:
    return Job(1, "bob", "phys", 4, (partition,), qos, "running", cpus=cpus,
               time_limit=limit, start=start)


def _req(qos: str, cpus: int, time: int | None) -> JobRequest:
    return JobRequest("alice", "phys", None, qos, request_tres(cpus, 1), time)


def test_unset_or_missing_usage_factor_is_one():
    assert [usage_factor(q) for q in (None, Qos("a", usage_factor=-1.0),
                                      Qos("b", usage_factor=0.0), Qos("c", usage_factor=2.5))
            ] == [1.0, 1.0, 0.0, 2.5]


def test_running_jobs_hold_their_time_left_times_the_usage_factor():
    # 100 of 120 minutes left at the last pass
    qos = [Qos("normal"), Qos("big", usage_factor=2.0)]
    state = _state({"cpu": 1000}, qos, [_bob("big", 4, 120, LAST_PASS - 1200)])
    result = check(_req("normal", 1, 300), state, NOW)
    assert (result.reason, result.violation.current, result.violation.request) == (
        "AssocGrpCPURunMinutesLimit", 800, 300)
    state.qos[1].usage_factor = 0.5
    assert check(_req("normal", 1, 800), state, NOW).verdict == "run"
    assert check(_req("normal", 1, 801), state, NOW).violation.current == 200


def test_the_checker_holds_what_sshare_shows():
    """Odd seconds and a fractional factor: both truncate each step of the counter."""
    qos = [Qos("normal"), Qos("odd", usage_factor=0.37)]
    jobs = [_bob("odd", 7, 95, LAST_PASS - 1777), _bob("normal", 3, 50, LAST_PASS - 333)]
    held = run_minutes([Allocation(4, j.start, j.time_limit, {"cpu": j.cpus},
                                   usage_factor(qos[j.qos == "odd"])) for j in jobs],
                       {2: None, 4: 2}, NOW, 300)
    assert held == {4: {"cpu": 302}, 2: {"cpu": 302}}  # 7 x 1452 + 3 x 2667 seconds
    state = _state({"cpu": 1000}, qos, jobs)
    result = check(_req("normal", 1, 700), state, NOW)
    assert (result.verdict, result.violation.current) == ("pend", 302)


def test_a_job_without_time_limit_holds_its_partitions_max_time():
    assert running_time_limit(None, Partition("batch", max_time=90)) == 90
    assert running_time_limit(30, Partition("batch", max_time=90)) == 30
    assert running_time_limit(None, None) is None
    parts = [Partition("batch", max_time=90)]
    state = _state({"cpu": 1000}, [Qos("normal")], [_bob("normal", 4, None, LAST_PASS)], parts)
    result = check(_req("normal", 8, 90), state, NOW)
    assert (result.violation.current, result.violation.request) == (360, 720)


def test_usage_factor_safe_weighs_the_request_before_it_starts():
    safe = Qos("safe", flags=frozenset({"UsageFactorSafe"}), usage_factor=2.0)
    state = _state({"cpu": 1000}, [Qos("normal"), safe], [])
    assert check(_req("safe", 2, 250), state, NOW).verdict == "run"
    result = check(_req("safe", 2, 251), state, NOW)
    assert (result.reason, result.violation.request) == ("AssocGrpCPURunMinutesLimit", 1004)
    safe.usage_factor = 0.5
    assert check(_req("safe", 2, 1001), state, NOW).verdict == "run"  # 2 x int(500.5)
    assert check(_req("safe", 2, 1002), state, NOW).violation.request == 1002
    # no time limit at all: slurmctld's INFINITE (a uint32) times a factor below 1
    state.assocs[1].limits = {"GrpTRESRunMins": {"cpu": 0x7FFFFFFF}}
    assert check(_req("safe", 1, None), state, NOW).verdict == "run"
    safe.usage_factor = 1.0
    result = check(_req("safe", 1, None), state, NOW)
    assert (result.verdict, result.violation.request) == ("pend", float("inf"))


def test_usage_factor_zero_clears_minutes_in_use_for_the_job():
    free = Qos("free", usage_factor=0.0)
    state = _state({"cpu": 1000}, [Qos("normal"), free], [_bob("normal", 10, 120, LAST_PASS)])
    state.assocs[1].limits["GrpTRESMins"] = {"cpu": 5000}
    state.usage_mins = {4: {"cpu": 6000.0}}
    normal = check(_req("normal", 1, 60), state, NOW)
    assert [(v.reason, v.current) for v in (normal.violation, *normal.others)] == [
        ("AssocGrpCPUMinutesLimit", 6000.0), ("AssocGrpCPURunMinutesLimit", 1200)]
    assert check(_req("free", 1, 1000), state, NOW).verdict == "run"
    result = check(_req("free", 1, 1001), state, NOW)
    assert (result.reason, result.violation.current) == ("AssocGrpCPURunMinutesLimit", 0)


def test_a_running_job_holds_no_run_time_of_energy():
    """slurmctld never adds energy to grp_used_tres_run_secs (sshare shows none either),
    so a GrpTRESRunMins on energy sees only the request."""
    job = Job(1, "bob", "phys", 4, ("batch",), "normal", "running", cpus=1, time_limit=60,
              start=LAST_PASS, tres={"energy": 50})
    state = _state({"energy": 4000}, [Qos("normal")], [job])
    req = JobRequest("alice", "phys", None, "normal", {**request_tres(1, 1), "energy": 50}, 60)
    assert check(req, state, NOW).verdict == "run"  # 0 held + 3000 requested
    req.tres["energy"] = 67
    result = check(req, state, NOW)
    assert (result.verdict, result.violation.current, result.violation.request) == (
        "pend", 0, 4020)
