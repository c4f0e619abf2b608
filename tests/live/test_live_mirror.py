"""``fscli collect`` on the live cluster, ``fscli import slurm`` of what it saved: fscli's
sshare and sprio then print what the cluster printed, byte for byte, at its last pass.

Each scenario starts slurmctld afresh (``tests/live/slurm fresh DIR FLAGS``: no usage, no
jobs, its own pass grid), under Fair Tree and under classic fair share: a tree (accounts
shx, shy, shz under shy), a short job that leaves usage, a 64-CPU job still running at the
capture (time limit 30 minutes), four jobs pending behind it in the three partitions, one
with a nice value. After the next priority pass (PriorityCalcPeriod=1: at most a minute)
the cluster is collected, and the collect imported into a new store: ``sshare -a -l -P``,
``sshare -a -P``, ``sprio -l``, ``sprio -l -n`` and ``sprio -w`` are compared whole. A
second import of the folder changes nothing. About a minute and a half per scenario.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.capture import views
from tests.conftest import Fscli
from tests.live.test_live_shares import ACCOUNTS, PENDING, USERS, run, sbatch

SCRIPT = Path(__file__).parent / "slurm"


@pytest.fixture
def cluster():
    where = os.environ.get("FSCLI_LIVE_SLURM")
    if not where or not os.environ.get("SLURM_CONF") or not shutil.which("sbatch"):
        pytest.skip("no live Slurm: start one with `tests/live/slurm up DIR --jobs`")
    ping = subprocess.run(["scontrol", "ping"], capture_output=True, text=True, timeout=30)
    if ping.returncode != 0 or "UP" not in ping.stdout:
        pytest.skip("the live Slurm runs without slurmctld: start it with `up DIR --jobs`")
    import fcntl

    with open(Path(where) / "lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield Path(where)
        subprocess.run([str(SCRIPT), "fresh", where], capture_output=True, timeout=300)


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


def _wait(ready, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > end:
            raise AssertionError(f"the live cluster was not ready within {seconds} s")
        time.sleep(1)


@pytest.mark.parametrize("flags", ["", "NO_FAIR_TREE"], ids=["fair_tree", "classic"])
def test_import_of_a_collect_prints_what_the_cluster_printed(cluster, flags, tmp_path):
    _scenario(cluster, flags)
    folder = tmp_path / "capture"
    fscli = Fscli(str(tmp_path / "store.db"))
    fscli.ok("collect", str(folder))
    for name, (got, want) in views(fscli, folder).items():
        assert got == want, name
    again = fscli.ok("import", "slurm", str(folder))
    assert "unchanged" in again.stderr
