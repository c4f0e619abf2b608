"""The QOS UsageFactor in the limit checker's run-minutes, on plain data.

Running jobs hold ``TRES x (time limit x UF - seconds run x UF, pass by pass)``, as
sshare's TRESRunMins (:mod:`fscli.engine.runmins`); the request is weighed times its
QOS's UsageFactor before it starts only under UsageFactorSafe; UsageFactor 0 clears the
minutes in use (acct_policy.c ``acct_policy_job_runnable_post_select``). The wall-time
checks before start weigh the time the same way (``..._pre_select``): MaxWall always,
GrpWall in its ``safe`` look-ahead; submission compares the plain time.
"""

from __future__ import annotations

from fscli.engine.config import enforce_flags
from fscli.engine.limits.check import WALL, JobRequest, LimitsState, check
from fscli.engine.limits.counting import running_time_limit, usage_factor
from fscli.engine.model import Assoc, Job, Partition, Qos
from fscli.engine.runmins import Allocation, run_minutes
from fscli.engine.tres import request_tres

NOW = 1_700_000_000
LAST_PASS = NOW - NOW % 300  # 200 s before NOW


def _state(run_mins: dict, qos: list[Qos], jobs: list[Job], parts=None) -> LimitsState:
    assocs = [
        Assoc(1, None, "root", qos=tuple(q.name for q in qos)),
        Assoc(2, 1, "phys", limits={"GrpTRESRunMins": run_mins}),
        Assoc(3, 2, "phys", "alice"),
        Assoc(4, 2, "phys", "bob"),
    ]
    return LimitsState(assocs, qos, parts or [Partition("batch")], jobs, default_partition="batch")


def _bob(qos: str, cpus: int, limit: int | None, start: int, partition="batch") -> Job:
    return Job(
        1, "bob", "phys", 4, (partition,), qos, "running", cpus=cpus, time_limit=limit, start=start
    )


def _req(qos: str, cpus: int, time: int | None) -> JobRequest:
    return JobRequest("alice", "phys", None, qos, request_tres(cpus, 1), time)


def test_unset_or_missing_usage_factor_is_one():
    assert [
        usage_factor(q)
        for q in (
            None,
            Qos("a", usage_factor=-1.0),
            Qos("b", usage_factor=0.0),
            Qos("c", usage_factor=2.5),
        )
    ] == [1.0, 1.0, 0.0, 2.5]


def test_running_jobs_hold_their_time_left_times_the_usage_factor():
    # 100 of 120 minutes left at the last pass
    qos = [Qos("normal"), Qos("big", usage_factor=2.0)]
    state = _state({"cpu": 1000}, qos, [_bob("big", 4, 120, LAST_PASS - 1200)])
    result = check(_req("normal", 1, 300), state, NOW)
    assert (result.reason, result.violation.current, result.violation.request) == (
        "AssocGrpCPURunMinutesLimit",
        800,
        300,
    )
    state.qos[1].usage_factor = 0.5
    assert check(_req("normal", 1, 800), state, NOW).verdict == "run"
    assert check(_req("normal", 1, 801), state, NOW).violation.current == 200


def test_the_checker_holds_what_sshare_shows():
    """Odd seconds and a fractional factor: both truncate each step of the counter."""
    qos = [Qos("normal"), Qos("odd", usage_factor=0.37)]
    jobs = [_bob("odd", 7, 95, LAST_PASS - 1777), _bob("normal", 3, 50, LAST_PASS - 333)]
    held = run_minutes(
        [
            Allocation(4, j.start, j.time_limit, {"cpu": j.cpus}, usage_factor(qos[j.qos == "odd"]))
            for j in jobs
        ],
        {2: None, 4: 2},
        NOW,
        300,
    )
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
        ("AssocGrpCPUMinutesLimit", 6000.0),
        ("AssocGrpCPURunMinutesLimit", 1200),
    ]
    assert check(_req("free", 1, 1000), state, NOW).verdict == "run"
    result = check(_req("free", 1, 1001), state, NOW)
    assert (result.reason, result.violation.current) == ("AssocGrpCPURunMinutesLimit", 0)


def test_a_running_job_holds_no_run_time_of_energy():
    """slurmctld never adds energy to grp_used_tres_run_secs (sshare shows none either),
    so a GrpTRESRunMins on energy sees only the request."""
    job = Job(
        1,
        "bob",
        "phys",
        4,
        ("batch",),
        "normal",
        "running",
        cpus=1,
        time_limit=60,
        start=LAST_PASS,
        tres={"energy": 50},
    )
    state = _state({"energy": 4000}, [Qos("normal")], [job])
    req = JobRequest("alice", "phys", None, "normal", {**request_tres(1, 1), "energy": 50}, 60)
    assert check(req, state, NOW).verdict == "run"  # 0 held + 3000 requested
    req.tres["energy"] = 67
    result = check(req, state, NOW)
    assert (result.verdict, result.violation.current, result.violation.request) == ("pend", 0, 4020)


