"""``fscli limits check`` counts jobs in the store (aggregate queries): subtrees, QOS,
run-minutes and what-ifs, and the same verdicts as the engine counting every job."""

from __future__ import annotations

import json
import random

import pytest

from tests.conftest import build_science

AT = "2026-01-05T10:00:00"
NOW = 1767607200  # AT as epoch seconds


def _check(fscli, *words: str) -> dict:
    return json.loads(fscli.ok("limits", "check", *words, "--json", at=AT).stdout)


def _submit(fscli, *words: str) -> None:
    fscli.ok("job", "submit", *words, at=AT)


def build_tree(fscli) -> None:
    """science > physics (alice), chem (bob, carol) > organic (dave)."""
    build_science(fscli)
    fscli.ok("account", "add", "organic", "parent=chem")
    fscli.ok("user", "add", "dave", "account=organic")


@pytest.fixture
def tree(fscli, template):
    """The store :func:`build_tree` leaves, copied from its template."""
    return template(fscli, build_tree)


def test_grp_counts_cover_the_whole_subtree(tree):
    tree.ok("limits", "set", "account=science", "GrpJobs=3")
    for user in ("alice", "bob", "dave"):
        _submit(tree, f"user={user}", "cpus=40", "state=running")
    _submit(tree, "user=dave", "cpus=40")  # pending: counts for submit limits only
    doc = _check(tree, "user=carol")
    assert (doc["verdict"], doc["reason"], doc["current"], doc["source"]) == (
        "pend",
        "AssocGrpJobsLimit",
        3,
        "science",
    )
    # chem's GrpTRES=cpu=128 counts bob's and organic's (dave's) running CPUs
    doc = _check(tree, "user=carol", "cpus=49", "--with", "account=science GrpJobs=-1")
    assert (doc["reason"], doc["current"], doc["source"]) == ("AssocGrpCpuLimit", 80, "chem")
    assert (
        _check(tree, "user=carol", "cpus=48", "--with", "account=science GrpJobs=-1")["verdict"]
        == "run"
    )
    tree.ok("limits", "set", "account=chem", "GrpSubmitJobs=3")
    submit = _check(tree, "user=carol")
    assert (submit["verdict"], submit["reason"], submit["current"]) == (
        "reject",
        "AssocGrpSubmitJobsLimit",
        3,
    )


def test_tres_limits_count_only_what_the_job_asks_for(tree):
    tree.ok("limits", "set", "cluster=c1", "GrpTRES=mem=10G")
    _submit(tree, "user=alice", "mem=8G", "state=running")
    assert _check(tree, "user=bob", "cpus=2")["verdict"] == "run"
    doc = _check(tree, "user=bob", "mem=4G")
    assert (doc["reason"], doc["current"], doc["level"]) == ("AssocGrpMemLimit", 8192, "root")


def test_qos_counts_per_user_and_per_account(tree):
    tree.ok("qos", "add", "high")
    tree.ok("limits", "set", "cluster=c1", "qos=normal,high")
    tree.ok("limits", "set", "qos=high", "MaxJobsPerUser=1", "MaxTRESPerAccount=cpu=10")
    _submit(tree, "user=bob", "qos=high", "cpus=6", "state=running")
    mine = _check(tree, "user=bob", "qos=high")
    assert (mine["reason"], mine["current"]) == ("QOSMaxJobsPerUserLimit", 1)
    same_account = _check(tree, "user=carol", "qos=high", "cpus=5")
    assert (same_account["reason"], same_account["current"]) == ("MaxCpuPerAccount", 6)
    assert _check(tree, "user=alice", "qos=high", "cpus=5")["verdict"] == "run"
    assert _check(tree, "user=carol", "cpus=5")["verdict"] == "run"  # normal QOS


def test_partition_qos_counts_jobs_by_their_first_partition(tree):
    tree.ok("qos", "add", "pq")
    tree.ok("partition", "add", "batch", "qos=pq")
    tree.ok("partition", "add", "other")
    tree.ok("limits", "set", "qos=pq", "GrpJobs=1")
    _submit(tree, "user=alice", "partition=other,batch", "state=running")
    assert _check(tree, "user=bob", "partition=batch")["verdict"] == "run"
    _submit(tree, "user=alice", "partition=batch,other", "state=running")
    doc = _check(tree, "user=bob", "partition=batch")
    assert (doc["reason"], doc["current"], doc["level"]) == ("QOSGrpJobsLimit", 1, "partition-qos")


