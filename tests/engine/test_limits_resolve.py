"""Limit resolution: precedence, Grp at every level, partition caps, LimitFactor."""

from __future__ import annotations

import pytest

from fscli.engine.limits.precedence import resolve
from fscli.engine.model import Assoc, Partition, Qos
from fscli.errors import InvalidValue

ROOT = Assoc(1, None, "root", limits={"GrpTRES": {"mem": 1024 * 1024}})
PHYS = Assoc(2, 1, "phys", limits={"GrpTRES": {"cpu": 128}, "MaxJobs": 8, "GrpJobs": 50})
ALICE = Assoc(
    3, 2, "phys", "alice", limits={"MaxJobs": 4, "MaxSubmitJobs": 50, "GrpTRES": {"cpu": 500}}
)
CHAIN = [ALICE, PHYS, ROOT]


def _dicts(entries):
    return [e.to_dict() for e in entries]


def test_seed_003_partition_qos_maxjobs_wins_user_maxsubmit_kept():
    """resource_limits.shtml: partition QOS MaxJobs=20 without MaxSubmitJobs, nothing in
    the job QOS, user MaxJobs=4 MaxSubmitJobs=50 → MaxJobs=20, MaxSubmitJobs=50."""
    part_qos = Qos("pq", limits={"MaxJobsPerUser": 20})
    user = Assoc(3, 2, "phys", "alice", limits={"MaxJobs": 4, "MaxSubmitJobs": 50})
    entries = resolve(
        [user, Assoc(2, 1, "phys"), Assoc(1, None, "root")],
        Qos("normal"),
        Partition("p", qos="pq"),
        part_qos,
    )
    assert _dicts(entries) == [
        {
            "name": "MaxJobs",
            "value": 20,
            "level": "partition-qos",
            "source": "pq",
            "as": "MaxJobsPerUser",
        },
        {"name": "MaxSubmitJobs", "value": 50, "level": "user", "source": "alice@phys"},
    ]


def test_grp_limits_listed_at_every_level_max_inherited_once():
    entries = _dicts(resolve(CHAIN))
    assert entries == [
        {"name": "GrpTRES", "tres": "cpu", "value": 500, "level": "user", "source": "alice@phys"},
        {"name": "MaxJobs", "value": 4, "level": "user", "source": "alice@phys"},
        {"name": "MaxSubmitJobs", "value": 50, "level": "user", "source": "alice@phys"},
        {"name": "GrpJobs", "value": 50, "level": "account", "source": "phys"},
        {"name": "GrpTRES", "tres": "cpu", "value": 128, "level": "account", "source": "phys"},
        {"name": "GrpTRES", "tres": "mem", "value": 1048576, "level": "root", "source": "root"},
    ]


def test_account_max_inherited_when_user_sets_none():
    bob = Assoc(4, 2, "phys", "bob")
    entries = resolve([bob, PHYS, ROOT])
    maxjobs = [e for e in entries if e.name == "MaxJobs"]
    assert [(e.value, e.level, e.source) for e in maxjobs] == [(8, "account", "phys")]


def test_job_qos_blocks_association_limit_per_tres():
    qos = Qos("big", limits={"GrpTRES": {"cpu": 1000}})
    entries = resolve(CHAIN, qos)
    grp = [(e.tres, e.value, e.level) for e in entries if e.name == "GrpTRES"]
    assert grp == [("cpu", 1000, "job-qos"), ("mem", 1048576, "root")]


def test_partition_qos_first_unless_overpartqos():
    part_qos = Qos("pq", limits={"MaxTRESPerJob": {"cpu": 4}})
    job_qos = Qos("q", limits={"MaxTRESPerJob": {"cpu": 16, "mem": 2000}})
    part = Partition("p", qos="pq")
    first = [
        (e.tres, e.value, e.source)
        for e in resolve(CHAIN, job_qos, part, part_qos)
        if e.name == "MaxTRESPerJob"
    ]
    assert first == [("cpu", 4, "pq"), ("mem", 2000, "q")]
    over = Qos("q", flags=frozenset({"OverPartQOS"}), limits=job_qos.limits)
    swapped = [
        (e.tres, e.value, e.source)
        for e in resolve(CHAIN, over, part, part_qos)
        if e.name == "MaxTRESPerJob"
    ]
    assert swapped == [("cpu", 16, "q"), ("mem", 2000, "q")]


def test_partition_caps_maxwall_unless_partition_time_limit_flag():
    user = Assoc(3, 2, "phys", "alice", limits={"MaxWallDurationPerJob": 600})
    chain = [user, PHYS, ROOT]
    part = Partition("short", max_time=60, max_nodes=2)
    wall = [e for e in resolve(chain, Qos("normal"), part) if e.name == "MaxWallDurationPerJob"]
    assert [(e.value, e.level, e.source) for e in wall] == [(60, "partition", "short")]
    free = Qos("long", flags=frozenset({"PartitionTimeLimit"}))
    wall = [e for e in resolve(chain, free, part) if e.name == "MaxWallDurationPerJob"]
    assert [(e.value, e.level) for e in wall] == [(600, "user")]
    nodes = [e for e in resolve(chain, free, part) if e.tres == "node"]
    assert [(e.name, e.value, e.level) for e in nodes] == [("MaxTRESPerJob", 2, "partition")]


def test_looser_partition_cap_leaves_the_tighter_limit():
    user = Assoc(3, 2, "phys", "alice", limits={"MaxWallDurationPerJob": 30})
    wall = [
        e
        for e in resolve([user, PHYS, ROOT], None, Partition("p", max_time=60))
        if e.name == "MaxWallDurationPerJob"
    ]
    assert [(e.value, e.level) for e in wall] == [(30, "user")]


def test_limit_factor_multiplies_association_tres_limits_only():
    qos = Qos("lf", limit_factor=2.5, limits={"MaxJobsPerUser": 3})
    user = Assoc(
        3, 2, "phys", "alice", limits={"MaxTRESPerJob": {"cpu": 10}, "MaxTRESPerNode": {"cpu": 4}}
    )
    entries = {(e.name, e.tres): e.value for e in resolve([user, PHYS, ROOT], qos)}
    assert entries[("MaxTRESPerJob", "cpu")] == 25
    assert entries[("GrpTRES", "cpu")] == 320
    assert entries[("MaxTRESPerNode", "cpu")] == 4
    assert entries[("MaxJobs", None)] == 3


def test_broken_chain_is_an_error():
    with pytest.raises(InvalidValue, match="not a child"):
        resolve([ALICE, ROOT])
    with pytest.raises(InvalidValue, match="does not reach root"):
        resolve([ALICE, PHYS])
