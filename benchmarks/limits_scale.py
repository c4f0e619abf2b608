"""Time ``fscli limits check`` on 100,000 user associations and 100,000 jobs.

The store is built fast with bulk Core inserts into a temporary SQLite file (1,000
accounts under root with GrpTRES/GrpJobs, 100 users each with MaxJobs/MaxSubmitJobs, a
partition QOS, half the jobs running (started over the last 8 hours) and half pending, a
quarter of each in QOS high with UsageFactor 0.5); then the real commands run end to
end in a subprocess. Target: under 1 s for ``limits check``. Prints the minimum wall time
and CPU time (user + system of the child) of several runs: on a shared machine wall time
is noisy, CPU time much less. Asserts nothing.

Usage: [RUNS=5] python benchmarks/limits_scale.py [USER_ASSOCIATIONS] [JOBS]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from timing import insert_tree, timed

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sqlalchemy import insert

from fscli.store import models as m
from fscli.store.db import open_engine

NOW = 1_800_000_000


def build(path: str, users: int, jobs: int) -> None:
    engine = open_engine(path)
    with engine.begin() as conn:
        accounts, first_user = insert_tree(
            conn,
            users,
            {"qos": "normal,high", "grp_tres": "mem=104857600"},
            lambda i: {"shares_raw": 1, "grp_tres": "cpu=512", "grp_jobs": 200},
            lambda u: {"max_jobs": 10, "max_submit_jobs": 40},
        )
        conn.execute(
            insert(m.Qos),
            [
                {"name": "normal", "priority": 0, "usage_factor": 1.0},
                {
                    "name": "high",
                    "priority": 100,
                    "usage_factor": 0.5,
                    "max_jobs_per_user": 50,
                    "grp_tres": "cpu=20000",
                },
                {"name": "part", "priority": 0, "usage_factor": 1.0, "max_tres_per_job": "cpu=256"},
            ],
        )
        conn.execute(
            insert(m.Partition),
            [
                {
                    "cluster_id": 1,
                    "name": "batch",
                    "nodes": 1000,
                    "cpus": 64000,
                    "priority_job_factor": 10,
                    "priority_tier": 1,
                    "qos": "part",
                    "max_time": 2880,
                    "billing_weights": "CPU=1.5",
                }
            ],
        )
        conn.execute(
            insert(m.Job),
            [
                {
                    "id": j + 1,
                    "cluster_id": 1,
                    "assoc_id": first_user + j % users,
                    "user": f"u{j % users:06d}",
                    "account": f"a{(j % users) % accounts:04d}",
                    "partition": "batch",
                    "qos": "high" if j % 8 < 2 else "normal",
                    "state": "running" if j % 2 else "pending",
                    "submit": NOW - 30000,
                    "start": NOW - 60 - j * 7919 % 28800 if j % 2 else None,
                    "cpus": 1 + j % 16,
                    "nodes": 1,
                    "slots": 1,
                    "nice": 0,
                    "site_factor": 0,
                    "time_limit": 600,
                }
                for j in range(jobs)
            ],
        )
    engine.dispose()


def main() -> None:
    users = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    runs = int(os.environ.get("RUNS", "5"))
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "big.db")
        start = time.perf_counter()
        build(path, users, jobs)
        print(
            f"built store: {users} user associations, {jobs} jobs "
            f"in {time.perf_counter() - start:.1f} s"
        )
        base = [sys.executable, "-m", "fscli", "--db", path, "--at", str(NOW)]
        user = "user=u000042"
        for label, args in (
            ("--version (start-up)", ["--version"]),
            ("limits check (human)", ["limits", "check", user, "cpus=64", "time=1:00:00"]),
            ("limits check --json", ["limits", "check", user, "cpus=64", "--json"]),
            (
                "limits check mem=4G (root GrpTRES[mem] counts all jobs)",
                ["limits", "check", user, "cpus=4", "mem=4G", "-P"],
            ),
            (
                "limits check -P partition=batch",
                ["limits", "check", user, "partition=batch", "cpus=8", "-P"],
            ),
            (
                "limits check --with root GrpTRES=billing (every running job billed)",
                [
                    "limits",
                    "check",
                    user,
                    "partition=batch",
                    "cpus=8",
                    "-P",
                    "--with",
                    "cluster=big GrpTRES=billing=1000000",
                ],
            ),
            (
                "limits check --with root GrpTRESRunMins (every running job's run time)",
                [
                    "limits",
                    "check",
                    user,
                    "cpus=8",
                    "time=1:00:00",
                    "-P",
                    "--with",
                    "cluster=big GrpTRESRunMins=cpu=100000000",
                ],
            ),
            (
                "limits check qos=high --with",
                [
                    "limits",
                    "check",
                    user,
                    "qos=high",
                    "cpus=600",
                    "--with",
                    "account=a0042 GrpTRES=cpu=1024",
                ],
            ),
            ("limits show --effective", ["limits", "show", user, "partition=batch", "--effective"]),
            (
                "limits show --effective -P",
                ["limits", "show", user, "partition=batch", "--effective", "-P"],
            ),
        ):
            wall, cpu = timed(base + args, runs, cwd=REPO)
            print(
                f"fscli {label}: {wall:.2f} s wall, {cpu:.2f} s CPU (min of {runs}; "
                "target < 1 s for check)"
            )


if __name__ == "__main__":
    main()
