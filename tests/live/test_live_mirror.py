"""``fscli collect`` on the live cluster, ``fscli import slurm`` of what it saved: fscli's
sshare and sprio then print what the cluster printed, byte for byte, at its last pass.

Each scenario starts slurmctld afresh (``tests/live/slurm fresh DIR FLAGS``: no usage, no
jobs, its own pass grid), under Fair Tree and under classic fair share: a tree (accounts
shx, shy, shz under shy), a short job that leaves usage, a 64-CPU job still running at the
capture (time limit 30 minutes), four jobs pending behind it in the three partitions, one
with a nice value. After the next priority pass (PriorityCalcPeriod=1: at most a minute)
the cluster is collected, and the collect imported into a new store: ``sshare -a -l -P``,
``sshare -a -P``, ``sprio -l``, ``sprio -l -n`` and ``sprio -w`` are compared whole. A
second import of the folder changes nothing, and ``import slurm --live`` gives the same
sshare as the cluster's. About a minute and a half per scenario.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.capture import views
from tests.conftest import Fscli
from tests.live.conftest import jobs_cluster
from tests.live.test_live_shares import ACCOUNTS, PENDING, USERS, _wait, run, sbatch

SCRIPT = Path(__file__).parent / "slurm"


@pytest.fixture
def cluster():
    where = jobs_cluster()
    import fcntl

    with open(where / "lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield where
        subprocess.run([str(SCRIPT), "fresh", str(where)], capture_output=True, timeout=300)


def _scenario(where: Path, flags: str) -> None:
    done = subprocess.run(
        [str(SCRIPT), "fresh", str(where), flags], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    for account, parent, share in ACCOUNTS:
        run("sacctmgr", "-i", "add", "account", account, f"parent={parent}", f"fairshare={share}")
    for user, account, share in USERS:
        run("sacctmgr", "-i", "add", "user", user, f"account={account}", f"fairshare={share}")
    run("scontrol", "reconfigure")
    short = sbatch("alice", "shx", "batch", 16, "--mem=1000", "--wrap", "sleep 5")
    _wait(lambda: not run("squeue", "-h", "-j", short, "-o", "%T").strip(), 60)
    blocker = sbatch("carl", "shy", "batch", 64, "-t", "30", "--wrap", "sleep 600")
    _wait(lambda: run("squeue", "-h", "-j", blocker, "-o", "%T").strip() == "RUNNING", 60)
    pending = [
        sbatch(user, account, partition, cpus, f"--nice={nice}", "--wrap", "sleep 1")
        for user, account, partition, cpus, nice in PENDING
    ]

    def aged() -> bool:  # a pass has run since the pending jobs came: their age is > 0
        lines = run("sprio", "-h", "-n", "-o", "%i|%a").split()
        ages = {i: float(a) for i, a in (line.split("|") for line in lines)}
        return all(ages.get(j, 0.0) > 0 for j in pending)

    _wait(aged, 75)


@pytest.mark.parametrize(
    "flags",
    ["", "NO_FAIR_TREE", "DEPTH_OBLIVIOUS"],
    ids=["fair_tree", "classic", "depth_oblivious"],
)
def test_import_of_a_collect_prints_what_the_cluster_printed(cluster, flags, tmp_path):
    _scenario(cluster, flags)
    folder = tmp_path / "capture"
    fscli = Fscli(str(tmp_path / "store.db"))
    fscli.ok("collect", str(folder))
    for name, (got, want) in views(fscli, folder).items():
        assert got == want, name
    again = fscli.ok("import", "slurm", str(folder))
    assert "unchanged" in again.stderr
    _import_live_is_the_same(cluster, tmp_path)


def _import_live_is_the_same(where: Path, tmp_path: Path) -> None:
    """``import slurm --live`` (collect to a temporary folder, import it): sshare at the
    pass it printed is the cluster's sshare, read while no pass ran."""
    from fscli.api.collect import last_pass

    for _ in range(3):
        before = last_pass(str(where / "state"))
        store = Fscli(str(tmp_path / f"live-{before}.db"))
        done = store.ok("import", "slurm", "--live")
        want = run("sshare", "-a", "-l", "-P")
        if last_pass(str(where / "state")) == before:
            break
    else:
        raise AssertionError("a priority pass ran during every import")
    at = re.search(r"last priority pass: (\S+) ", done.stderr).group(1)
    assert store.ok("slurm-sshare", "-a", "-l", "-P", at=at).stdout == want
