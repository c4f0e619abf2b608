"""``fscli limits show --effective`` and ``fscli limits check`` against the store."""

from __future__ import annotations

import json

import pytest

from tests.conftest import build_science

AT = "2026-01-05T10:00:00"


def _effective(fscli, *words: str) -> list[dict]:
    out = fscli.ok("limits", "show", *words, "--effective", "--json").stdout
    return json.loads(out)["limits"]


def _check(fscli, *words: str) -> dict:
    return json.loads(fscli.ok("limits", "check", *words, "--json", at=AT).stdout)


def build_seed(fscli) -> None:
    """resource_limits.shtml: partition QOS MaxJobs=20 and no MaxSubmitJobs, nothing in the
    job QOS, user association MaxJobs=4 MaxSubmitJobs=50."""
    build_science(fscli)
    fscli.ok("qos", "add", "pq")
    fscli.ok("partition", "add", "batch", "qos=pq")
    fscli.ok("limits", "set", "qos=pq", "MaxJobsPerUser=20")
    fscli.ok("limits", "set", "user=alice", "account=physics", "MaxJobs=4", "MaxSubmitJobs=50")


@pytest.fixture
def seed(fscli, template):
    """The store :func:`build_seed` leaves, copied from its template."""
    return template(fscli, build_seed)


def test_seed_003_effective_maxjobs_20_maxsubmit_50(seed):
    assert _effective(seed, "user=alice", "account=physics", "partition=batch") == [
        {
            "name": "MaxJobs",
            "value": 20,
            "level": "partition-qos",
            "source": "pq",
            "as": "MaxJobsPerUser",
        },
        {"name": "MaxSubmitJobs", "value": 50, "level": "user", "source": "alice@physics"},
    ]
    out = seed.ok("limits", "show", "user=alice", "partition=batch", "--effective", "-P").stdout
    assert out == (
        "Name|TRES|Value|Level|Source|As\n"
        "MaxJobs||20|partition-qos|pq|MaxJobsPerUser\n"
        "MaxSubmitJobs||50|user|alice@physics|\n"
    )


def test_seed_003_maxjobs_20_counts_at_the_command_line(seed):
    for _ in range(5):
        seed.ok("job", "submit", "user=alice", "partition=batch", "state=running", at=AT)
    assert _check(seed, "user=alice", "partition=batch")["verdict"] == "run"
    without = _check(seed, "user=alice")  # no partition QOS: the user's MaxJobs=4 holds
    assert (without["reason"], without["current"], without["level"]) == (
        "AssocMaxJobsLimit",
        5,
        "user",
    )


def test_grp_limits_at_every_level_one_entry_per_tres(science):
    science.ok("limits", "set", "cluster=c1", "GrpTRES=mem=1T")
    science.ok("limits", "set", "user=bob", "account=chem", "GrpTRES=cpu=500", "MaxWall=1-0")
    entries = _effective(science, "user=bob", "account=chem")
    assert [(e["name"], e.get("tres"), e["value"], e["level"], e["source"]) for e in entries] == [
        ("GrpTRES", "cpu", 500, "user", "bob@chem"),
        ("MaxWallDurationPerJob", None, 1440, "user", "bob@chem"),
        ("GrpTRES", "cpu", 128, "account", "chem"),
        ("GrpTRES", "mem", 1048576, "root", "root"),
    ]
    assert _check(science, "user=bob", "cpus=200")["reason"] == "AssocGrpCpuLimit"
    doc = _check(science, "user=bob", "cpus=200")
    assert (doc["limit"], doc["value"], doc["level"], doc["source"]) == (
        "GrpTRES",
        128,
        "account",
        "chem",
    )


def test_account_effective_and_partition_time_cap_with_flag(science):
    science.ok("partition", "add", "short", "maxtime=1:00:00")
    science.ok("qos", "add", "long")
    science.ok("limits", "set", "account=physics", "MaxWall=10:00:00")
    science.ok("limits", "set", "cluster=c1", "qos=normal,long")
    capped = _effective(science, "user=alice", "partition=short")
    assert [(e["value"], e["level"]) for e in capped] == [(60, "partition")]
    science.ok("limits", "set", "qos=long", "Flags=PartitionTimeLimit")
    free = _effective(science, "user=alice", "partition=short", "qos=long")
    assert [(e["value"], e["level"], e["source"]) for e in free] == [(600, "account", "physics")]
    assert _effective(science, "account=physics") == [
        {"name": "MaxWallDurationPerJob", "value": 600, "level": "account", "source": "physics"}
    ]
    pend = _check(science, "user=alice", "partition=short", "time=2:00:00")
    assert pend["reason"] == "PartitionTimeLimit"
    # issue 35: the partition's limit by its own name, not MaxWallDurationPerJob
    assert (pend["limit"], pend["level"], pend["source"]) == ("MaxTime", "partition", "short")
    line = science.ok("limits", "check", "user=alice", "partition=short", "time=2:00:00")
    assert line.stdout == "pend: PartitionTimeLimit (MaxTime=01:00:00 at partition short)\n"
    assert (
        _check(science, "user=alice", "partition=short", "qos=long", "time=2:00:00")["verdict"]
        == "run"
    )


