"""Job checks beyond the capture: strictness, minutes, several violations, partitions."""

from __future__ import annotations

import copy
import json

import pytest

from fscli.engine import reasons
from fscli.engine.limits.check import WALL, JobRequest, LimitsState, check, effective
from fscli.engine.model import Assoc, Job, Partition, Qos
from fscli.engine.tres import request_tres
from fscli.errors import InvalidValue, UsageProblem

NOW = 1_700_000_000
POLICY = reasons.ERR_ACCOUNTING_POLICY


def _state(user_limits=None, acct_limits=None, qos=None, jobs=(), **kw) -> LimitsState:
    assocs = [
        Assoc(1, None, "root", qos=("normal", "deny", "big", "gpu")),
        Assoc(2, 1, "phys", limits=dict(acct_limits or {})),
        Assoc(3, 2, "phys", "alice", limits=dict(user_limits or {})),
        Assoc(4, 2, "phys", "bob"),
    ]
    all_qos = [Qos("normal"), Qos("deny", flags=frozenset({"DenyOnLimit"})), *(qos or [])]
    parts = [Partition("batch", max_time=60, max_nodes=4), Partition("pq", qos="deny")]
    return LimitsState(assocs, all_qos, parts, list(jobs), default_partition="batch", **kw)


def _job(
    jid, assoc_id=3, user="alice", state="running", cpus=1, time_limit=60, start=None, qos="normal"
):
    return Job(
        jid,
        user,
        "phys",
        assoc_id,
        ("batch",),
        qos,
        state,
        cpus=cpus,
        tres={"cpu": cpus, "node": 1},
        time_limit=time_limit,
        start=start,
    )


def _req(cpus=1, nodes=1, time=None, qos=None, user="alice", partition=None, **tres):
    return JobRequest(user, "phys", partition, qos, request_tres(cpus, nodes, tres), time)


def test_deny_on_limit_rejects_what_otherwise_pends():
    state = _state(user_limits={"MaxTRESPerJob": {"cpu": 2}})
    pend = check(_req(cpus=4), state, NOW)
    assert (pend.verdict, pend.reason) == ("pend", "AssocMaxCpuPerJobLimit")
    reject = check(_req(cpus=4, qos="deny"), state, NOW)
    assert (reject.verdict, reject.reason, reject.error) == (
        "reject",
        "AssocMaxCpuPerJobLimit",
        POLICY,
    )


def test_deny_on_limit_of_partition_qos_makes_checking_strict():
    state = _state(acct_limits={"GrpTRES": {"cpu": 8}})
    result = check(_req(cpus=10, partition="pq"), state, NOW)
    assert (result.verdict, result.reason) == ("reject", "AssocGrpCpuLimit")
    assert (result.violation.level, result.violation.source) == ("account", "phys")


def test_no_qos_at_all_means_strict():
    state = _state(user_limits={"MaxWallDurationPerJob": 30})
    state.qos = []
    state.assocs[0].qos = ()
    result = check(_req(time=45), state, NOW)
    assert (result.verdict, result.reason) == ("reject", "AssocMaxWallDurationPerJobLimit")
    assert result.strict


def test_grp_tres_minutes_roll_up_from_users_to_the_account():
    state = _state(
        acct_limits={"GrpTRESMins": {"cpu": 1000}},
        usage_mins={3: {"cpu": 600.0}, 4: {"cpu": 400.0}},
    )
    result = check(_req(), state, NOW)
    assert (result.verdict, result.reason) == ("pend", "AssocGrpCPUMinutesLimit")
    assert result.violation.current == 1000
    state.usage_mins[4]["cpu"] = 399.0
    assert check(_req(), state, NOW).verdict == "run"


def test_grp_tres_run_minutes_count_what_running_jobs_have_left():
    # passes every 300 s: the last one before NOW was 200 s ago. 4 cpus with a 60 min
    # limit started 30 min before it: 120 cpu-minutes still held
    last = NOW - NOW % 300
    running = _job(1, cpus=4, time_limit=60, start=last - 1800)
    state = _state(acct_limits={"GrpTRESRunMins": {"cpu": 199}}, jobs=[running])
    result = check(_req(cpus=2, time=40), state, NOW)
    assert (result.verdict, result.reason) == ("pend", "AssocGrpCPURunMinutesLimit")
    assert (result.violation.current, result.violation.request) == (120, 80)
    # between passes the held time stands still; two passes later 40 cpu-minutes are back
    assert check(_req(cpus=2, time=40), state, last + 299).violation.current == 120
    assert check(_req(cpus=2, time=40), state, last + 600).verdict == "run"
    # a pass every minute: the last one 20 s before NOW, 1980 s after the start
    state.calc_period = 60
    assert check(_req(cpus=4, time=40), state, NOW).violation.current == 4 * 27
    state.calc_anchor = 20  # passes 20 s past the minute: one at NOW itself
    # 4 x 1600 s held = 6400 cpu-seconds: whole minutes, as slurmctld divides its counter
    assert check(_req(cpus=4, time=40), state, NOW).violation.current == 106


