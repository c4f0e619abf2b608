"""``job submit`` stores no job slurmctld would refuse at submission, and fills in the
memory of a job that gives none (DefMemPerCPU/DefMemPerNode/MaxMemPerCPU in ``config``);
EnforcePartLimits decides between refusing and pending for partition limits."""

from __future__ import annotations

import json

import pytest

from tests.conftest import build_science

AT = "2026-01-05T10:00:00"


def build_site(fscli) -> None:
    """Partition batch: 2 nodes, 64 CPUs, MaxTime 1 hour."""
    build_science(fscli)
    fscli.ok("-Q", "partition", "add", "batch", "nodes=2", "cpus=64", "maxtime=1:00:00")


@pytest.fixture
def site(fscli, template):
    """The store :func:`build_site` leaves, copied from its template."""
    return template(fscli, build_site)


def _jobs(fscli) -> list[str]:
    return fscli.ok("job", "list", "-P", at=AT).stdout.splitlines()[1:]


def _check(fscli, *words: str) -> dict:
    return json.loads(fscli.ok("limits", "check", *words, "--json", at=AT).stdout)


def test_enforce_part_limits_refuses_what_otherwise_pends(site):
    """EnforcePartLimits=NO (Slurm's default): 65 CPUs pend (PartitionConfig), 2 hours pend
    (PartitionTimeLimit) and are stored; YES (= ANY) or ALL: sbatch's errors, nothing
    stored."""
    assert (
        _check(site, "user=alice", "partition=batch", "cpus=65", "time=10")["reason"]
        == "PartitionConfig"
    )
    assert (
        _check(site, "user=alice", "partition=batch", "time=2:00:00")["reason"]
        == "PartitionTimeLimit"
    )
    site.ok("-Q", "job", "submit", "user=alice", "partition=batch", "cpus=65", "time=10", at=AT)
    site.ok("-Q", "config", "set", "EnforcePartLimits=YES")
    assert site.ok("config", "show", "-P").stdout.count("EnforcePartLimits|ANY") == 1
    refused = site.fails(
        "job", "submit", "user=alice", "partition=batch", "cpus=65", "time=10", code=1
    ).stderr
    assert refused == (
        "fscli: error: More processors requested than permitted (TotalCPUs=64 at partition batch)\n"
    )
    site.ok("-Q", "config", "set", "EnforcePartLimits=ALL")
    refused = site.fails(
        "job", "submit", "user=alice", "partition=batch", "time=2:00:00", code=1
    ).stderr
    assert refused == (
        "fscli: error: Requested time limit is invalid (missing or exceeds some "
        "limit) (MaxTime=01:00:00 at partition batch)\n"
    )
    doc = _check(site, "user=alice", "partition=batch", "nodes=3", "time=10")
    assert (doc["verdict"], doc["error"]) == ("reject", "Node count specification invalid")
    assert len(_jobs(site)) == 1


def test_accounting_policy_rejection_stores_nothing(site):
    """MaxSubmitJobs=1: the second submission is refused with the policy error."""
    site.ok("-Q", "limits", "set", "user=alice", "account=physics", "MaxSubmitJobs=1")
    site.ok("-Q", "job", "submit", "user=alice", "time=10", at=AT)
    err = site.fails("job", "submit", "user=alice", "time=10", code=1, at=AT).stderr
    assert err == (
        "fscli: error: Job violates accounting/QOS policy (job submit limit, user's "
        "size and/or time limits): AssocMaxSubmitJobLimit (MaxSubmitJobs=1 at user "
        "alice@physics)\n"
    )
    assert len(_jobs(site)) == 1


