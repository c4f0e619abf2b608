"""``fscli limits check`` bills the request and the store's running jobs as slurmctld does:
the partition's TRESBillingWeights (else the cluster's, else the CPUs), truncated per job."""

from __future__ import annotations

import json

import pytest

AT = "2026-01-05T10:00:00"


def _check(fscli, *words: str) -> dict:
    return json.loads(fscli.ok("limits", "check", *words, "--json", at=AT).stdout)


def _submit(fscli, *words: str) -> None:
    fscli.ok("job", "submit", *words, at=AT)


def build_billed(fscli) -> None:
    """phys (alice, bob) with GrpTRES=billing=10; partition batch bills CPU=2.0, plain has
    no weights."""
    fscli.ok("cluster", "add", "c1")
    fscli.ok("account", "add", "phys")
    fscli.ok("user", "add", "alice,bob", "account=phys")
    fscli.ok("partition", "add", "batch", "TRESBillingWeights=CPU=2.0")
    fscli.ok("partition", "add", "plain")
    fscli.ok("limits", "set", "account=phys", "GrpTRES=billing=10")


@pytest.fixture
def billed(fscli, template):
    """The store :func:`build_billed` leaves, copied from its template."""
    return template(fscli, build_billed)


def test_grp_billing_passes_at_8_and_blocks_at_12(billed):
    run = billed.ok("limits", "check", "user=alice", "partition=batch", "cpus=4", at=AT)
    assert run.stdout == "run: no limit stops this job\n"
    pend = billed.ok("limits", "check", "user=alice", "partition=batch", "cpus=6", at=AT)
    assert pend.stdout == "pend: AssocGrpBilling (GrpTRES[billing]=10 at account phys)\n"
    parsable = billed.ok("limits", "check", "user=alice", "partition=batch", "cpus=6", "-P", at=AT)
    assert parsable.stdout == (
        "Verdict|Reason|Limit|TRES|Value|Current|Request|Level|Source\n"
        "pend|AssocGrpBilling|GrpTRES|billing|10|0|12|account|phys\n"
    )
    # the same job where nothing weighs its TRES is billed its 6 CPUs
    assert _check(billed, "user=alice", "partition=plain", "cpus=6")["verdict"] == "run"


def test_running_jobs_billing_counts_toward_the_group(billed):
    _submit(billed, "user=bob", "partition=batch", "cpus=2", "state=running")  # 4
    _submit(billed, "user=bob", "partition=batch", "cpus=3")  # pending: not counted
    assert _check(billed, "user=alice", "partition=batch", "cpus=3")["verdict"] == "run"
    out = billed.ok(
        "limits", "check", "user=alice", "partition=batch", "cpus=4", "-P", "-n", at=AT
    ).stdout
    assert out == "pend|AssocGrpBilling|GrpTRES|billing|10|4|8|account|phys\n"
    # first partition decides; a billing written into the job's TRES is no input
    _submit(
        billed, "user=bob", "partition=plain,batch", "cpus=2", "tres=billing=1", "state=running"
    )
    doc = _check(billed, "user=alice", "partition=plain", "cpus=5")  # 4 + 2 + 5
    assert (doc["reason"], doc["current"]) == ("AssocGrpBilling", 6)


def test_running_jobs_of_different_sizes_in_one_account(billed):
    """Billing is truncated per job: the store's sums must not add CPUs first."""
    billed.ok("partition", "modify", "batch", "TRESBillingWeights=CPU=1.5")
    billed.ok("limits", "set", "account=phys", "GrpTRES=billing=100")
    for cpus in (1, 1, 3, 5):  # 1 + 1 + 4 + 7 (12.0 if summed before truncating)
        _submit(billed, "user=bob", "partition=batch", f"cpus={cpus}", "state=running")
    doc = _check(billed, "user=alice", "partition=batch", "cpus=60")
    assert (doc["reason"], doc["current"]) == ("AssocGrpBilling", 13)