def test_safe_grp_tres_minutes_look_ahead_adds_what_running_jobs_hold():
    """Under ``safe`` GrpTRESMins blocks a job that, with the run-minutes running jobs
    hold, could exceed what is left (acct_policy.c passes ``grp_used_tres_run_secs / 60``
    as tres_usage), with or without a GrpTRESRunMins limit beside it."""
    last = NOW - NOW % 300
    # bob: 4 cpus, 300 min limit, ran 100 min by the last pass: 800 cpu-minutes held
    running = _job(1, assoc_id=4, user="bob", cpus=4, time_limit=300, start=last - 6000)
    state = _state(
        acct_limits={"GrpTRESMins": {"cpu": 1000}},
        jobs=[running],
        usage_mins={4: {"cpu": 150.0}},
        enforce=frozenset({"associations", "limits", "qos", "safe"}),
    )
    assert check(_req(time=50), state, NOW).verdict == "run"  # 150 + 800 + 50
    result = check(_req(time=51), state, NOW)
    assert (result.verdict, result.reason) == ("pend", "AssocGrpCPUMinutesLimit")
    assert (result.violation.current, result.violation.request) == (150.0, 51)
    state.assocs[1].limits["GrpTRESRunMins"] = {"cpu": 10**9}  # changes nothing
    assert check(_req(time=50), state, NOW).verdict == "run"
    assert check(_req(time=51), state, NOW).reason == "AssocGrpCPUMinutesLimit"
    state.enforce = frozenset({"associations", "limits", "qos"})  # no look-ahead
    assert check(_req(time=60), state, NOW).verdict == "run"


def test_running_jobs_count_their_cpus_and_nodes_beside_other_tres():
    # Job.tres holds the TRES beyond the cpu and node columns (as the store keeps them)
    gpu_job = Job(
        1, "bob", "phys", 4, ("batch",), "normal", "running", cpus=8, nodes=2, tres={"gres/gpu": 2}
    )
    state = _state(acct_limits={"GrpTRES": {"cpu": 10, "node": 3, "gres/gpu": 4}}, jobs=[gpu_job])
    result = check(_req(cpus=4, nodes=2, **{"gres/gpu": 2}), state, NOW)
    assert (result.verdict, result.reason) == ("pend", "AssocGrpCpuLimit")
    assert (result.violation.current, result.violation.request) == (8, 4)
    assert [(o.reason, o.current) for o in result.others] == [("AssocGrpNodeLimit", 2)]
    assert check(_req(cpus=2, nodes=1, **{"gres/gpu": 2}), state, NOW).verdict == "run"


def test_first_violation_decides_others_are_listed():
    state = _state(user_limits={"MaxJobs": 1}, acct_limits={"GrpTRES": {"cpu": 2}}, jobs=[_job(1)])
    result = check(_req(cpus=4), state, NOW)
    assert (result.verdict, result.reason) == ("pend", "AssocMaxJobsLimit")
    assert [(o.reason, o.limit, o.tres) for o in result.others] == [
        ("AssocGrpCpuLimit", "GrpTRES", "cpu")
    ]
    payload = json.loads(json.dumps(result.to_dict()))
    assert payload["verdict"] == "pend" and payload["limit"] == "MaxJobs"
    assert (payload["value"], payload["current"], payload["level"]) == (1, 1, "user")


def test_submit_limit_rejects_before_any_pending_reason():
    state = _state(
        user_limits={"MaxJobs": 1, "MaxSubmitJobs": 2}, jobs=[_job(1), _job(2, state="pending")]
    )
    result = check(_req(), state, NOW)
    assert (result.verdict, result.reason) == ("reject", "AssocMaxSubmitJobLimit")
    assert result.sbatch_stderr() == (
        "sbatch: error: AssocMaxSubmitJobLimit\n"
        f"sbatch: error: Batch job submission failed: {POLICY}"
    )
    assert [o.reason for o in result.others] == ["AssocMaxJobsLimit"]


