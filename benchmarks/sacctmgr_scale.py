"""``fscli sacctmgr`` reads against the native commands that read the same (issue 32's
goal: ``sacctmgr -P show assoc`` and ``sacctmgr dump`` within 1.5x of ``assoc list -P``
and ``dump``).

Builds a store of 2,000 accounts (50 under root, the rest under those) and 10,000 users
(5 per account; limits and QOS on some, so the inherited values have work to do) by bulk
Core inserts, then times, median of RUNS runs each, output into /dev/null:

* ``sacctmgr -P show assoc`` against ``assoc list -P``;
* ``sacctmgr dump big file=F`` against ``dump big file=F``.

``--base DIR`` times another checkout (say ``git worktree add /tmp/base main``) on the
same store in the same run, so the table shows before and after side by side.

Usage: python benchmarks/sacctmgr_scale.py [RUNS] [--base DIR]   (default 5 runs; prints
figures, asserts nothing; wall time and the child's CPU, medians: on a shared machine the
CPU figures are the steadier)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import ROOT, child_cpu, fscli_cmd

sys.path.insert(0, str(ROOT))  # run from a checkout

ACCOUNTS = 2_000
USERS = 10_000
TOP = 50  # accounts under root; account i >= TOP is under account i % TOP
AT = "2026-05-01T00:00:00"


def build(path: str) -> None:
    from sqlalchemy import insert

    from fscli.store import models as m
    from fscli.store.db import open_engine

    engine = open_engine(path)
    with engine.begin() as conn:
        conn.execute(insert(m.Cluster), [{"id": 1, "name": "big", "nodes": 1000, "cpus": 64000}])
        conn.execute(insert(m.Qos), [{"id": 1, "name": "normal"}, {"id": 2, "name": "high"}])
        conn.execute(
            insert(m.Account),
            [{"name": "root"}] + [{"name": f"a{i:04d}"} for i in range(ACCOUNTS)],
        )
        root = {"id": 1, "cluster_id": 1, "account": "root", "parent_id": None, "qos": "normal"}
        conn.execute(insert(m.Association), [root])
        rows = []  # one insert per set of columns
        for i in range(ACCOUNTS):
            rows.append(
                {
                    "id": 2 + i,
                    "cluster_id": 1,
                    "account": f"a{i:04d}",
                    "parent_id": 1 if i < TOP else 2 + i % TOP,
                    "shares_raw": 1 + i % 7,
                    "max_jobs": 100 if i < TOP else None,
                    "grp_tres": "cpu=1000" if i % 7 == 0 else None,
                    "qos": "+high" if i % 11 == 0 else None,
                    "nest_order": -i,
                }
            )
        conn.execute(insert(m.Association), rows)
        rows = []
        for u in range(USERS):
            account = u % ACCOUNTS
            rows.append(
                {
                    "id": 2 + ACCOUNTS + u,
                    "cluster_id": 1,
                    "account": f"a{account:04d}",
                    "user": f"u{u:06d}",
                    "parent_id": 2 + account,
                    "max_tres_per_job": "cpu=64" if u % 5 == 0 else None,
                    "is_default": True,
                    "nest_order": -u,
                }
            )
        conn.execute(insert(m.Association), rows)
        conn.execute(
            insert(m.User), [{"name": f"u{u:06d}", "admin_level": "None"} for u in range(USERS)]
        )
    engine.dispose()


def timed(cmd: list[str], runs: int) -> tuple[float, float]:
    """(median wall, median CPU) seconds of ``runs`` runs, stdout and stderr discarded."""
    walls, cpus = [], []
    for _ in range(runs):
        cpu, start = child_cpu(), time.perf_counter()
        subprocess.run(
            cmd,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "TZ": "UTC"},
        )
        walls.append(time.perf_counter() - start)
        cpus.append(child_cpu() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def pairs(out: str) -> list[tuple[str, list[str], list[str]]]:
    """(name, the sacctmgr command's words, the native command's words)."""
    return [
        ("show assoc -P", ["sacctmgr", "-P", "show", "assoc"], ["assoc", "list", "-P"]),
        ("dump", ["sacctmgr", "dump", "big", f"file={out}"], ["dump", "big", f"file={out}"]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=5)
    parser.add_argument("--base", type=Path, help="a checkout to time as 'before'")
    args = parser.parse_args()
    trees = [("before", args.base.resolve())] if args.base else []
    trees.append(("after" if args.base else "this", ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "big.db")
        build(db)
        print(
            f"{ACCOUNTS:,} accounts, {USERS:,} users; median of {args.runs} runs;"
            f" load {os.getloadavg()[0]:.2f}"
        )
        print(f"{'command':14} {'code':7} {'sacctmgr':>17} {'native':>17}  ratio (CPU)")
        for name, mine, native in pairs(str(Path(tmp) / "out.cfg")):
            for label, root in trees:
                base = [*fscli_cmd(root), "--db", db, "--at", AT]
                wall_s, cpu_s = timed([*base, *mine], args.runs)
                wall_n, cpu_n = timed([*base, *native], args.runs)
                print(
                    f"{name:14} {label:7} {wall_s:5.2f} s ({cpu_s:5.2f} CPU)"
                    f" {wall_n:5.2f} s ({cpu_n:5.2f} CPU) {wall_s / wall_n:5.2f}x"
                    f" ({cpu_s / cpu_n:4.2f}x)"
                )
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
