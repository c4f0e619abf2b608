"""A SIGKILL at any moment of a big ``apply``/``load``/``usage import`` loses nothing.

Each command is first run to the end on a copy of the store (the after-state); then it is
started again on fresh copies and killed at random moments. Every killed store must be
exactly the before- or the after-state, row for row, and pass ``PRAGMA integrity_check``.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fscli.store.pass_cache import STAMP_TABLE
from tests.backends import once

AT = "2026-03-01T00:00:00"
ACCOUNTS, USERS, JOBS = 100, 1000, 4000
KILLS = 3  # per command
pytestmark = [pytest.mark.slow, once]


def tree_yaml() -> str:
    lines = ["cluster:", "  name: c1", "accounts:"]
    for a in range(ACCOUNTS):
        lines.append(f"  a{a}: {{fairshare: {a % 7 + 1}, limits: {{GrpJobs: {a + 10}}}}}")
    lines.append("users:")
    for u in range(USERS):
        lines.append(f"  u{u}: {{associations: [a{u % ACCOUNTS}, a{(u * 7 + 3) % ACCOUNTS}]}}")
    return "\n".join(lines) + "\n"


def sacct_text() -> str:
    out = ["JobID|User|Account|AllocCPUS|Start|End|State"]
    for j in range(JOBS):
        u = j % USERS
        out.append(
            f"{j + 1}|u{u}|a{u % ACCOUNTS}|{j % 32 + 1}|2026-02-{j % 27 + 1:02d}T01:00:00|"
            f"2026-02-{j % 27 + 1:02d}T0{j % 8 + 2}:00:00|COMPLETED"
        )
    return "\n".join(out) + "\n"


def fscli_argv(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "fscli", "--db", str(db), "-Q", "--at", AT, *args]


def contents(db: Path) -> dict[str, list[tuple]]:
    """Every row of every table and the schema, in a stable order, the pass cache's stamp
    aside (random anew at each write); asserts the file is sound."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        tables = [
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
            if r[0] != STAMP_TABLE
        ]
        rows = {
            t: sorted(conn.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables
        }
        # the schema too: a bulk write drops the stamp triggers for a while
        rows["sqlite_master"] = conn.execute("SELECT * FROM sqlite_master ORDER BY name").fetchall()
        return rows
    finally:
        conn.close()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The big inputs and the stores they start from."""
    d = tmp_path_factory.mktemp("crash")
    (d / "tree.yaml").write_text(tree_yaml())
    (d / "jobs.txt").write_text(sacct_text())
    cluster_only = d / "cluster_only.db"
    subprocess.run(fscli_argv(cluster_only, "cluster", "add", "c1"), check=True)
    applied = d / "applied.db"
    shutil.copy(cluster_only, applied)
    subprocess.run(fscli_argv(applied, "apply", str(d / "tree.yaml")), check=True)
    subprocess.run(fscli_argv(applied, "dump", "c1", f"file={d / 'c1.cfg'}"), check=True)
    return d


def checkpoint(db: Path) -> None:
    """Fold the WAL into the file, so a copy of the file alone is the whole store."""
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


@pytest.mark.parametrize(
    "start, command",
    [
        ("cluster_only", ["apply", "{d}/tree.yaml"]),
        ("cluster_only", ["load", "{d}/c1.cfg"]),
        ("applied", ["usage", "import", "{d}/jobs.txt", "--format", "sacct"]),
    ],
)
def test_killed_command_leaves_before_or_after_state(files, tmp_path, start, command):
    args = [a.format(d=files) for a in command]
    source = files / f"{start}.db"
    checkpoint(source)
    before = contents(source)

    finished = tmp_path / "finished.db"
    shutil.copy(source, finished)
    began = time.monotonic()
    subprocess.run(fscli_argv(finished, *args), check=True)
    duration = time.monotonic() - began
    after = contents(finished)
    assert after != before

    rng = random.Random(f"{start}{command}")
    mid_run = 0  # kills that hit the command while it ran (not after it had finished)
    for kill in range(KILLS * 3):  # a kill that came too late is tried again, sooner
        if mid_run == KILLS:
            break
        victim = tmp_path / f"killed{kill}.db"
        shutil.copy(source, victim)
        proc = subprocess.Popen(
            fscli_argv(victim, *args), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(duration * rng.uniform(0.3, 1.0))
        if proc.poll() is None:
            mid_run += 1
            os.kill(proc.pid, signal.SIGKILL)
        else:  # the timed run was slower than this one (a busy moment of the machine);
            duration /= 2  # poll() has reaped it: its pid is no longer ours to kill
        proc.wait()
        got = contents(victim)
        assert got == before or got == after, f"kill {kill}: a mixed state"
    assert mid_run, "every kill came after the command had finished: nothing was tested"