def test_qos_max_jobs_per_user_replaces_association_max_jobs():
    big = Qos("big", limits={"MaxJobsPerUser": 3})
    state = _state(
        user_limits={"MaxJobs": 1}, qos=[big], jobs=[_job(1, qos="big"), _job(2, qos="big")]
    )
    assert check(_req(qos="big"), state, NOW).verdict == "run"
    state.jobs.append(_job(3, qos="big"))
    result = check(_req(qos="big"), state, NOW)
    assert (result.reason, result.violation.limit) == ("QOSMaxJobsPerUserLimit", "MaxJobsPerUser")


def test_qos_per_account_counts_every_user_of_the_account():
    acct = Qos("big", limits={"MaxTRESPerAccount": {"cpu": 4}})
    state = _state(qos=[acct], jobs=[_job(1, assoc_id=4, user="bob", cpus=3, qos="big")])
    result = check(_req(cpus=2, qos="big"), state, NOW)
    assert (result.verdict, result.reason) == ("pend", "MaxCpuPerAccount")


def test_limit_factor_stretches_association_grp_tres():
    lf = Qos("big", limit_factor=2.0)
    state = _state(acct_limits={"GrpTRES": {"cpu": 4}}, qos=[lf])
    assert check(_req(cpus=8, qos="big"), state, NOW).verdict == "run"
    result = check(_req(cpus=9, qos="big"), state, NOW)
    assert (result.reason, result.violation.value) == ("AssocGrpCpuLimit", 8)


def test_partition_time_limit_pends_or_rejects_when_enforced():
    result = check(_req(time=90), _state(), NOW)
    assert (result.verdict, result.reason) == ("pend", "PartitionTimeLimit")
    enforced = check(_req(time=90), _state(enforce_part_limits=True), NOW)
    assert (enforced.verdict, enforced.reason, enforced.error) == (
        "reject",
        None,
        reasons.ERR_INVALID_TIME_LIMIT,
    )
    nodes = check(_req(nodes=5), _state(), NOW)
    assert (nodes.verdict, nodes.reason) == ("pend", "PartitionNodeLimit")


def test_qos_minimum_tres_counts_an_absent_tres_as_zero():
    gpu = Qos("gpu", limits={"MinTRESPerJob": {"gres/gpu": 1}})
    state = _state(qos=[gpu])
    result = check(_req(qos="gpu"), state, NOW)
    assert (result.verdict, result.reason) == ("pend", "QOSMinGRES")
    assert check(_req(qos="gpu", **{"gres/gpu": 2}), state, NOW).verdict == "run"


def test_grp_wall_uses_decayed_wall_minutes():
    state = _state(acct_limits={"GrpWall": 100}, usage_mins={3: {WALL: 100.0}})
    result = check(_req(time=10), state, NOW)
    assert (result.verdict, result.reason) == ("pend", "AssocGrpWallLimit")


def test_time_limit_filled_from_tightest_wall_limit_else_partition():
    assert check(_req(), _state(), NOW).time_limit == 60
    capped = _state(acct_limits={"MaxWallDurationPerJob": 45}, user_limits={"GrpWall": 500})
    assert check(_req(), capped, NOW).time_limit == 45


def test_request_errors():
    state = _state()
    refused = [
        check(_req(partition="nope"), state, NOW),
        check(_req(user="carol"), state, NOW),
        check(_req(qos="ghost"), state, NOW),
    ]
    assert [(r.verdict, r.error, r.partition, r.qos, r.reason) for r in refused] == [
        ("reject", reasons.ERR_INVALID_PARTITION, "nope", None, None),
        ("reject", reasons.ERR_INVALID_ACCOUNT, "batch", None, None),
        ("reject", reasons.ERR_INVALID_QOS, "batch", "ghost", None),
    ]
    assert refused[2].sbatch_stderr() == (
        f"sbatch: error: Batch job submission failed: {reasons.ERR_INVALID_QOS}"
    )
    state.assocs.append(Assoc(5, 1, "chem"))
    state.assocs.append(Assoc(6, 5, "chem", "alice"))
    with pytest.raises(UsageProblem, match="several accounts"):
        check(JobRequest("alice"), state, NOW)


def test_what_if_on_a_copy_leaves_the_original_alone():
    state = _state(user_limits={"MaxJobs": 1}, jobs=[_job(1)])
    assert check(_req(), state, NOW).reason == "AssocMaxJobsLimit"
    changed = copy.deepcopy(state)
    changed.assocs[2].limits["MaxJobs"] = 2
    assert check(_req(), changed, NOW).verdict == "run"
    assert check(_req(), state, NOW).verdict == "pend"


