"""What sbatch/slurmctld decide at submission (issue 20): INFINITE time requests, no time
limit, and the requests refused outright. Sources: src/slurmctld/acct_policy.c
(``_set_time_limit``, ``_acct_policy_validate``), src/slurmctld/job_mgr.c
(``_valid_job_part``, ``_part_access_check``, ``job_limits_check``)."""

from __future__ import annotations

from fscli.engine import reasons as R
from fscli.engine.limit_check import JobRequest, LimitsState, check
from fscli.engine.limit_jobs import request_tres
from fscli.engine.model import Assoc, Partition, Qos
from fscli.engine.timestr import INFINITE_MINUTES, parse_time_limit

NOW = 1_700_000_000


def _state(**kw) -> LimitsState:
    """root > phys (MaxWall 2 hours) > alice; partition batch (MaxTime 1 day, 4 nodes of
    16 CPUs); QOS normal, and deny (DenyOnLimit: strict checking)."""
    assocs = [Assoc(1, None, "root", qos=("normal", "deny")),
              Assoc(2, 1, "phys", limits={"MaxWallDurationPerJob": 120}),
              Assoc(3, 2, "phys", "alice")]
    qos = [Qos("normal"), Qos("deny", flags=frozenset({"DenyOnLimit"}))]
    parts = [Partition("batch", nodes=4, cpus=64, max_time=1440)]
    return LimitsState(assocs, qos, parts, default_partition="batch", **kw)


def _req(time: int | None = None, qos: str | None = None, cpus: int = 1) -> JobRequest:
    return JobRequest("alice", "phys", None, qos, request_tres(cpus, 1, {}), time)


def test_infinite_is_a_request_not_no_time() -> None:
    assert [parse_time_limit(t) for t in ("UNLIMITED", "infinite", "-1", "1:00:00")] == [
        INFINITE_MINUTES, INFINITE_MINUTES, INFINITE_MINUTES, 60]


def test_no_time_limit_is_cut_to_the_max_wall_and_runs() -> None:
    """``_set_time_limit``: NO_VAL takes the MaxWall (120), else the partition's MaxTime."""
    result = check(_req(), _state(), NOW)
    assert (result.verdict, result.time_limit) == ("run", 120)


def test_infinite_keeps_it_and_pends_on_the_partition_then_the_max_wall() -> None:
    """``-t INFINITE`` (0xFFFFFFFF minutes) exceeds the partition's MaxTime
    (job_limits_check: PartitionTimeLimit) and the account's MaxWall."""
    result = check(_req(INFINITE_MINUTES), _state(), NOW)
    assert (result.verdict, result.reason, result.time_limit) == (
        "pend", "PartitionTimeLimit", None)
    assert [v.reason for v in result.others] == ["AssocMaxWallDurationPerJobLimit"]


def test_infinite_under_strict_checking_is_rejected_by_the_max_wall() -> None:
    result = check(_req(INFINITE_MINUTES, qos="deny"), _state(), NOW)
    assert (result.verdict, result.reason, result.error) == (
        "reject", "AssocMaxWallDurationPerJobLimit", R.ERR_ACCOUNTING_POLICY)
