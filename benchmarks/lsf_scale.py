"""Time ``fscli bqueues``, ``bqueues -l`` and ``lsf dispatch`` on a large LSF store.

Builds a temporary store: USERS users in GROUPS user groups (a two-level share tree),
two fairshare queues and one FCFS queue, and JOBS jobs (running, pending, finished) with
bulk Core inserts; then runs the real ``fscli`` commands end to end and prints the
minimum wall and CPU time over RUNS runs of each.

Usage: python benchmarks/lsf_scale.py [USERS] [JOBS] [RUNS]
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import timed

NOW = 1_777_636_800  # 2026-05-01T12:00:00Z
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FSCLI = [sys.executable, "-m", "fscli", "-Q"]  # from the checkout: run in ROOT


def build(db: str, users: int, jobs: int) -> None:
    from sqlalchemy import create_engine, insert

    from fscli.store import models as m

    groups = max(users // 100, 1)
    names = [f"u{i:06d}" for i in range(users)]
    # creates and migrates the store
    subprocess.run(
        [*FSCLI, "--db", db, "lsf", "params", "set", "HIST_HOURS=5"],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=ROOT,
    )
    engine = create_engine(f"sqlite:///{db}")
    rng = random.Random(7)
    with engine.begin() as conn:
        conn.execute(
            insert(m.LsfGroup),
            [
                {
                    "name": f"g{g:04d}",
                    "members": " ".join(names[g::groups]),
                    "shares": "[default, 1]",
                }
                for g in range(groups)
            ],
        )
        tree = " ".join(f"[g{g:04d}, {1 + g % 5}]" for g in range(groups))
        conn.execute(
            insert(m.LsfQueue),
            [
                {"name": "normal", "priority": 30, "fairshare": f"USER_SHARES[{tree}]"},
                {"name": "flat", "priority": 40, "fairshare": "USER_SHARES[[default, 10]]"},
                {"name": "short", "priority": 50, "fairshare": None},
            ],
        )
        rows = []
        for i in range(jobs):
            state = rng.choice(("running", "pending", "completed", "completed"))
            start = NOW - rng.randint(60, 86400) if state != "pending" else None
            rows.append(
                {
                    "id": i + 1,
                    "user": rng.choice(names),
                    "queue": rng.choice(("normal", "flat", "short")),
                    "state": state,
                    "submit": NOW - 90000,
                    "start": start,
                    "end": (start + rng.randint(1, 50)) if state == "completed" else None,
                    "slots": rng.randint(1, 8),
                    "cputime": rng.uniform(0, 50000),
                    "cpus": 1,
                    "nodes": 1,
                    "nice": 0,
                    "site_factor": 0,
                }
            )
        conn.execute(insert(m.Job), rows)


def main() -> None:
    users = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "lsf.db")
        start = time.perf_counter()
        build(db, users, jobs)
        print(f"built store: {users} users, {jobs} jobs in {time.perf_counter() - start:.1f} s")
        at = "2026-05-01T12:00:00"  # NOW: timed() runs the commands with TZ=UTC
        for args in (
            ["bqueues"],
            ["bqueues", "-l"],
            ["bqueues", "-l", "--json"],
            ["bqueues", "normal", "--explain", "u000001"],
            ["lsf", "dispatch", "flat", "slots=1000", "jobs=1"],
        ):
            wall, cpu = timed([*FSCLI, "--db", db, "--at", at, *args], runs, cwd=ROOT)
            print(f"fscli {' '.join(args)}: {wall:.2f} s wall, {cpu:.2f} s CPU (min of {runs})")


if __name__ == "__main__":
    main()
