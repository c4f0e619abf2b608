"""Time ``fscli limits check`` and ``limits show --effective`` where usage limits count.

GrpTRESMins and GrpWall count the cluster's decayed usage, which only the whole cluster
(every association, job and charge) gives; this benchmark builds a store where they are
in force, by bulk Core inserts into a temporary SQLite file: 2,000 accounts under root,
5 users each (10,000), GrpTRESMins, GrpWall and GrpTRESRunMins on root and on every
account, a charge per user over the last week, 20,000 completed jobs over the last week,
2,000 running and 1,000 pending. Then the real commands run end to end, twice each way:
cold (the pass cache emptied before every run) and warm (the same pass, the entry there).

Prints the minimum wall and CPU time (user + system of the child) of several runs;
asserts nothing.

Usage: [RUNS=5] python benchmarks/limits_pass_scale.py [ACCOUNTS] [USERS]
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from timing import fscli_cmd, timed

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sqlalchemy import insert

from fscli.store import models as m
from fscli.store import pass_cache
from fscli.store.db import open_engine

NOW = 1_800_000_000
DAY = 86400
USAGE_LIMITS = {
    "grp_tres_mins": "cpu=100000000,billing=100000000",
    "grp_wall": 100000000,
    "grp_tres_run_mins": "cpu=100000000",
}


def build(path: str, accounts: int, users: int) -> None:
    engine = open_engine(path)
    first_user = 2 + accounts
    with engine.begin() as conn:
        conn.execute(insert(m.Cluster), [{"id": 1, "name": "big", "nodes": 1000, "cpus": 64000}])
        conn.execute(
            insert(m.Account),
            [{"name": "root"}] + [{"name": f"a{i:05d}"} for i in range(accounts)],
        )
        conn.execute(insert(m.Qos), [{"name": "normal", "priority": 0, "usage_factor": 1.0}])
        conn.execute(
            insert(m.Association),
            [{"id": 1, "cluster_id": 1, "account": "root", "qos": "normal", **USAGE_LIMITS}],
        )
        conn.execute(
            insert(m.Association),
            [
                {
                    "id": 2 + i,
                    "cluster_id": 1,
                    "account": f"a{i:05d}",
                    "parent_id": 1,
                    "shares_raw": 1 + i % 10,
                    **USAGE_LIMITS,
                }
                for i in range(accounts)
            ],
        )
        conn.execute(
            insert(m.Association),
            [
                {
                    "id": first_user + u,
                    "cluster_id": 1,
                    "account": f"a{u % accounts:05d}",
                    "user": f"u{u:06d}",
                    "parent_id": 2 + u % accounts,
                    "shares_raw": 1,
                    "is_default": True,
                }
                for u in range(users)
            ],
        )
        conn.execute(
            insert(m.User), [{"name": f"u{u:06d}", "admin_level": "None"} for u in range(users)]
        )
        conn.execute(
            insert(m.Partition),
            [{"cluster_id": 1, "name": "batch", "nodes": 1000, "cpus": 64000, "max_time": 2880}],
        )
        conn.execute(
            insert(m.Usage),
            [
                {"assoc_id": first_user + u, "at": NOW - DAY * (u % 7), "amount": 60.0 * (u % 97)}
                for u in range(users)
            ],
        )
        done, running, pending = 20 * users // 10, users // 5, users // 10
        jobs = []
        for j in range(done + running + pending):
            u = j * 7919 % users
            state = "completed" if j < done else "running" if j < done + running else "pending"
            start = NOW - 60 - j * 4999 % (7 * DAY) if state == "completed" else None
            if state == "running":
                start = NOW - 60 - j * 7919 % 28800
            jobs.append(
                {
                    "id": j + 1,
                    "cluster_id": 1,
                    "assoc_id": first_user + u,
                    "user": f"u{u:06d}",
                    "account": f"a{u % accounts:05d}",
                    "partition": "batch",
                    "qos": "normal",
                    "state": state,
                    "submit": (start or NOW) - 600,
                    "start": start,
                    "end": start + 60 * (1 + j % 300) if state == "completed" else None,
                    "cpus": 1 + j % 16,
                    "nodes": 1,
                    "slots": 1,
                    "nice": 0,
                    "site_factor": 0,
                    "time_limit": 600,
                }
            )
        conn.execute(insert(m.Job), jobs)
    engine.dispose()


def empty_cache(path: str) -> None:
    conn = sqlite3.connect(path)
    try:
        where = pass_cache.folder(conn)
    finally:
        conn.close()
    if where:
        shutil.rmtree(where, ignore_errors=True)


def main() -> None:
    accounts = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    users = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    runs = int(os.environ.get("RUNS", "5"))
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "limits.db")
        start = time.perf_counter()
        build(path, accounts, users)
        print(
            f"built store: {accounts} accounts, {users} users in {time.perf_counter() - start:.1f} s"
        )
        base = [*fscli_cmd(), "--db", path, "--at", str(NOW)]
        who = [f"user=u{42:06d}", f"account=a{42 % accounts:05d}"]
        for label, args in (
            ("--version (start-up)", ["--version"]),
            ("limits check cpus=4", ["limits", "check", *who, "cpus=4"]),
            ("limits show --effective", ["limits", "show", *who, "--effective"]),
        ):
            for mode, setup in (("cold", lambda: empty_cache(path)), ("warm", None)):
                if setup is None:
                    timed(base + args, 1, cwd=REPO)  # the entry made
                wall, cpu = timed(base + args, runs, cwd=REPO, setup=setup)
                print(
                    f"fscli {label:28} {mode}: {wall:.3f} s wall, {cpu:.3f} s CPU (min of {runs})"
                )


if __name__ == "__main__":
    main()
