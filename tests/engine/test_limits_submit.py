"""What sbatch/slurmctld decide at submission (issue 20): INFINITE time requests, no time
limit, and the requests refused outright. Sources: src/slurmctld/acct_policy.c
(``_set_time_limit``, ``_acct_policy_validate``), src/slurmctld/job_mgr.c
(``_valid_job_part``, ``_part_access_check``, ``job_limits_check``)."""

from __future__ import annotations

import pytest

from fscli.engine import reasons as R
from fscli.engine.config import PriorityConfig, validate
from fscli.engine.limits.check import JobRequest, LimitsState, check
from fscli.engine.model import Assoc, Partition, Qos
from fscli.engine.submit import MemoryDefaults, fill_memory
from fscli.engine.timestr import INFINITE_MINUTES, parse_time_limit
from fscli.engine.tres import request_tres
from fscli.errors import InvalidValue

NOW = 1_700_000_000


def _state(**kw) -> LimitsState:
    """root > phys (MaxWall 2 hours) > alice; partition batch (MaxTime 1 day, 4 nodes of
    16 CPUs); QOS normal, and deny (DenyOnLimit: strict checking)."""
    assocs = [
        Assoc(1, None, "root", qos=("normal", "deny")),
        Assoc(2, 1, "phys", limits={"MaxWallDurationPerJob": 120}),
        Assoc(3, 2, "phys", "alice"),
    ]
    qos = [Qos("normal"), Qos("deny", flags=frozenset({"DenyOnLimit"}))]
    parts = [Partition("batch", nodes=4, cpus=64, max_time=1440)]
    return LimitsState(assocs, qos, parts, default_partition="batch", **kw)


def _req(time: int | None = None, qos: str | None = None, cpus: int = 1) -> JobRequest:
    return JobRequest("alice", "phys", None, qos, request_tres(cpus, 1, {}), time)


def test_infinite_is_a_request_not_no_time() -> None:
    assert [parse_time_limit(t) for t in ("UNLIMITED", "infinite", "-1", "1:00:00")] == [
        INFINITE_MINUTES,
        INFINITE_MINUTES,
        INFINITE_MINUTES,
        60,
    ]


def test_no_time_limit_is_cut_to_the_max_wall_and_runs() -> None:
    """``_set_time_limit``: NO_VAL takes the MaxWall (120), else the partition's MaxTime."""
    result = check(_req(), _state(), NOW)
    assert (result.verdict, result.time_limit) == ("run", 120)


def test_no_time_limit_takes_the_max_wall_even_above_the_partition_s_max_time() -> None:
    """``_set_time_limit`` prefers the limit's MaxWall to the partition's MaxTime (it caps
    nothing by the partition): MaxWall 120 in a 60-minute partition gives 120, which
    ``job_limits_check`` then finds past the partition (PartitionTimeLimit)."""
    state = _state()
    state.partitions[0].max_time = 60
    result = check(_req(), state, NOW)
    assert (result.verdict, result.reason, result.time_limit) == ("pend", "PartitionTimeLimit", 120)


def test_infinite_keeps_it_and_pends_on_the_partition_then_the_max_wall() -> None:
    """``-t INFINITE`` (0xFFFFFFFF minutes) exceeds the partition's MaxTime
    (job_limits_check: PartitionTimeLimit) and the account's MaxWall."""
    result = check(_req(INFINITE_MINUTES), _state(), NOW)
    assert (result.verdict, result.reason, result.time_limit) == (
        "pend",
        "PartitionTimeLimit",
        None,
    )
    assert [v.reason for v in result.others] == ["AssocMaxWallDurationPerJobLimit"]


def test_infinite_under_strict_checking_is_rejected_by_the_max_wall() -> None:
    result = check(_req(INFINITE_MINUTES, qos="deny"), _state(), NOW)
    assert (result.verdict, result.reason, result.error) == (
        "reject",
        "AssocMaxWallDurationPerJobLimit",
        R.ERR_ACCOUNTING_POLICY,
    )


# -- memory a job does not give --------------------------------------------------------


def test_default_memory_per_cpu_and_per_node() -> None:
    """DefMemPerCPU x CPUs; DefMemPerNode x nodes (and it wins over DefMemPerCPU); a job
    that gives its memory keeps it; nothing set: no memory."""
    assert fill_memory(4, 1, {}, MemoryDefaults(per_cpu=100)) == (4, {"mem": 400})
    assert fill_memory(4, 2, {}, MemoryDefaults(per_node=1000)) == (4, {"mem": 2000})
    assert fill_memory(4, 2, {}, MemoryDefaults(100, 1000)) == (4, {"mem": 2000})
    assert fill_memory(4, 1, {"mem": 50}, MemoryDefaults(per_cpu=100)) == (4, {"mem": 50})
    assert fill_memory(4, 1, {"gres/gpu": 1}, MemoryDefaults()) == (4, {"gres/gpu": 1})


def test_max_mem_per_cpu_trades_memory_for_cpus() -> None:
    """``_valid_pn_min_mem``: DefMemPerCPU 1000 over MaxMemPerCPU 300 -> ratio
    ceil(1000/300) = 4: 2 CPUs become 8 with ceil(1000/4) = 250 MB each (2000 MB); a
    per-node 1000 MB needs ceil(1000/300) = 4 CPUs per node (2 nodes: 8 CPUs)."""
    assert fill_memory(2, 1, {}, MemoryDefaults(per_cpu=1000, max_per_cpu=300)) == (
        8,
        {"mem": 2000},
    )
    assert fill_memory(2, 1, {}, MemoryDefaults(per_cpu=300, max_per_cpu=300)) == (2, {"mem": 600})
    assert fill_memory(2, 2, {}, MemoryDefaults(per_node=1000, max_per_cpu=300)) == (
        8,
        {"mem": 2000},
    )