def test_limit_factor_doubles_association_grp_tres(science):
    science.ok("qos", "add", "lf", "LimitFactor=2")
    science.ok("limits", "set", "account=chem", "qos=normal,lf")
    science.ok("limits", "set", "account=chem", "GrpTRES=cpu=30")
    entries = _effective(science, "user=bob", "qos=lf")
    assert [(e["name"], e["tres"], e["value"]) for e in entries] == [("GrpTRES", "cpu", 60)]
    assert _check(science, "user=bob", "cpus=50", "qos=lf")["verdict"] == "run"
    assert _check(science, "user=bob", "cpus=50")["reason"] == "AssocGrpCpuLimit"


def test_verdicts_human_parsable_and_json(science):
    science.ok("limits", "set", "user=bob", "account=chem", "MaxSubmitJobs=1", "MaxJobs=1")
    science.ok("job", "submit", "user=bob", "account=chem", "cpus=100", "state=running", at=AT)
    out = science.ok("limits", "check", "user=bob", "cpus=30", at=AT).stdout.splitlines()
    assert out[:3] == [
        "reject: AssocMaxSubmitJobLimit (MaxSubmitJobs=1 at user bob@chem)",
        "sbatch: error: AssocMaxSubmitJobLimit",
        "sbatch: error: Batch job submission failed: Job violates accounting/QOS policy "
        "(job submit limit, user's size and/or time limits)",
    ]
    parsable = science.ok("limits", "check", "user=bob", "cpus=30", "-P", at=AT).stdout
    assert parsable == (
        "Verdict|Reason|Limit|TRES|Value|Current|Request|Level|Source\n"
        "reject|AssocMaxSubmitJobLimit|MaxSubmitJobs||1|1|1|user|bob@chem\n"
        "reject|AssocMaxJobsLimit|MaxJobs||1|1|1|user|bob@chem\n"
        "reject|AssocGrpCpuLimit|GrpTRES|cpu|128|100|30|account|chem\n"
    )
    doc = _check(science, "user=bob", "cpus=30")
    assert {k: doc[k] for k in ("verdict", "reason", "limit", "level")} == {
        "verdict": "reject",
        "reason": "AssocMaxSubmitJobLimit",
        "limit": "MaxSubmitJobs",
        "level": "user",
    }
    assert [o["reason"] for o in doc["others"]] == ["AssocMaxJobsLimit", "AssocGrpCpuLimit"]
    run = science.ok("limits", "check", "user=carol", "-P", at=AT).stdout
    assert run.splitlines()[1] == "run||||||||"


def test_what_if_changes_the_loaded_data_only(science):
    science.ok("job", "submit", "user=bob", "account=chem", "cpus=100", "state=running", at=AT)
    assert _check(science, "user=bob", "cpus=100")["reason"] == "AssocGrpCpuLimit"
    what_if = _check(science, "user=bob", "cpus=100", "--with", "account=chem GrpTRES=cpu=256")
    assert what_if["verdict"] == "run"
    twice = _check(
        science,
        "user=bob",
        "cpus=100",
        "--with",
        "account=chem GrpTRES=cpu=256",
        "--with",
        "qos=normal GrpJobs=1",
    )
    assert (twice["reason"], twice["level"]) == ("QOSGrpJobsLimit", "job-qos")
    assert _check(science, "user=bob", "cpus=100")["reason"] == "AssocGrpCpuLimit"
    out = science.ok("limits", "show", "account=chem", "-P", "-n").stdout
    assert out == "GrpTRES|cpu|128|account|chem|\n"


def test_decayed_usage_counts_for_grp_tres_mins(science):
    science.ok("config", "set", "PriorityDecayHalfLife=0")
    science.ok("limits", "set", "account=chem", "GrpTRESMins=cpu=500")
    science.ok(
        "job",
        "submit",
        "user=bob",
        "account=chem",
        "cpus=10",
        "state=completed",
        "start=2026-01-05T08:00:00",
        "end=2026-01-05T09:00:00",
        at=AT,
    )
    doc = _check(science, "user=bob", "cpus=1")
    assert (doc["reason"], doc["current"], doc["value"]) == ("AssocGrpCPUMinutesLimit", 600, 500)
    assert _check(science, "user=alice", "tres=mem=1G")["verdict"] == "run"