def test_run_minutes_left_of_running_jobs(tree):
    tree.ok("limits", "set", "account=chem", "GrpTRESRunMins=cpu=1000")
    _submit(
        tree, "user=bob", "cpus=4", "time=2:00:00", "state=running", "start=2026-01-05T09:30:00"
    )  # 90 minutes left: 360 CPU-minutes
    _submit(
        tree, "user=dave", "cpus=2", "time=1:00:00", "state=running", "start=2026-01-05T08:00:00"
    )  # past its limit: nothing left
    assert _check(tree, "user=carol", "cpus=10", "time=1:00:00")["verdict"] == "run"
    doc = _check(tree, "user=carol", "cpus=11", "time=1:00:00")
    assert (doc["reason"], doc["current"], doc["value"]) == (
        "AssocGrpCPURunMinutesLimit",
        360,
        1000,
    )
    # no time limit and no partition MaxTime: slurmctld holds its INFINITE, 0xFFFFFFFF
    # minutes (started at the last pass: none given back yet), as sshare shows
    _submit(tree, "user=bob", "cpus=1", "state=running")
    doc = _check(tree, "user=carol", "cpus=1", "time=1:00:00")
    assert (doc["reason"], doc["current"]) == ("AssocGrpCPURunMinutesLimit", 360 + 0xFFFFFFFF)
    shown = tree.ok("sshare", "-A", "chem", "-P", "-n", "-o", "TRESRunMins", at=AT).stdout.split(
        ","
    )[0]
    assert shown == f"cpu={360 + 0xFFFFFFFF}"


def test_safe_grp_tres_minutes_counts_run_minutes_held(tree):
    """The store's aggregate gives the safe GrpTRESMins look-ahead the run-minutes running
    jobs hold even where no GrpTRESRunMins limit asks for them."""
    tree.ok("-Q", "config", "set", "AccountingStorageEnforce=associations,limits,qos,safe")
    tree.ok("config", "set", "PriorityDecayHalfLife=0")
    tree.ok("limits", "set", "account=chem", "GrpTRESMins=cpu=1000")
    # 30 minutes run: 120 CPU-minutes used; 90 minutes left: 360 CPU-minutes held
    _submit(
        tree, "user=bob", "cpus=4", "time=2:00:00", "state=running", "start=2026-01-05T09:30:00"
    )
    assert _check(tree, "user=carol", "cpus=1", "time=8:40:00")["verdict"] == "run"
    doc = _check(tree, "user=carol", "cpus=1", "time=8:41:00")  # 360 + 521 > 1000 - 120
    assert (doc["verdict"], doc["reason"], doc["current"], doc["request"]) == (
        "pend",
        "AssocGrpCPUMinutesLimit",
        120,
        521,
    )


def test_run_minutes_stand_still_between_passes_as_sshare_shows_them(tree):
    """Slurm has one counter: GrpTRESRunMins checks and sshare's TRESRunMins read it, and
    it gives back run time at the decay passes (every 5 minutes by default)."""
    tree.ok("limits", "set", "account=chem", "GrpTRESRunMins=cpu=1000")
    _submit(
        tree, "user=bob", "cpus=4", "time=2:00:00", "state=running", "start=2026-01-05T09:30:00"
    )
    at = "2026-01-05T10:04:59"  # the last pass was at 10:00: 90 minutes held
    doc = json.loads(
        tree.ok("limits", "check", "user=carol", "cpus=11", "time=1:00:00", "--json", at=at).stdout
    )
    assert (doc["reason"], doc["current"]) == ("AssocGrpCPURunMinutesLimit", 360)
    shown = tree.ok(
        "sshare", "-A", "chem", "-P", "-n", "-o", "Account,TRESRunMins", at=at
    ).stdout.splitlines()
    assert shown == [("  chem|cpu=360,mem=0,energy=0,node=90,billing=360,fs/disk=0,vmem=0,pages=0")]
    doc = json.loads(
        tree.ok(
            "limits",
            "check",
            "user=carol",
            "cpus=12",
            "time=1:00:00",
            "--json",
            at="2026-01-05T10:05:00",
        ).stdout
    )
    assert doc["current"] == 340  # a pass: 5 more minutes given back


def test_what_if_on_associations_outside_the_chain(tree):
    tree.ok("limits", "set", "user=bob", "account=chem", "MaxJobs=1")
    _submit(tree, "user=bob", "state=running")
    assert _check(tree, "user=bob")["reason"] == "AssocMaxJobsLimit"
    assert (
        _check(
            tree,
            "user=carol",
            "--with",
            "user=alice MaxJobs=0",
            "--with",
            "user=bob account=chem MaxJobs=5",
        )["verdict"]
        == "run"
    )
    assert _check(tree, "user=bob", "--with", "user=bob account=chem MaxJobs=5")["verdict"] == "run"


