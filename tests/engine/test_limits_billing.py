"""The billing TRES in limit checks: the request's (slurmctld sets ``tres_req_cnt[billing]``
from the partition's TRESBillingWeights before any limit is checked) and every running
job's (added to the associations' and QOS' ``grp_used_tres`` and run-seconds)."""

from __future__ import annotations

from fscli.engine.limits.check import JobRequest, LimitsState, check
from fscli.engine.limits.counting import JobGroup, job_billable
from fscli.engine.model import Assoc, Job, Partition, Qos
from fscli.engine.tres import request_tres

NOW = 1_700_000_000
LAST_PASS = NOW - NOW % 300


def _state(user=None, acct=None, qos=None, jobs=(), **kw) -> LimitsState:
    """phys (alice, bob) under root; partition batch bills CPU=2.0, partition plain has no
    weights of its own."""
    assocs = [
        Assoc(1, None, "root", qos=("normal", "deny", "high")),
        Assoc(2, 1, "phys", limits=dict(acct or {})),
        Assoc(3, 2, "phys", "alice", limits=dict(user or {})),
        Assoc(4, 2, "phys", "bob"),
    ]
    all_qos = [
        Qos("normal"),
        Qos("deny", flags=frozenset({"DenyOnLimit"})),
        Qos("high", limits=dict(qos or {})),
    ]
    parts = [Partition("batch", billing_weights="CPU=2.0"), Partition("plain")]
    return LimitsState(assocs, all_qos, parts, list(jobs), default_partition="batch", **kw)


def _req(cpus=1, nodes=1, time=None, qos=None, partition=None, **tres) -> JobRequest:
    return JobRequest("alice", "phys", partition, qos, request_tres(cpus, nodes, tres), time)


def _running(
    jid,
    cpus,
    user="bob",
    assoc_id=4,
    partition="batch",
    time_limit=None,
    start=None,
    qos="normal",
    tres=None,
):
    return Job(
        jid,
        user,
        "phys",
        assoc_id,
        (partition,),
        qos,
        "running",
        cpus=cpus,
        tres=dict(tres or {}),
        time_limit=time_limit,
        start=start,
    )


def test_grp_tres_billing_counts_the_request_billed_by_partition_weights():
    state = _state(acct={"GrpTRES": {"billing": 10}})
    assert check(_req(cpus=4), state, NOW).verdict == "run"  # billing 8
    result = check(_req(cpus=6), state, NOW)  # billing 12
    assert (result.verdict, result.reason) == ("pend", "AssocGrpBilling")
    v = result.violation
    assert (v.limit, v.tres, v.value, v.current, v.request, v.level, v.source) == (
        "GrpTRES",
        "billing",
        10,
        0,
        12,
        "account",
        "phys",
    )
    assert check(_req(cpus=6, partition="plain"), state, NOW).verdict == "run"  # its CPUs: 6


def test_running_jobs_add_their_billing_to_the_group():
    state = _state(acct={"GrpTRES": {"billing": 10}}, jobs=[_running(1, cpus=2)])  # 4
    assert check(_req(cpus=3), state, NOW).verdict == "run"  # 4 + 6 = 10
    result = check(_req(cpus=4), state, NOW)  # 4 + 8
    assert (result.reason, result.violation.current, result.violation.request) == (
        "AssocGrpBilling",
        4,
        8,
    )
    # a job in a partition without weights is billed its CPUs
    state.jobs.append(_running(2, cpus=3, partition="plain"))
    result = check(_req(cpus=2), state, NOW)  # 4 + 3 + 4
    assert (result.reason, result.violation.current) == ("AssocGrpBilling", 7)


def test_a_running_jobs_recorded_billing_is_recomputed_as_slurmctld_does():
    """Usage charges a job job_billing's figure whatever its TRES say; so do the limits."""
    state = _state(
        acct={"GrpTRES": {"billing": 10}},
        jobs=[_running(1, cpus=2, tres={"cpu": 2, "node": 1, "billing": 1})],
    )
    result = check(_req(cpus=4), state, NOW)
    assert (result.reason, result.violation.current) == ("AssocGrpBilling", 4)


def test_a_billing_named_in_the_request_is_kept():
    state = _state(acct={"GrpTRES": {"billing": 10}})
    assert check(_req(cpus=6, billing=10), state, NOW).verdict == "run"
    assert check(_req(cpus=1, billing=11), state, NOW).reason == "AssocGrpBilling"


def test_max_billing_per_job_pends_or_rejects_under_deny_on_limit():
    state = _state(user={"MaxTRESPerJob": {"billing": 8}})
    assert check(_req(cpus=4), state, NOW).verdict == "run"
    pend = check(_req(cpus=5), state, NOW)
    assert (pend.verdict, pend.reason, pend.violation.request) == (
        "pend",
        "AssocMaxBillingPerJob",
        10,
    )
    reject = check(_req(cpus=5, qos="deny"), state, NOW)
    assert (reject.verdict, reject.reason) == ("reject", "AssocMaxBillingPerJob")
    assert reject.sbatch_stderr() == (
        "sbatch: error: AssocMaxBillingPerJob\n"
        "sbatch: error: Batch job submission failed: Job violates accounting/QOS policy "
        "(job submit limit, user's size and/or time limits)"
    )