@pytest.mark.parametrize(
    ("check_key", "tres", "expected"),
    [
        ("qos_max_per_job", "gres/gpu:a100", "QOSMaxGRESPerJob"),
        ("assoc_grp", "license/matlab", "AssocGrpLicense"),
        ("assoc_max_per_node", "node", "AssocMaxUnknownPerNode"),
        ("qos_grp", "fs/disk", "QOSGrpUnknown"),
        ("qos_max_mins_per_job", "bb/cray", "AssocMaxBBMinutesPerJob"),
        ("qos_max_per_user", "mem", "QOSMaxMemoryPerUser"),
    ],
)
def test_tres_specific_reasons(check_key, tres, expected):
    assert reasons.tres_reason(check_key, tres) == expected


def test_hundred_thousand_associations_and_jobs():
    """Counting is one pass: a large store gives the same counts as a small one."""
    assocs = [
        Assoc(1, None, "root", qos=("normal",)),
        Assoc(2, 1, "big", limits={"GrpJobs": 50_000}),
    ]
    assocs += [Assoc(10 + i, 2, "big", f"u{i}") for i in range(100_000)]
    jobs = [
        Job(
            i,
            f"u{i}",
            "big",
            10 + i,
            ("p",),
            "normal",
            "running",
            cpus=1,
            tres={"cpu": 1, "node": 1},
        )
        for i in range(50_000)
    ]
    jobs += [
        Job(i, f"u{i}", "big", 10 + i, ("p",), "normal", "pending") for i in range(50_000, 100_000)
    ]
    state = LimitsState(assocs, [Qos("normal")], [Partition("p")], jobs, default_partition="p")
    result = check(JobRequest("u7", "big"), state, NOW)
    assert (result.reason, result.violation.current) == ("AssocGrpJobsLimit", 50_000)


def test_effective_limits_refuse_what_check_rejects():
    state = _state(user_limits={"MaxJobs": 2}, acct_limits={"GrpJobs": 9})
    for req, message in [
        (_req(partition="nope"), f"{reasons.ERR_INVALID_PARTITION}: nope"),
        (_req(user="carol"), reasons.ERR_INVALID_ACCOUNT),
        (_req(qos="ghost"), f"{reasons.ERR_INVALID_QOS}: ghost"),
    ]:
        with pytest.raises(InvalidValue) as info:
            effective(req, state)
        assert info.value.message == message
    names = [(e.name, e.value, e.source) for e in effective(_req(), state)]
    assert names == [
        ("MaxJobs", 2, "alice@phys"),
        ("GrpJobs", 9, "phys"),
        ("MaxWallDurationPerJob", 60, "batch"),
        ("MaxTRESPerJob", 4, "batch"),
    ]
    account_only = JobRequest(None, "phys")
    assert [(e.name, e.source) for e in effective(account_only, state)] == [
        ("GrpJobs", "phys"),
        ("MaxWallDurationPerJob", "batch"),
        ("MaxTRESPerJob", "batch"),
    ]


def test_used_wall_sums_each_holder_s_subtree_and_its_qos():
    """GrpWall on phys and root, and on the job QOS: an association's used minutes are its
    own and its descendants' (alice 4 + phys's own 1 = 5); the QOS's are its own."""
    from fscli.engine.limits.used import used_counters

    state = _state(acct_limits={"GrpWall": 60}, qos=[Qos("big", limits={"GrpWall": 30})])
    state.assocs[0].limits["GrpWall"] = 600
    state.assocs[0].limits["MaxJobs"] = 9
    state.usage_mins = {3: {WALL: 4.0}, 2: {WALL: 1.0}, 4: {"cpu": 8.0}}
    state.qos_usage_mins = {"big": {WALL: 7.5}}
    entries = effective(JobRequest("alice", "phys"), state)
    assert [(e.name, e.level) for e in entries][:3] == [
        ("GrpWall", "account"),
        ("GrpWall", "root"),
        ("MaxJobs", "root"),
    ]
    assert used_counters(state, entries, 0)[:3] == [5.0, 5.0, None]
    capped = effective(JobRequest("alice", "phys", qos="big"), state)
    assert [(e.name, e.level) for e in capped][:1] == [("GrpWall", "job-qos")]
    assert used_counters(state, capped, 0)[0] == 7.5