def _safe_qos(factor: float, *flags: str, **limits) -> Qos:
    return Qos(
        "safe", flags=frozenset({"UsageFactorSafe", *flags}), usage_factor=factor, limits=limits
    )


def _wall_check(state: LimitsState, time: int) -> tuple:
    result = check(_req("safe", 1, time), state, NOW)
    v = result.violation
    return (result.verdict, result.reason, v.current, v.request) if v else (result.verdict,)


def test_qos_max_wall_weighs_the_time_before_start_without_safe():
    """acct_policy.c weighs the time for MaxWall whatever AccountingStorageEnforce says."""
    safe = _safe_qos(2.0, MaxWallDurationPerJob=60)
    state = _state({}, [Qos("normal"), safe], [])
    assert "safe" not in state.enforce
    assert _wall_check(state, 30) == ("run",)
    assert _wall_check(state, 31) == ("pend", "QOSMaxWallDurationPerJobLimit", None, 62)
    safe.usage_factor = 0.5
    assert _wall_check(state, 121) == ("run",)  # int(60.5)
    assert _wall_check(state, 122) == ("pend", "QOSMaxWallDurationPerJobLimit", None, 61)
    safe.flags = frozenset()
    safe.usage_factor = 2.0
    assert _wall_check(state, 60) == ("run",)
    # without -t the job gets MaxWall as its time limit, which the factor then exceeds
    safe.flags = frozenset({"UsageFactorSafe"})
    result = check(_req("safe", 1, None), state, NOW)
    assert (result.time_limit, result.reason, result.violation.request) == (
        60,
        "QOSMaxWallDurationPerJobLimit",
        120,
    )


def test_submission_compares_the_plain_time_with_max_wall():
    """Strict checking rejects at submit only on the time itself; the weighed time makes
    the accepted job pend."""
    safe = _safe_qos(2.0, "DenyOnLimit", MaxWallDurationPerJob=60)
    state = _state({}, [Qos("normal"), safe], [])
    assert _wall_check(state, 40) == ("pend", "QOSMaxWallDurationPerJobLimit", None, 80)
    result = check(_req("safe", 1, 61), state, NOW)
    assert (result.verdict, result.reason, result.violation.request) == (
        "reject",
        "QOSMaxWallDurationPerJobLimit",
        61,
    )


def test_association_max_wall_weighs_the_job_qos_time():
    safe = _safe_qos(3.0)
    state = _state({}, [Qos("normal"), safe], [])
    state.assocs[2].limits = {"MaxWallDurationPerJob": 90}
    assert _wall_check(state, 30) == ("run",)
    assert _wall_check(state, 31) == ("pend", "AssocMaxWallDurationPerJobLimit", None, 93)
    assert check(_req("normal", 1, 90), state, NOW).verdict == "run"


def test_grp_wall_weighs_the_time_only_in_the_safe_look_ahead():
    """Under ``safe`` a job starts only if its weighed time fits in what is left of
    GrpWall, counted from whole minutes used (40.9 -> 40)."""
    safe = _safe_qos(2.0, GrpWall=100)
    state = _state({}, [Qos("normal"), safe], [])
    state.qos_usage_mins = {"safe": {WALL: 40.9}}
    assert _wall_check(state, 1000) == ("run",)  # without safe only the use counts
    state.enforce = enforce_flags("associations,limits,qos,safe")
    assert _wall_check(state, 30) == ("run",)
    assert _wall_check(state, 31) == ("pend", "QOSGrpWallLimit", 40.9, 62)
    safe.flags = frozenset()
    assert _wall_check(state, 60) == ("run",)
    assert _wall_check(state, 61) == ("pend", "QOSGrpWallLimit", 40.9, 61)
    # the association's GrpWall alike
    safe.flags, safe.limits = frozenset({"UsageFactorSafe"}), {}
    state.qos_usage_mins = {}
    state.assocs[1].limits = {"GrpWall": 100}
    state.usage_mins = {3: {WALL: 40.9}}
    assert _wall_check(state, 31) == ("pend", "AssocGrpWallLimit", 40.9, 62)


def test_a_qos_with_grp_wall_weighs_its_max_wall_time_twice():
    """``_qos_job_runnable_pre_select`` weighs the time for the QOS's GrpWall and weighs
    it again for its MaxWall: a 20-minute job at UsageFactor 2 counts 80 minutes there."""
    safe = _safe_qos(2.0, MaxWallDurationPerJob=60)
    state = _state({}, [Qos("normal"), safe], [])
    assert _wall_check(state, 20) == ("run",)
    safe.limits["GrpWall"] = 10_000
    assert _wall_check(state, 15) == ("run",)
    assert _wall_check(state, 16) == ("pend", "QOSMaxWallDurationPerJobLimit", None, 64)
    safe.usage_factor = 0.7
    # truncated at each step: int(int(87.5) x 0.7) = 60, where 125 x 0.49 = 61.25
    assert _wall_check(state, 125) == ("run",)
    assert _wall_check(state, 126) == ("pend", "QOSMaxWallDurationPerJobLimit", None, 61)