def test_default_memory_is_stored_and_counted(site):
    """DefMemPerCPU=100: a 4-CPU job without mem= holds 400 MB; MaxMemPerCPU=50 doubles
    its CPUs (8, 50 MB each); GrpTRES=mem=500 on physics then stops a third such job."""
    site.ok("-Q", "config", "set", "DefMemPerCPU=100")
    site.ok("-Q", "job", "submit", "user=alice", "cpus=4", "time=10", "state=running", at=AT)
    assert _jobs(site)[0].split("|")[10:14] == ["4", "1", "1", "mem=400M"]
    site.ok("-Q", "config", "set", "MaxMemPerCPU=50")
    site.ok("-Q", "job", "submit", "user=alice", "cpus=4", "time=10", "state=running", at=AT)
    assert _jobs(site)[1].split("|")[10:14] == ["8", "1", "1", "mem=400M"]
    site.ok("-Q", "limits", "set", "account=physics", "GrpTRES=mem=1000")
    doc = _check(site, "user=alice", "cpus=4", "time=10")
    assert (doc["verdict"], doc["reason"], doc["current"], doc["request"]) == (
        "pend",
        "AssocGrpMemLimit",
        800,
        400,
    )


def test_count_submissions_need_room_for_all_of_them(site):
    """MaxSubmitJobs=2: count=3 is refused whole (the third would be), count=2 is stored."""
    site.ok("-Q", "limits", "set", "user=alice", "account=physics", "MaxSubmitJobs=2")
    err = site.fails("job", "submit", "user=alice", "time=10", "count=3", code=1, at=AT).stderr
    assert "AssocMaxSubmitJobLimit (MaxSubmitJobs=2 at user alice@physics)" in err
    assert _jobs(site) == []
    site.ok("-Q", "job", "submit", "user=alice", "time=10", "count=2", at=AT)
    assert len(_jobs(site)) == 2


def test_partition_memory_defaults_end_to_end(fscli, tmp_path):
    """PartitionName=... DefMemPerCPU= in the store: limits check and export see it."""
    for words in (
        ("cluster", "add", "c1"),
        ("account", "add", "phys", "GrpTRES=mem=4000"),
        ("user", "add", "ann", "account=phys"),
        ("config", "set", "AccountingStorageEnforce=associations,limits,qos", "DefMemPerCPU=100"),
        ("partition", "add", "batch", "cpus=64", "nodes=4"),
        ("partition", "add", "big", "cpus=64", "nodes=4", "DefMemPerCPU=2000", "MaxMemPerCPU=4000"),
    ):
        fscli.ok("-Q", *words)
    check = fscli.ok("limits", "check", "user=ann", "partition=big", "cpus=8", "-P").stdout
    assert check.splitlines()[1] == "pend|AssocGrpMemLimit|GrpTRES|mem|4000M|0M|16000M|account|phys"
    assert (
        fscli.ok("limits", "check", "user=ann", "partition=batch", "cpus=8", "-P")
        .stdout.splitlines()[1]
        .startswith("run|")
    )
    listed = fscli.ok("partition", "list", "-P").stdout.splitlines()
    assert listed[0].endswith("|DefMemPerCPU|DefMemPerNode|MaxMemPerCPU")
    assert listed[2].endswith("|2000||4000")
    exported = fscli.ok("export").stdout
    assert (
        "  big:\n    nodes: 4\n    cpus: 64\n    def_mem_per_cpu: 2000\n"
        "    max_mem_per_cpu: 4000\n" in exported
    )
    copy = tmp_path / "c1.yaml"
    copy.write_text(exported)
    assert fscli.ok("apply", str(copy)).stderr.startswith("no changes")
    assert (
        fscli.ok("partition", "modify", "big", "set", "DefMemPerCPU=-1").stderr
        == "modified partition big on c1: defmempercpu=-1\n"
    )
    assert (
        fscli.ok("limits", "check", "user=ann", "partition=big", "cpus=8", "-P")
        .stdout.splitlines()[1]
        .startswith("run|")
    )
    assert (
        "DefMemPerCPU 'lots'"
        in fscli.fails("partition", "add", "p", "DefMemPerCPU=lots", code=1).stderr
    )