def test_qos_billing_limits_per_job_per_node_and_per_user():
    state = _state(qos={"MaxTRESPerJob": {"billing": 8}})
    assert check(_req(cpus=5, qos="high"), state, NOW).reason == "QOSMaxBillingPerJob"
    state = _state(qos={"MaxTRESPerNode": {"billing": 4}})
    assert check(_req(cpus=4, nodes=2, qos="high"), state, NOW).verdict == "run"  # 8 / 2
    assert check(_req(cpus=5, nodes=2, qos="high"), state, NOW).reason == "QOSMaxBillingPerNode"
    state = _state(
        qos={"MaxTRESPerUser": {"billing": 12}},
        jobs=[_running(1, cpus=4, user="alice", assoc_id=3, qos="high")],
    )  # 8
    assert check(_req(cpus=2, qos="high"), state, NOW).verdict == "run"
    result = check(_req(cpus=3, qos="high"), state, NOW)
    assert (result.reason, result.violation.current) == ("QOSMaxBillingPerUser", 8)
    state.qos[2].limits = {"MinTRESPerJob": {"billing": 4}}
    assert check(_req(cpus=1, qos="high"), state, NOW).reason == "QOSMinBilling"


def test_billing_minutes_limits():
    state = _state(user={"MaxTRESMinsPerJob": {"billing": 80}})
    assert check(_req(cpus=4, time=10), state, NOW).verdict == "run"  # 8 x 10
    result = check(_req(cpus=4, time=11), state, NOW)
    assert (result.reason, result.violation.request) == ("AssocMaxBillingMinutesPerJob", 88)
    state = _state(acct={"GrpTRESMins": {"billing": 500}}, usage_mins={4: {"billing": 500.0}})
    result = check(_req(), state, NOW)
    assert (result.reason, result.violation.current) == ("AssocGrpBillingMinutes", 500)


def test_billing_run_minutes_of_running_jobs():
    # 3 cpus in batch bill 6; 60 minutes limit, started 30 minutes before the last pass
    job = _running(1, cpus=3, time_limit=60, start=LAST_PASS - 1800)
    state = _state(acct={"GrpTRESRunMins": {"billing": 300}}, jobs=[job])
    assert check(_req(cpus=1, time=60), state, NOW).verdict == "run"  # 180 + 120
    result = check(_req(cpus=1, time=61), state, NOW)
    assert (result.reason, result.violation.current, result.violation.request) == (
        "AssocGrpBillingRunMinutes",
        180,
        122,
    )


def test_time_limit_filled_from_a_billing_minutes_limit_under_strict_checking():
    state = _state(user={"MaxTRESMinsPerJob": {"billing": 100}})
    assert check(_req(cpus=4, qos="deny"), state, NOW).time_limit == 12  # 100 // 8


def test_cluster_wide_weights_and_max_tres():
    state = _state(acct={"GrpTRES": {"billing": 10}}, billing_weights={"cpu": 1.0, "mem": 1 / 1024})
    # plain has no weights of its own: the cluster's bill cpu + mem in GB
    assert check(_req(cpus=2, partition="plain", mem=8192), state, NOW).verdict == "run"
    result = check(_req(cpus=2, partition="plain", mem=9216), state, NOW)
    assert (result.reason, result.violation.request) == ("AssocGrpBilling", 11)
    state.priority_flags = frozenset({"MAX_TRES"})  # the larger of cpu and mem only
    assert check(_req(cpus=2, partition="plain", mem=9216), state, NOW).verdict == "run"


def test_job_billable_is_truncated_where_slurmctld_counts_it():
    half = Partition("half", billing_weights="CPU=1.5")
    assert job_billable(3, 1, {}, half, {}) == 4.5
    state = _state(acct={"GrpTRES": {"billing": 4}})
    state.partitions.append(half)
    assert check(_req(cpus=3, partition="half"), state, NOW).verdict == "run"  # 4.5 -> 4
    # the partition's weights win over the cluster's; a billing in the TRES is no input
    assert job_billable(2, 1, {"billing": 99}, half, {"cpu": 10.0}) == 3.0
    assert job_billable(2, 1, {"cpu": 4}, None, {}) == 4.0


def test_a_node_weight_bills_every_job_by_its_node_count():
    """slurmctld's allocation always holds the node count, so Node= bills each node even
    when the job's TRES text names none (a TRES text that names node wins)."""
    nodes = Partition("wide", billing_weights="CPU=1.0,Node=10")
    assert job_billable(4, 2, {}, nodes, {}) == 24.0
    assert job_billable(4, 2, {"node": 3}, nodes, {}) == 34.0
    assert job_billable(4, 2, {}, None, {"node": 10.0}) == 20.0
    assert job_billable(4, 2, {}, None, {}) == 4.0  # no weights: the CPUs


def test_the_scope_asks_a_store_for_billing_only_when_a_counted_limit_reads_it():
    asked = []

    def count(scope):
        asked.append(scope)
        return [
            JobGroup(
                4,
                True,
                1,
                {"cpu": 2, "node": 1, "billing": 4},
                {},
                "normal",
                "batch",
                "bob",
                "phys",
            )
        ]

    state = _state(acct={"GrpTRES": {"cpu": 100}}, user={"MaxTRESPerJob": {"billing": 50}})
    state.count_jobs = count
    check(_req(cpus=4), state, NOW)
    assert not asked[-1].billing
    state.assocs[1].limits["GrpTRES"]["billing"] = 10
    result = check(_req(cpus=4), state, NOW)
    assert asked[-1].billing
    assert (result.reason, result.violation.current) == ("AssocGrpBilling", 4)


def test_billing_from_other_tres_only():
    state = _state(acct={"GrpTRES": {"billing": 1}})
    state.partitions[0].billing_weights = "CPU=0"  # bills nothing: the limit is not read
    assert check(_req(cpus=4, mem=2048), state, NOW).verdict == "run"
    state.partitions[0].billing_weights = "Mem=1G"
    result = check(_req(cpus=4, mem=2048), state, NOW)
    assert (result.reason, result.violation.request) == ("AssocGrpBilling", 2)