def test_billing_run_minutes_from_the_store(billed):
    billed.ok("limits", "set", "account=phys", "GrpTRES=billing=-1", "GrpTRESRunMins=billing=1000")
    # 3 CPUs in batch bill 6; 90 minutes of its 2 hours left: 540 billing-minutes
    _submit(
        billed,
        "user=bob",
        "partition=batch",
        "cpus=3",
        "time=2:00:00",
        "state=running",
        "start=2026-01-05T09:30:00",
    )
    _submit(
        billed,
        "user=bob",
        "partition=plain",
        "cpus=2",
        "time=1:00:00",
        "state=running",
        "start=2026-01-05T09:30:00",
    )  # 2 x 30 minutes
    assert (
        _check(billed, "user=alice", "partition=batch", "cpus=1", "time=200")["verdict"] == "run"
    )  # 600 + 400
    doc = _check(billed, "user=alice", "partition=batch", "cpus=1", "time=201")
    assert (doc["reason"], doc["current"], doc["value"]) == ("AssocGrpBillingRunMinutes", 600, 1000)


def test_billing_minutes_of_decayed_usage(billed):
    billed.ok("config", "set", "PriorityDecayHalfLife=0")
    billed.ok("limits", "set", "account=phys", "GrpTRES=billing=-1")
    _submit(
        billed,
        "user=bob",
        "partition=batch",
        "cpus=10",
        "state=completed",
        "start=2026-01-05T08:00:00",
        "end=2026-01-05T09:00:00",
    )  # 20 x 60 minutes
    assert _check(billed, "user=alice", "partition=batch")["verdict"] == "run"
    doc = _check(
        billed, "user=alice", "partition=batch", "--with", "account=phys GrpTRESMins=billing=1000"
    )
    assert (doc["reason"], doc["current"], doc["source"]) == (
        "AssocGrpBillingMinutes",
        1200,
        "phys",
    )


def test_qos_billing_per_account_and_cluster_wide_weights(billed):
    billed.ok("qos", "add", "high")
    billed.ok("limits", "set", "cluster=c1", "qos=normal,high")
    billed.ok("limits", "set", "account=phys", "GrpTRES=billing=-1")
    billed.ok("limits", "set", "qos=high", "MaxTRESPerAccount=billing=20")
    billed.ok("config", "set", "TRESBillingWeights=CPU=3.0")  # partitions without their own
    _submit(billed, "user=bob", "partition=plain", "qos=high", "cpus=4", "state=running")
    doc = _check(billed, "user=alice", "partition=batch", "qos=high", "cpus=5")  # 12 + 10
    assert (doc["reason"], doc["current"]) == ("MaxBillingPerAccount", 12)
    assert _check(billed, "user=alice", "partition=batch", "qos=high", "cpus=4")["verdict"] == "run"


def test_max_billing_per_job_and_an_explicit_billing(billed):
    billed.ok("limits", "set", "user=alice", "account=phys", "MaxTRESPerJob=billing=8")
    doc = _check(billed, "user=alice", "partition=batch", "cpus=5")
    assert (doc["verdict"], doc["reason"], doc["level"]) == (
        "pend",
        "AssocMaxBillingPerJob",
        "user",
    )
    # a billing named in tres= is taken as given (a what-if for other weights)
    assert (
        _check(billed, "user=alice", "partition=batch", "cpus=5", "tres=billing=8")["verdict"]
        == "run"
    )


def test_a_node_weight_bills_running_jobs_and_their_usage_by_node_count(billed):
    """Node=10 bills each allocated node, in the request, in the running jobs the store
    counts and in the usage the job is charged (sshare's RawUsage), TRES text or not."""
    billed.ok("partition", "modify", "batch", "TRESBillingWeights=CPU=1.0,Node=10")
    billed.ok("limits", "set", "account=phys", "GrpTRES=billing=100")
    _submit(
        billed,
        "user=bob",
        "partition=batch",
        "cpus=4",
        "nodes=2",
        "state=running",
        "start=2026-01-05T09:59:00",
    )  # 4 + 2 x 10 = 24 a second
    doc = _check(billed, "user=alice", "partition=batch", "cpus=6", "nodes=8")  # 6 + 80
    assert (doc["reason"], doc["current"], doc["request"]) == ("AssocGrpBilling", 24, 86)
    usage = billed.ok(
        "sshare", "-A", "phys", "-u", "bob", "-P", "-n", "-o", "User,RawUsage", at=AT
    ).stdout.splitlines()
    assert usage[-1] == "bob|1439"  # 24 x 60 s, charged as x * D**x: 1439.9 (the CPUs: 239)