def test_memory_defaults_read_from_the_configuration() -> None:
    cfg = PriorityConfig.from_mapping({"DefMemPerCPU": "100", "MaxMemPerCPU": "400"})
    assert MemoryDefaults.of(cfg) == MemoryDefaults(100, 0, 400)
    assert [validate("EnforcePartLimits", v)[1] for v in ("yes", "1", "any", "ALL", "no")] == [
        "ANY",
        "ANY",
        "ANY",
        "ALL",
        "NO",
    ]
    assert cfg.enforce_part_limits is False
    assert PriorityConfig.from_mapping({"EnforcePartLimits": "ALL"}).enforce_part_limits is True
    with pytest.raises(InvalidValue, match="expected NO, YES, ANY or ALL"):
        validate("EnforcePartLimits", "some")
    with pytest.raises(InvalidValue, match="expected megabytes"):
        validate("DefMemPerCPU", "1G")


def test_grp_mem_limit_counts_the_default_memory() -> None:
    """GrpTRES=mem=300 on the account, DefMemPerCPU=100: a 4-CPU job holds 400 MB."""
    state = _state(memory=MemoryDefaults(per_cpu=100))
    state.assocs[1].limits["GrpTRES"] = {"mem": 300}
    result = check(_req(cpus=4), state, NOW)
    assert (result.verdict, result.reason, result.violation.request) == (
        "pend",
        "AssocGrpMemLimit",
        400,
    )
    assert check(_req(cpus=3), state, NOW).verdict == "run"


def test_a_partition_s_memory_defaults_replace_the_cluster_s() -> None:
    """read_config.c: a partition's DefMemPerCPU/DefMemPerNode (one setting in slurmctld)
    is taken whole when set; its MaxMemPerCPU replaces the cluster's."""
    cluster = MemoryDefaults(per_cpu=100, per_node=0, max_per_cpu=400)
    assert cluster.under(None) == cluster
    assert cluster.under(Partition("p")) == cluster
    assert cluster.under(Partition("p", def_mem_per_node=8000)) == MemoryDefaults(0, 8000, 400)
    assert cluster.under(Partition("p", def_mem_per_cpu=2000, max_mem_per_cpu=0)) == MemoryDefaults(
        2000, 0, 0
    )
    assert cluster.under(Partition("p", max_mem_per_cpu=50)) == MemoryDefaults(100, 0, 50)


def test_grp_mem_limit_counts_the_partition_s_default_memory() -> None:
    """DefMemPerCPU=100 on the cluster, 2000 on partition big: a 4-CPU job in big holds
    8000 MB and pends on GrpTRES=mem=4000; in batch it holds 400 MB and runs."""
    state = _state(memory=MemoryDefaults(per_cpu=100))
    state.partitions.append(Partition("big", nodes=4, cpus=64, def_mem_per_cpu=2000))
    state.assocs[1].limits["GrpTRES"] = {"mem": 4000}
    big = JobRequest("alice", "phys", "big", None, request_tres(4, 1, {}), None)
    result = check(big, state, NOW)
    assert (result.verdict, result.reason, result.violation.request) == (
        "pend",
        "AssocGrpMemLimit",
        8000,
    )
    assert check(_req(cpus=4), state, NOW).verdict == "run"


# -- partition sizes and limits: refused under EnforcePartLimits, else pending ------------


@pytest.mark.parametrize(
    "enforce,verdict,reason,error",
    [
        (False, "pend", "PartitionConfig", None),
        (True, "reject", None, "More processors requested than permitted"),
    ],
)
def test_more_cpus_than_the_partition_has(enforce, verdict, reason, error) -> None:
    result = check(_req(time=60, cpus=65), _state(enforce_part_limits=enforce), NOW)
    assert (result.verdict, result.reason, result.error) == (verdict, reason, error)
    assert (result.violation.limit, result.violation.value, result.violation.request) == (
        "TotalCPUs",
        64,
        65,
    )
    assert check(_req(time=60, cpus=64), _state(enforce_part_limits=enforce), NOW).verdict == "run"


@pytest.mark.parametrize(
    "enforce,verdict,reason,error",
    [
        (False, "pend", "PartitionTimeLimit", None),
        (True, "reject", None, "Requested time limit is invalid (missing or exceeds some limit)"),
    ],
)
def test_partition_time_limit_under_enforce_part_limits(enforce, verdict, reason, error) -> None:
    state = _state(enforce_part_limits=enforce)
    state.assocs[1].limits.clear()
    result = check(_req(time=1441), state, NOW)
    assert (result.verdict, result.reason, result.error) == (verdict, reason, error)


def test_more_nodes_than_the_partition_has() -> None:
    req = JobRequest("alice", "phys", None, None, request_tres(5, 5, {}), 60)
    assert (
        check(req, _state(), NOW).reason,
        check(req, _state(enforce_part_limits=True), NOW).error,
    ) == ("PartitionNodeLimit", "Node count specification invalid")
