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

Usage: [RUNS=5] python benchmarks/limits_pass_scale.py [ACCOUNTS] [USERS] [--base DIR]
(``--base``: a checkout, e.g. the main branch's, timed beside this one as "before".)
"""

from __future__ import annotations

import argparse
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

SERIAL = {"nodes": 1, "slots": 1, "nice": 0, "site_factor": 0, "time_limit": 600}
"""What every job of the store asks besides its CPUs: one node, 10 hours."""


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
                    **SERIAL,
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("accounts", nargs="?", type=int, default=2000)
    parser.add_argument("users", nargs="?", type=int, default=10000)
    parser.add_argument("--base", type=Path, help="a checkout to time as 'before'")
    args = parser.parse_args()
    runs = int(os.environ.get("RUNS", "5"))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")  # the runs' cache, not yours
        path = str(Path(tmp) / "limits.db")
        start = time.perf_counter()
        build(path, args.accounts, args.users)
        print(
            f"built store: {args.accounts} accounts, {args.users} users "
            f"in {time.perf_counter() - start:.1f} s; min of {runs} runs"
        )
        who = [f"user=u{42:06d}", f"account=a{42 % args.accounts:05d}"]
        commands = {
            "limits check cpus=4": ["limits", "check", *who, "cpus=4", "time=1:00:00"],
            "limits show --effective": ["limits", "show", *who, "--effective"],
        }
        trees = [("before", args.base.resolve())] if args.base else []
        trees.append(("after" if args.base else "this", REPO))
        for label, words in commands.items():
            for code, root in trees:
                base = [*fscli_cmd(root), "--db", path, "--at", str(NOW)]
                cold = timed(base + words, runs, cwd=REPO, setup=lambda: empty_cache(path))
                timed(base + words, 1, cwd=REPO)  # the entry made, if this code makes one
                warm = timed(base + words, runs, cwd=REPO)
                print(
                    f"{label:24} {code:6} cold {cold[0]:.3f} s ({cold[1]:.3f} CPU)"
                    f"  warm {warm[0]:.3f} s ({warm[1]:.3f} CPU)"
                )


if __name__ == "__main__":
    main()
