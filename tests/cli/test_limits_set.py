"""``fscli limits set / unset / show`` on every kind of target, and the bad input."""

from __future__ import annotations

import json

import pytest


def _show(fscli, *target: str) -> list[str]:
    return fscli.ok("limits", "show", *target, "-P", "-n").stdout.splitlines()


def _json(fscli, *target: str) -> list[dict]:
    return json.loads(fscli.ok("limits", "show", *target, "--json").stdout)["limits"]


def test_account_tres_of_every_kind_with_units(science):
    science.ok(
        "limits",
        "set",
        "account=chem",
        "GrpTRES=cpu=10,mem=20G,node=2,gres/gpu:a100=2,license/matlab=1,billing=100,"
        "energy=5K,fs/disk=1M,vmem=512,pages=3,bb/cray=2T",
    )
    assert _show(science, "account=chem") == [
        "GrpTRES|cpu|10|account|chem|",
        "GrpTRES|mem|20G|account|chem|",
        "GrpTRES|energy|5120|account|chem|",
        "GrpTRES|node|2|account|chem|",
        "GrpTRES|billing|100|account|chem|",
        "GrpTRES|fs/disk|1048576|account|chem|",
        "GrpTRES|vmem|512M|account|chem|",
        "GrpTRES|pages|3|account|chem|",
        "GrpTRES|bb/cray|2T|account|chem|",
        "GrpTRES|gres/gpu:a100|2|account|chem|",
        "GrpTRES|license/matlab|1|account|chem|",
    ]
    mem = next(e for e in _json(science, "account=chem") if e.get("tres") == "mem")
    assert mem == {
        "name": "GrpTRES",
        "tres": "mem",
        "value": 20480,
        "level": "account",
        "source": "chem",
    }


@pytest.mark.parametrize(
    "text,minutes,shown",
    [
        ("10", 10, "00:10:00"),
        ("0:30", 1, "00:01:00"),
        ("1:30:00", 90, "01:30:00"),
        ("2-0", 2880, "2-00:00:00"),
        ("1-2:30", 1590, "1-02:30:00"),
        ("1-2:30:15", 1591, "1-02:31:00"),
        ("90:00", 90, "01:30:00"),
    ],
)
def test_wall_times_in_every_slurm_format(science, text, minutes, shown):
    science.ok(
        "limits", "set", "user=alice", "account=physics", f"MaxWall={text}", f"GrpWall={text}"
    )
    entries = _json(science, "user=alice")
    assert [(e["name"], e["value"]) for e in entries] == [
        ("GrpWall", minutes),
        ("MaxWallDurationPerJob", minutes),
    ]
    assert _show(science, "user=alice")[1] == f"MaxWallDurationPerJob||{shown}|user|alice@physics|"


def test_job_counts_tres_minutes_and_clearing(science):
    science.ok(
        "limits",
        "set",
        "account=physics",
        "GrpJobs=50",
        "GrpSubmitJobs=100",
        "MaxJobs=8",
        "MaxSubmit=20",
        "GrpTRESMins=cpu=60000,gres/gpu=600",
        "MaxTRESMinsPerJob=cpu=1000",
        "MaxTRESPerNode=cpu=64",
        "GrpJobsAccrue=5",
        "MaxJobsAccrue=2",
        "MinPrioThreshold=10",
        "GrpTRESRunMins=cpu=9000",
    )
    names = [e["name"] for e in _json(science, "account=physics")]
    assert names == [
        "GrpJobs",
        "GrpJobsAccrue",
        "GrpSubmitJobs",
        "GrpTRESMins",
        "GrpTRESMins",
        "GrpTRESRunMins",
        "MaxJobs",
        "MaxJobsAccrue",
        "MaxSubmitJobs",
        "MaxTRESMinsPerJob",
        "MaxTRESPerNode",
        "MinPrioThreshold",
    ]
    science.ok("limits", "set", "account=physics", "GrpTRESMins=gres/gpu=-1", "MaxJobs=-1")
    science.ok(
        "limits",
        "unset",
        "account=physics",
        "GrpJobs",
        "MaxSubmit",
        "GrpTRESRunMins=cpu",
        "GrpJobsAccrue",
        "MaxJobsAccrue",
        "MinPrioThreshold",
        "MaxTRESMinsPerJob",
        "MaxTRESPerNode",
    )
    assert _show(science, "account=physics") == [
        "GrpSubmitJobs||100|account|physics|",
        "GrpTRESMins|cpu|60000|account|physics|",
    ]


