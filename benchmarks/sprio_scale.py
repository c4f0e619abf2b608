"""Time ``fscli sprio > /dev/null`` on 100,000 pending jobs over 100,000 user associations.

The store is built fast with bulk Core inserts into a temporary SQLite file (1,000
accounts under root, 100 users each, usage on every tenth user, two partitions, three
QOS, all priority weights set); then the real command runs end to end in a subprocess.
Target: under 3 s. Prints, per command, the minimum wall-clock time over several runs
and the child's CPU time (user + sys) of that run; asserts nothing.

Usage: python benchmarks/sprio_scale.py [USER_ASSOCIATIONS] [JOBS] [RUNS]
Set SPRIO_BENCH_DB=FILE to keep the built store there (and reuse it on the next run).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from timing import BATCH_AND_FAST, insert_tree, timed

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sqlalchemy import insert

from fscli.engine.config import validate
from fscli.store import models as m
from fscli.store.db import open_engine

NOW = 1_800_000_000
CONFIG = {
    "PriorityWeightAge": "1000",
    "PriorityWeightFairshare": "100000",
    "PriorityWeightJobSize": "1000",
    "PriorityWeightPartition": "1000",
    "PriorityWeightQOS": "2000",
    "PriorityWeightAssoc": "100",
    "PriorityWeightTRES": "cpu=500",
    "PriorityMaxAge": "7-0",
}


def build(path: str, users: int, jobs: int) -> None:
    engine = open_engine(path)
    with engine.begin() as conn:
        accounts, first_user = insert_tree(
            conn,
            users,
            {"qos": "normal,high,low"},
            lambda i: {"shares_raw": 1 + i % 7},
            lambda u: {"priority": u % 50 or None},
        )
        conn.execute(
            insert(m.Qos),
            [
                {"name": n, "priority": p, "usage_factor": 1.0}
                for n, p in (("normal", 0), ("high", 100), ("low", 10))
            ],
        )
        conn.execute(
            insert(m.Partition),
            BATCH_AND_FAST,
        )
        conn.execute(
            insert(m.Config),
            [
                {"cluster_id": 1, **dict(zip(("key", "value"), validate(k, v)))}
                for k, v in CONFIG.items()
            ],
        )
        conn.execute(
            insert(m.Usage),
            [
                {
                    "assoc_id": first_user + u,
                    "at": NOW - 86400 * (u % 5),
                    "amount": float(1000 * (u % 97)),
                }
                for u in range(0, users, 10)
            ],
        )
        qos = ("normal", "high", "low")
        conn.execute(
            insert(m.Job),
            [
                {
                    "id": j + 1,
                    "cluster_id": 1,
                    "assoc_id": first_user + j % users,
                    "user": f"u{j % users:06d}",
                    "account": f"a{(j % users) % accounts:04d}",
                    "partition": "batch,fast" if j % 10 == 0 else "batch",
                    "qos": qos[j % 3],
                    "state": "pending",
                    "submit": NOW - 60 * (j % 10000),
                    "cpus": 1 + j % 64,
                    "nodes": 1 + j % 4,
                    "slots": 1,
                    "nice": 0,
                    "site_factor": 0,
                }
                for j in range(jobs)
            ],
        )
    engine.dispose()


def bench(path: str, runs: int) -> None:
    base = [sys.executable, "-m", "fscli", "--db", path, "--at", str(NOW + 3600)]
    for label, args in (
        ("fscli sprio > /dev/null", ["sprio"]),
        ("fscli sprio -l > /dev/null", ["sprio", "-l"]),
        ("fscli sprio --json > /dev/null", ["sprio", "--json"]),
    ):
        wall, cpu = timed(base + args, runs, cwd=REPO)
        print(
            f"{label:32} min wall {wall:5.2f} s, min CPU {cpu:5.2f} s over {runs} runs"
            " (target < 3 s)"
        )


def main() -> None:
    users = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    kept = os.environ.get("SPRIO_BENCH_DB")
    with tempfile.TemporaryDirectory() as tmp:
        path = kept or str(Path(tmp) / "big.db")
        if not (kept and Path(kept).exists()):
            start = time.perf_counter()
            build(path, users, jobs)
            print(
                f"built store: {users} user associations, {jobs} pending jobs "
                f"in {time.perf_counter() - start:.1f} s"
            )
        bench(path, runs)


if __name__ == "__main__":
    main()