def test_what_if_usage_limit_computes_decayed_usage(tree):
    tree.ok("config", "set", "PriorityDecayHalfLife=0")
    _submit(
        tree,
        "user=bob",
        "cpus=10",
        "state=completed",
        "start=2026-01-05T08:00:00",
        "end=2026-01-05T09:00:00",
    )
    assert _check(tree, "user=carol")["verdict"] == "run"
    doc = _check(tree, "user=carol", "--with", "account=chem GrpTRESMins=cpu=500")
    assert (doc["reason"], doc["current"], doc["source"]) == (
        "AssocGrpCPUMinutesLimit",
        600,
        "chem",
    )


def test_store_counts_match_the_engine_counting_every_job(tree, store):
    """Random jobs and requests: the aggregate queries give the engine's verdicts, and
    the same run-minutes of running jobs in QOS with every kind of UsageFactor (unset,
    fractional from odd seconds, 2 with UsageFactorSafe, 0) and without time limits."""
    from sqlalchemy import create_engine

    from fscli.engine.limits.check import JobRequest, LimitsState, check
    from fscli.engine.tres import request_tres
    from fscli.store import snapshot
    from fscli.store.db import resolve_url
    from fscli.store.limits import state as limit_state

    tree.ok("qos", "add", "high", "usagefactor=0.37")
    tree.ok("qos", "add", "big", "usagefactor=2", "flags=UsageFactorSafe")
    tree.ok("qos", "add", "free", "usagefactor=0")
    tree.ok(
        "partition",
        "add",
        "batch",
        "qos=high",
        "TRESBillingWeights=CPU=1.5,Mem=0.7G",
        "maxtime=3:00:00",
    )
    tree.ok("partition", "add", "debug")
    tree.ok("config", "set", "TRESBillingWeights=CPU=0.6,gres/gpu=3")  # for debug
    tree.ok(
        "limits",
        "set",
        "cluster=c1",
        "qos=normal,high,big,free",
        "GrpTRES=mem=64G,cpu=300,billing=400",
    )
    tree.ok("limits", "set", "account=chem", "GrpTRESRunMins=cpu=2000,node=300,billing=2500")
    tree.ok("limits", "set", "account=organic", "GrpSubmitJobs=9", "GrpTRES=node=6")
    tree.ok("limits", "set", "account=science", "GrpJobs=20")
    tree.ok(
        "limits",
        "set",
        "qos=high",
        "MaxJobsPerUser=6",
        "GrpTRES=cpu=200",
        "MaxTRESPerAccount=cpu=90,billing=100",
        "MaxSubmitJobsPerAccount=12",
    )
    tree.ok("limits", "set", "qos=big", "GrpTRESRunMins=cpu=6000,billing=9000")
    rng = random.Random(7)
    users = {"alice": "physics", "bob": "chem", "carol": "chem", "dave": "organic"}
    for _ in range(40):
        user = rng.choice(sorted(users))
        state = rng.choice(["running", "running", "pending", "completed"])
        words = [
            f"user={user}",
            f"cpus={rng.randint(1, 16)}",
            f"nodes={rng.randint(1, 3)}",
            f"partition={rng.choice(['batch', 'debug', 'debug,batch'])}",
            f"qos={rng.choice(['normal', 'high', 'big', 'free'])}",
            f"state={state}",
        ]
        words += rng.choice([[], ["mem=2G"], ["tres=gres/gpu=1"]])
        words += [] if user == "alice" else [rng.choice(["time=1:00:00", "time=30"])]
        if state != "pending":
            words.append(
                f"start=2026-01-05T0{rng.randint(7, 9)}:{rng.randint(10, 58)}:"
                f"{rng.randint(0, 59):02}"
            )
        if state == "completed":
            words.append("end=2026-01-05T09:59:00")
        _submit(tree, *words)
    engine = create_engine(resolve_url(store).url)
    with engine.connect() as conn:
        cid = snapshot.cluster_id_for(conn, None)
        everything = snapshot.load_assocs(conn, cid)
        # the jobs as the store loads them (cpu and node in their own fields, not in tres)
        jobs = [j for j in snapshot.load_jobs(conn, cid) if j.assoc_id is not None]
        for user, account in users.items():
            for qos in (None, "high", "big", "free"):
                for part in (None, "batch", "debug"):
                    tres = request_tres(
                        rng.randint(1, 40),
                        rng.randint(1, 2),
                        rng.choice([{}, {"mem": 1024}, {"gres/gpu": 1}]),
                    )
                    req = JobRequest(user, account, part, qos, tres, rng.choice([None, 45]))
                    fast = limit_state.load(conn, None, user, account)
                    limit_state.attach_jobs(conn, None, fast, NOW)
                    slow = LimitsState(
                        everything,
                        fast.qos,
                        fast.partitions,
                        jobs,
                        enforce=fast.enforce,
                        billing_weights=fast.billing_weights,
                        priority_flags=fast.priority_flags,
                    )
                    assert check(req, fast, NOW).to_dict() == check(req, slow, NOW).to_dict()
    engine.dispose()
