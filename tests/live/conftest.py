"""The live cluster for the tests marked ``live``: the one ``tests/live/slurm up`` started.

``FSCLI_LIVE_SLURM`` (the folder ``up`` printed) and ``SLURM_CONF`` come from its exports;
without them every live test is skipped, saying how to start one. One test at a time uses
the cluster (a lock on its folder), so ``pytest -n`` workers never reset it under each other.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

NO_CLUSTER = (
    'no live Slurm: start one with `eval "$(tests/live/slurm up DIR)"` '
    "(root, Debian's slurm packages) or run .ci/run"
)


def pytest_collection_modifyitems(items):
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.live)


@pytest.fixture
def live_slurm():
    """The live cluster's folder, held for this test alone."""
    where = os.environ.get("FSCLI_LIVE_SLURM")
    if not where or not os.environ.get("SLURM_CONF") or not shutil.which("sacctmgr"):
        pytest.skip(NO_CLUSTER)
    with open(Path(where) / "lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield Path(where)


def jobs_cluster() -> Path:
    """The live cluster's folder, when it runs slurmctld too (``up DIR --jobs``: sbatch,
    sshare, sprio); else the test is skipped, saying why."""
    import subprocess

    where = os.environ.get("FSCLI_LIVE_SLURM")
    if not where or not os.environ.get("SLURM_CONF") or not shutil.which("sbatch"):
        pytest.skip("no live Slurm: start one with `tests/live/slurm up DIR --jobs`")
    ping = subprocess.run(["scontrol", "ping"], capture_output=True, text=True, timeout=30)
    if ping.returncode != 0 or "UP" not in ping.stdout:
        pytest.skip("the live Slurm runs without slurmctld: start it with `up DIR --jobs`")
    return Path(where)


@contextmanager
def held_jobs_cluster() -> Iterator[list[str]]:
    """:func:`jobs_cluster`, held for one scenario: the list it gives collects the ids of
    the jobs the scenario submits, cancelled when it ends (passed or not)."""
    import subprocess

    where = jobs_cluster()
    with open(where / "lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        jobs: list[str] = []
        try:
            yield jobs
        finally:
            if jobs:
                subprocess.run(["scancel", *jobs], capture_output=True, timeout=60)


def pytest_terminal_summary(terminalreporter, config):
    """How much of sacctmgr's vocabulary the differential sequences that ran covered."""
    from tests.live import test_sacctmgr_differential as differential
    from tests.live.generate import coverage, sequence

    ran = differential.RAN
    if not ran:
        return
    calls = [c for seed in ran for c in sequence(seed, differential.LENGTH)]
    seen = coverage(calls)
    terminalreporter.write_line(
        f"sacctmgr differential: {len(ran)} sequences, {len(calls)} calls (+{len(ran)} dumps); "
        + "; ".join(f"{len(v)} {k}" for k, v in seen.items())
    )
    for kind, values in seen.items():
        terminalreporter.write_line(f"  {kind}: {' '.join(sorted(values))}")