def test_root_user_and_user_partition_targets(science):
    science.ok("partition", "add", "gpu")
    science.ok("user", "add", "alice", "account=physics", "partition=gpu")
    science.ok("limits", "set", "cluster=c1", "GrpTRES=mem=1T", "qos=normal")
    science.ok("limits", "set", "user=alice", "account=physics", "partition=gpu", "MaxJobs=2")
    science.ok("limits", "set", "user=bob", "MaxSubmitJobs=5")
    assert _show(science, "cluster=c1") == ["GrpTRES|mem|1T|root|root|", "QOS||normal|root|root|"]
    assert _show(science, "user=alice") == ["MaxJobs||2|user|alice@physics:gpu|"]
    assert _show(science, "user=bob", "account=chem") == ["MaxSubmitJobs||5|user|bob@chem|"]


def test_qos_limits_flags_and_factors(science):
    science.ok("qos", "add", "high")
    science.ok(
        "limits",
        "set",
        "qos=high",
        "MaxJobsPerUser=20",
        "MaxTRESPU=gres/gpu=4",
        "MaxSubmitJobsPerAccount=30",
        "MinTRES=cpu=2",
        "GrpTRES=cpu=256",
        "Flags=DenyOnLimit,OverPartQOS,PartitionTimeLimit,PartitionMaxNodes,"
        "PartitionMinNodes,NoDecay",
        "LimitFactor=2.5",
        "UsageFactor=0.5",
    )
    assert _show(science, "qos=high") == [
        "GrpTRES|cpu|256|qos|high|",
        "MaxJobsPerUser||20|qos|high|",
        "MaxSubmitJobsPerAccount||30|qos|high|",
        "MaxTRESPerUser|gres/gpu|4|qos|high|",
        "MinTRESPerJob|cpu|2|qos|high|",
        "Flags||DenyOnLimit,NoDecay,OverPartQOS,PartitionMaxNodes,PartitionMinNodes,"
        "PartitionTimeLimit|qos|high|",
        "LimitFactor||2.5|qos|high|",
        "UsageFactor||0.5|qos|high|",
    ]
    science.ok(
        "limits",
        "unset",
        "qos=high",
        "Flags",
        "LimitFactor",
        "UsageFactor",
        "GrpTRES",
        "MaxTRESPU=gres/gpu",
        "MinTRES",
        "MaxSubmitJobsPerAccount",
    )
    assert _show(science, "qos=high") == ["MaxJobsPerUser||20|qos|high|"]


def test_partition_limits(science):
    science.ok("partition", "add", "short")
    science.ok("limits", "set", "partition=short", "MaxTime=4:00:00", "MaxNodes=2", "MinNodes=1")
    assert _json(science, "partition=short") == [
        {"name": "MaxTime", "value": 240, "level": "partition", "source": "short"},
        {"name": "MaxNodes", "value": 2, "level": "partition", "source": "short"},
        {"name": "MinNodes", "value": 1, "level": "partition", "source": "short"},
    ]
    science.ok("limits", "unset", "partition=short", "MaxTime", "MaxNodes")
    assert _show(science, "partition=short") == ["MinNodes||1|partition|short|"]


def test_rich_table_and_history(science):
    science.ok("limits", "set", "account=chem", "MaxJobs=4")
    table = science.ok("limits", "show", "account=chem").stdout
    assert "GrpTRES" in table and "cpu" in table and "MaxJobs" in table and "As" not in table
    last = science.ok("history", "-P").stdout.splitlines()[-1].split("|")
    assert last[2:] == ["modify account", "chem@c1", "MaxJobs=- -> 4"]


def test_dry_run_changes_nothing(science):
    result = science.ok("limits", "set", "account=chem", "MaxJobs=4", "--dry-run")
    assert result.stderr == "would have modified account chem on c1: MaxJobs=4\n"
    assert _show(science, "account=chem") == ["GrpTRES|cpu|128|account|chem|"]