def test_gres_type_limit_not_enforced_on_untyped_request(science):
    """Seed 003: MaxTRESPerUser=gres/gpu:tesla=1 does not stop a --gres=gpu:2 request."""
    science.ok("qos", "add", "gpu", "flags=DenyOnLimit")
    science.ok("limits", "set", "qos=gpu", "MaxTRESPerUser=gres/gpu:tesla=1")
    science.ok("limits", "set", "cluster=c1", "qos=normal,gpu")
    assert _check(science, "user=bob", "qos=gpu", "tres=gres/gpu=2")["verdict"] == "run"
    typed = _check(science, "user=bob", "qos=gpu", "tres=gres/gpu:tesla=2")
    assert (typed["verdict"], typed["reason"]) == ("reject", "QOSMaxGRESPerUser")


REFUSED = [
    (("user=alice", "account=chem"), "Invalid account or account/partition combination specified"),
    (("user=nosuch",), "Invalid account or account/partition combination specified"),
    (
        ("user=nosuch", "account=nosuch"),
        "Invalid account or account/partition combination specified",
    ),
    (("user=bob", "qos=nosuch"), "Invalid qos specification"),
]


@pytest.mark.parametrize("words,error", REFUSED, ids=[" ".join(r[0]) for r in REFUSED])
def test_what_sbatch_refuses_is_a_reject_verdict_not_a_usage_error(science, words, error):
    """sbatch refuses a user with no association in the account (or no user at all) and an
    unknown QOS at submission: the verdict is reject with sbatch's text, in --json too."""
    doc = _check(science, *words)
    assert (doc["verdict"], doc["reason"], doc["error"]) == ("reject", None, error)
    out = science.ok("limits", "check", *words, at=AT).stdout
    assert out == (f"reject: {error}\nsbatch: error: Batch job submission failed: {error}\n")


BAD = [
    (("check", "user=bob", "cpus=0"), 1, "invalid cpus '0'"),
    (("check", "user=bob", "tres=cpu=x"), 1, "invalid value 'x' for TRES cpu"),
    (("check", "user=bob", "mem=4Q"), 1, "invalid value '4Q' for TRES mem"),
    (("check", "user=bob", "time=1:2:3:4"), 1, "invalid time"),
    (("check", "cpus=4"), 2, "limits check needs user=U"),
    (("check", "user=bob", "gpus=1"), 2, "unknown key 'gpus'"),
    (
        ("check", "user=bob", "--with", "account=chem MaxJobsPerUser=1"),
        2,
        "MaxJobsPerUser is a QOS limit",
    ),
    (
        ("check", "user=bob", "--with", "account=nosuch MaxJobs=1"),
        1,
        "no association for account nosuch\n",
    ),
    (
        ("check", "user=bob", "--with", "user=nosuch account=chem MaxJobs=1"),
        1,
        "user 'nosuch' does not exist\n",
    ),
    (
        ("check", "user=bob", "--with", "cluster=c2 account=chem MaxJobs=1"),
        2,
        "fscli: error: --with names cluster 'c2', but the check is on cluster 'c1' "
        "(use --cluster c2)\n",
    ),
    (
        ("check", "user=bob", "--with", "account=chem 'MaxJobs=1"),
        2,
        '--with "account=chem \'MaxJobs=1": No closing quotation',
    ),
    (
        ("check", "user=bob", "--with", "qos=normal UsageFactor=-1"),
        1,
        "fscli: error: invalid UsageFactor '-1': must be from 0.0 to 4294967294.0\n",
    ),
    (("show", "qos=normal", "--effective"), 2, "--effective takes user=U"),
    (
        ("show", "user=alice", "account=chem", "--effective"),
        1,
        "Invalid account or account/partition combination specified",
    ),
]


@pytest.mark.parametrize("words,code,message", BAD, ids=[" ".join(b[0]) for b in BAD])
def test_bad_requests(science, words, code, message):
    result = science.fails("limits", *words, code=code, at=AT)
    assert message in result.stderr, result.stderr


def test_time_unlimited_is_an_infinite_request(science):
    """``time=UNLIMITED`` (as ``sbatch -t INFINITE``) fails the partition's MaxTime and the
    account's MaxWall; with no time the job gets the MaxWall and runs."""
    science.ok("partition", "add", "short", "maxtime=1:00:00")
    science.ok("limits", "set", "account=physics", "MaxWall=30")
    for word in ("time=UNLIMITED", "time=INFINITE", "time=-1"):
        doc = _check(science, "user=alice", "partition=short", word)
        assert (doc["verdict"], doc["reason"], doc["request"], doc["time_limit"]) == (
            "pend",
            "PartitionTimeLimit",
            None,
            None,
        )
        assert [o["reason"] for o in doc["others"]] == ["AssocMaxWallDurationPerJobLimit"]
    doc = _check(science, "user=alice", "partition=short")
    assert (doc["verdict"], doc["time_limit"]) == ("run", 30)
    science.ok("job", "submit", "user=alice", "partition=short", "time=UNLIMITED", at=AT)
    listed = science.ok("job", "list", "-P").stdout.splitlines()
    assert listed[1].split("|")[14] == "UNLIMITED"
