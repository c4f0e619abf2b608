"""Time ``fscli job import FILE`` of a big squeue dump into a store of 100,000 user associations.

The store is built fast with bulk Core inserts into a temporary SQLite file (1,000
accounts under root, 100 users each, two partitions, three QOS; every tenth account has
its own QOS list and default QOS, so the QOS is resolved up different parent chains, and
every hundredth user has an association of its own on partition ``fast``). The squeue
file holds N jobs of the format ``job import`` reads: two thirds pending, a third
running, every fifth with GRES, every seventh on both partitions and as many on ``fast``
alone, the QOS given or left to the default, the account given or left to the user's
default. The real command then runs end to end in a subprocess, each run on a fresh copy
of the built store; a second figure times ``--replace`` over the same jobs. Prints the
minimum wall-clock time and the child's CPU time (user + sys) over the runs; asserts
nothing. Target (issue 21, a 2-core machine): 100,000 jobs in <= 2 s (checked one job at a
time, with six queries each, they took over 3 minutes; 20,000 took 32 s).

Usage: [RUNS=3] python benchmarks/job_import_scale.py [JOBS] [USER_ASSOCIATIONS]
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from timing import BATCH_AND_FAST, fscli_cmd, insert_tree, timed

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sqlalchemy import insert

from fscli.io.squeue_import import SQUEUE_FORMAT
from fscli.store import models as m
from fscli.store.db import open_engine

NOW = 1_800_000_000
QOS = ("normal", "high", "low")


def _account(i: int) -> dict:
    """Every tenth account allows only normal,low and defaults to low."""
    tenth = i % 10 == 0
    return {
        "shares_raw": 1,
        "qos": "normal,low" if tenth else None,
        "default_qos": "low" if tenth else None,
    }


def build(path: str, users: int) -> None:
    engine = open_engine(path)
    with engine.begin() as conn:
        accounts, first_user = insert_tree(
            conn, users, {"qos": ",".join(QOS)}, _account, lambda u: {}
        )
        conn.execute(
            insert(m.Qos),
            [{"name": n, "priority": p, "usage_factor": 1.0} for n, p in zip(QOS, (0, 100, 10))],
        )
        conn.execute(
            insert(m.Partition),
            BATCH_AND_FAST,
        )
        conn.execute(
            insert(m.Association),
            [
                {
                    "id": first_user + users + k,
                    "cluster_id": 1,
                    "account": f"a{u % accounts:04d}",
                    "user": f"u{u:06d}",
                    "partition": "fast",
                    "parent_id": 2 + u % accounts,
                    "default_qos": "high",
                }
                for k, u in enumerate(range(0, users, 100))
            ],
        )
    engine.dispose()


def squeue_text(jobs: int, users: int) -> str:
    """``jobs`` lines of ``squeue -o SQUEUE_FORMAT`` output (times in UTC, as timed() runs)."""
    accounts = max(1, users // 100)
    lines = [
        (
            "JOBID|USER|ACCOUNT|PARTITION|QOS|STATE|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|"
            "CPUS|MIN_MEMORY|TRES_PER_NODE|NICE"
        )
    ]
    for j in range(jobs):
        u = (j * 7) % users
        account = f"a{u % accounts:04d}" if j % 4 else ""  # else: the user's default
        allowed = ("normal", "low") if (u % accounts) % 10 == 0 else QOS
        qos = allowed[j % len(allowed)] if j % 3 else ""  # else: the association's default
        part = {0: "batch,fast", 1: "fast"}.get(j % 7, "batch")
        running = j % 3 == 2
        submit = datetime.fromtimestamp(NOW - 60 * (j % 5000), timezone.utc)
        start = datetime.fromtimestamp(NOW - 30 * (j % 5000), timezone.utc) if running else None
        lines.append(
            "|".join(
                (
                    str(j + 1),
                    f"u{u:06d}",
                    account,
                    part,
                    qos,
                    "RUNNING" if running else "PENDING",
                    submit.strftime("%Y-%m-%dT%H:%M:%S"),
                    start.strftime("%Y-%m-%dT%H:%M:%S") if start else "N/A",
                    "1-00:00:00" if j % 2 else "30:00",
                    str(1 + j % 4),
                    str(1 + j % 64),
                    "4G" if j % 2 else "0",
                    "gres/gpu:a100:2" if j % 5 == 0 else "N/A",
                    str(j % 11 - 5),
                )
            )
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    jobs = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    users = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    runs = int(os.environ.get("RUNS", "3"))
    with tempfile.TemporaryDirectory() as tmp:
        built, db, dump = Path(tmp, "built.db"), Path(tmp, "big.db"), Path(tmp, "jobs.txt")
        start = time.perf_counter()
        build(str(built), users)
        dump.write_text(squeue_text(jobs, users))
        print(
            f"built store: {users} user associations; squeue -o '{SQUEUE_FORMAT}' file of "
            f"{jobs} jobs ({dump.stat().st_size / 1e6:.1f} MB) in "
            f"{time.perf_counter() - start:.1f} s",
            flush=True,
        )
        base = [*fscli_cmd(), "--db", str(db), "--at", str(NOW)]
        wall, cpu = timed(
            [*base, "job", "import", str(dump)],
            runs,
            cwd=REPO,
            setup=lambda: shutil.copyfile(built, db),
        )
        print(
            f"fscli job import ({jobs} jobs into an empty job table): {wall:6.2f} s wall, "
            f"{cpu:6.2f} s CPU (min of {runs}; target <= 2 s for 100,000)",
            flush=True,
        )
        wall, cpu = timed([*base, "job", "import", "--replace", str(dump)], runs, cwd=REPO)
        print(
            f"fscli job import --replace (all {jobs} ids taken):  {wall:6.2f} s wall, "
            f"{cpu:6.2f} s CPU (min of {runs})"
        )


if __name__ == "__main__":
    main()
