"""``job why`` / ``job list``'s Reason against squeue's ``%r`` on the live Slurm 22.05.

Accounts wchem (GrpTRES=cpu=8) and wphys (alice: MaxJobs=1). Jobs without ``--mem`` take
the whole node's memory (CR_Core_Memory, no DefMemPerCPU): alice's first job runs and
holds all 64000 MB, so the first job that fits its CPUs but not the memory waits for
Resources and the partition fails (the rest: Priority), while alice's second job reads
AssocMaxJobsLimit (set by the backfill scheduler's limit checks). After one backfill
interval the reasons are read with squeue, the cluster is mirrored into a store (dump,
slurm.conf, the controller's usage, squeue's jobs), and fscli's Reasons must be squeue's.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from tests.live.conftest import held_jobs_cluster
from tests.live.test_live_shares import _read, _wait, mirror, run, sbatch

JOBS = [  # user, account, cpus
    ("alice", "wphys", 1),
    ("carl", "wchem", 6),
    ("carl", "wchem", 6),
    ("alice", "wphys", 1),
    ("bob", "wphys", 60),
    ("bob", "wphys", 4),
]


@pytest.fixture(scope="module")
def taken(tmp_path_factory):
    with held_jobs_cluster() as jobs:
        yield _scenario(tmp_path_factory.mktemp("live-why"), jobs)


def _scenario(tmp: Path, jobs: list[str]) -> dict:
    run("sacctmgr", "-i", "add", "account", "wchem", "GrpTRES=cpu=8", check=False)
    run("sacctmgr", "-i", "add", "account", "wphys", check=False)
    run("sacctmgr", "-i", "add", "user", "carl", "account=wchem", check=False)
    run("sacctmgr", "-i", "add", "user", "alice,bob", "account=wphys", check=False)
    run("sacctmgr", "-i", "modify", "user", "alice", "where", "account=wphys", "set", "MaxJobs=1")
    run("scontrol", "reconfigure")
    for n, (user, account, cpus) in enumerate(JOBS):
        jobs.append(
            sbatch(user, account, "batch", 1, "-c", str(cpus), "-t", "20", "--wrap", "sleep 600")
        )
        if n == 0:  # alice's first job runs before the others come (it holds the memory)
            _wait(lambda: run("squeue", "-h", "-j", jobs[0], "-o", "%T").strip() == "RUNNING", 60)

    def settled() -> bool:  # a main pass saw every job, backfill checked alice's second
        lines = run("squeue", "-h", "-t", "PD", "-o", "%i|%r").split()
        reasons = dict(line.split("|", 1) for line in lines)
        return reasons.get(jobs[3]) == "AssocMaxJobsLimit" and "None" not in reasons.values()

    _wait(settled, 120)
    out = _read(tmp)
    out["reasons"] = dict(
        line.split("|", 1) for line in run("squeue", "-h", "-o", "%i|%r").splitlines()
    )
    out["at"] = datetime.datetime.now().replace(microsecond=0).isoformat()
    out["fscli"] = mirror(tmp, out, memory=True, pending_only=False)
    return out


def test_reasons_are_squeues(taken):
    fscli = taken["fscli"]
    out = fscli.ok("job", "list", "-P", at=taken["at"]).stdout.splitlines()
    head = out[0].split("|")
    got = {r[0]: r[head.index("Reason")] for r in (line.split("|") for line in out[1:])}
    assert got == taken["reasons"]
    assert sorted(set(got.values())) == ["AssocMaxJobsLimit", "None", "Priority", "Resources"]


def test_why_names_what_holds_the_first_waiting_job(taken):
    fscli, at = taken["fscli"], taken["at"]
    waiting = next(j for j, r in taken["reasons"].items() if r == "Resources")
    lines = fscli.ok("job", "why", waiting, at=at).stdout.splitlines()
    assert lines[1] == "Reason: Resources"
    assert lines[-1].endswith("(not enough memory free now)")