BAD = [
    (("set", "account=chem", "MaxJob=4"), 2, "did you mean 'MaxJobs'"),
    (("set", "account=chem", "GrpTRS=cpu=4"), 2, "did you mean 'GrpTRES'"),
    (
        ("set", "account=chem", "MaxJobsPerUser=4"),
        2,
        "MaxJobsPerUser is a QOS limit; it cannot be set on account chem",
    ),
    (("set", "user=bob", "MaxTRESPU=cpu=4"), 2, "MaxTRESPerUser is a QOS limit"),
    (
        ("set", "qos=normal", "MaxJobs=4"),
        2,
        "MaxJobs is an association limit; it cannot be set on QOS normal",
    ),
    (("set", "qos=normal", "MaxSubmitJobs=4"), 2, "MaxSubmitJobs is an association limit"),
    (("set", "partition=p1", "GrpTRES=cpu=4"), 2, "'GrpTRES' cannot be set on partition p1"),
    (("set", "account=chem", "LimitFactor=2"), 2, "'limitfactor' cannot be set on account"),
    (("set", "account=chem", "GrpTRES=cpu"), 1, "expected NAME=COUNT"),
    (("set", "account=chem", "GrpTRES=gpu=2"), 1, "GPUs are named gres/gpu"),
    (("set", "account=chem", "GrpTRES=cpus=2"), 1, "unknown TRES 'cpus'"),
    (("set", "account=chem", "GrpTRES=mem=5X"), 1, "invalid value '5X' for TRES mem"),
    (("set", "account=chem", "GrpTRES=cpu=1.5"), 1, "expected a whole number"),
    (("set", "account=chem", "GrpTRES=cpu=-2"), 1, "invalid value '-2' for TRES cpu"),
    (("set", "account=chem", "MaxWall=1:2:3:4"), 1, "invalid MaxWallDurationPerJob"),
    (("set", "account=chem", "GrpWall=1-:00"), 1, "invalid GrpWall"),
    (("set", "account=chem", "MaxWall=ten"), 1, "invalid MaxWallDurationPerJob"),
    (("set", "account=chem", "MaxJobs=-5"), 1, "invalid value for MaxJobs: -5 (use -1 to clear)"),
    (("set", "account=chem", "GrpJobs=2.5"), 1, "not a whole number"),
    (
        ("set", "qos=normal", "LimitFactor=-0.5"),
        1,
        "invalid LimitFactor '-0.5': must be from 0.0 to 4294967294.0",
    ),
    (
        ("set", "qos=normal", "UsageFactor=-2"),
        1,
        "invalid UsageFactor '-2': must be from 0.0 to 4294967294.0",
    ),
    (("set", "qos=normal", "UsageFactor=abc"), 1, "invalid UsageFactor 'abc'"),
    (("set", "qos=normal", "Flags=Bogus"), 1, "unknown QOS flag 'Bogus'"),
    (("set", "partition=p1", "MaxNodes=-3"), 1, "invalid maxnodes '-3'"),
    (("set", "MaxJobs=4"), 2, "name the target of limits set"),
    (("set", "account=chem"), 2, "nothing to set on account chem"),
    (("set", "account=", "MaxJobs=4"), 2, "'account=' needs a name in limits set (target: "),
    (("set", "user=", "MaxJobs=4"), 2, "'user=' needs a name in limits set (target: "),
    (("set", "qos=,,", "MaxJobsPerUser=4"), 2, "'qos=' needs a name in limits set (target: "),
    (("show", "qos=,"), 2, "'qos=' needs a name in limits show (target: "),
    (("set", "chem", "MaxJobs=4"), 2, "unexpected word 'chem'"),
    (("set", "account=nosuch", "MaxJobs=4"), 1, "account 'nosuch' does not exist"),
    (("set", "user=nosuch", "MaxJobs=4"), 1, "user 'nosuch' does not exist"),
    (("set", "user=alice", "account=chem", "MaxJobs=4"), 1, "no association of user(s) alice"),
    (("set", "qos=nosuch", "MaxJobsPerUser=4"), 1, "QOS 'nosuch' does not exist"),
    (("set", "partition=nosuch", "MaxTime=5"), 1, "partition 'nosuch' does not exist"),
    (("set", "account=chem", "partition=p1", "MaxJobs=4"), 2, "partition= needs user="),
    (("unset", "account=chem", "MaxJob"), 2, "did you mean 'MaxJobs'"),
    (("unset", "account=chem", "MaxJobs=4"), 2, "name limits without a value"),
    (("show", "account=nosuch"), 1, "no association for account nosuch\n"),
    (("show", "user=alice", "account=chem"), 1, "no association for user alice account chem\n"),
    (("show", "user=nosuch"), 1, "no association for user nosuch\n"),
    (("show", "account=chem", "MaxJobs=4"), 2, "limits show takes only the target"),
]


@pytest.mark.parametrize("words,code,message", BAD, ids=[" ".join(b[0]) for b in BAD])
def test_bad_input_one_line_and_store_unchanged(science, words, code, message):
    science.ok("partition", "add", "p1")
    before = science.ok("assoc", "list", "-P", "format=Account,User,GrpTRES,MaxJobs").stdout
    result = science.fails("limits", *words, code=code)
    assert message in result.stderr, result.stderr
    assert science.ok("assoc", "list", "-P", "format=Account,User,GrpTRES,MaxJobs").stdout == before
