"""The :class:`JobScope` a check asks a store to count, and the groups it gets back."""

from __future__ import annotations

from fscli.engine.limits.check import JobRequest, LimitsState, check
from fscli.engine.limits.counting import JobGroup
from fscli.engine.model import Assoc, Partition, Qos
from fscli.engine.tres import request_tres

NOW = 1_700_000_000


def _state(root=None, acct=None, qos=None) -> tuple[LimitsState, list]:
    assocs = [
        Assoc(1, None, "root", limits=dict(root or {}), qos=("normal", "high")),
        Assoc(2, 1, "phys", limits=dict(acct or {})),
        Assoc(3, 2, "phys", "alice"),
    ]
    all_qos = [Qos("normal"), Qos("high", limits=dict(qos or {}))]
    parts = [Partition("batch", qos="high"), Partition("debug")]
    state = LimitsState(assocs, all_qos, parts)
    asked: list = []

    def count(scope):
        asked.append(scope)
        return [
            JobGroup(
                2, True, 3, {"cpu": 30, "node": 3, "mem": 900}, {}, "high", "batch", None, "phys"
            )
        ]

    state.count_jobs = count
    return state, asked


def _req(qos=None, partition=None, **tres) -> JobRequest:
    return JobRequest("alice", "phys", partition, qos, request_tres(4, 1, tres), 60)


def test_only_limits_on_requested_tres_or_job_counts_widen_the_scope():
    state, asked = _state(root={"GrpTRES": {"mem": 1000}}, acct={"GrpTRES": {"gres/gpu": 2}})
    assert check(_req(), state, NOW).verdict == "run"
    assert asked == []  # no limit on a requested TRES nor on job counts: nothing counted
    result = check(_req(mem=200), state, NOW)
    assert asked[-1].assoc_ids == {1, 3}
    assert (result.reason, result.violation.current) == ("AssocGrpMemLimit", 900)
    state.assocs[1].limits["GrpJobs"] = 3
    assert check(_req(), state, NOW).reason == "AssocGrpJobsLimit"
    assert asked[-1].assoc_ids == {2, 3}


def test_qos_per_job_limits_count_nothing_and_partitions_follow_their_qos():
    state, asked = _state(qos={"MaxTRESPerJob": {"cpu": 8}})
    check(_req(qos="high"), state, NOW)
    assert asked == []
    state.qos[1].limits["GrpTRESRunMins"] = {"cpu": 10}
    check(_req(qos="high"), state, NOW)
    assert (asked[-1].qos, asked[-1].partitions, asked[-1].run_mins) == ({"high"}, {"batch"}, True)
    # run time is counted up to the last decay pass (every 300 s by default)
    assert (asked[-1].user, asked[-1].account, asked[-1].charged_until) == (
        "alice",
        "phys",
        NOW - NOW % 300,
    )
    # and the passes themselves, which give the run time back (times the UsageFactor)
    state.calc_period, state.calc_anchor = 60, 20
    check(_req(qos="high"), state, NOW)
    assert (asked[-1].charged_until, asked[-1].calc_period, asked[-1].calc_anchor) == (
        NOW - (NOW - 20) % 60,
        60,
        20,
    )


def test_groups_count_for_their_qos_and_account():
    state, _ = _state(qos={"MaxTRESPerAccount": {"cpu": 32}, "GrpJobs": 5})
    result = check(_req(qos="high"), state, NOW)
    assert (result.reason, result.violation.current) == ("MaxCpuPerAccount", 30)
    state.qos[1].limits["GrpJobs"] = 3
    result = check(_req(qos="high"), state, NOW)
    assert (result.reason, result.violation.current) == ("QOSGrpJobsLimit", 3)


def test_a_running_job_counts_until_its_time_limit_ends_it():
    """Without a store's aggregate the checker counts ``state.jobs`` itself: a running
    job past its start plus its time limit (else its partition's MaxTime) counts no more."""
    from fscli.engine.limits.counting import running_end
    from fscli.engine.model import Job

    assocs = [Assoc(1, None, "root"), Assoc(2, 1, "phys", limits={"GrpJobs": 1})]
    assocs.append(Assoc(3, 2, "phys", "alice"))
    parts = [Partition("batch", max_time=30), Partition("debug")]
    start = NOW - 3600
    jobs = [
        Job(1, "alice", "phys", 3, ("batch",), state="running", start=start),
        Job(2, "alice", "phys", 3, ("debug",), state="running", start=start, time_limit=90),
    ]
    state = LimitsState(assocs, [Qos("normal")], parts, jobs=jobs)
    assert running_end(start, None, parts[0]) == start + 1800
    assert running_end(start, None, parts[1]) is None
    assert check(_req(), state, NOW).reason == "AssocGrpJobsLimit"  # job 2 runs on
    assert check(_req(), state, NOW + 1800).verdict == "run"  # ended at start + 90 min
    jobs[1].time_limit = 60
    assert check(_req(), state, NOW).verdict == "run"
