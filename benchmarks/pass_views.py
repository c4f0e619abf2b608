"""Different views of one decay pass: what the pass cache spares them (issue 36).

On the trees of ``vs_slurm.py`` (200 accounts / 1,000 users, 1,000 / 5,000, 2,000 /
10,000, 300 pending jobs), each round writes to the store (a new stamp: the pass cache and
the answer cache both go stale), then runs, in one fresh cache folder:

* ``sshare -a -P``: cold, the first read after a write (it computes, and keeps the rows);
* ``sshare -a -l -P``: another view of the same pass (the answer cache cannot help: it is
  another command line);
* ``tree``: the tree after sshare.

Prints the minimum CPU time of each over the rounds, for this checkout and, with
``--before DIR``, for the fscli checkout at DIR beside it (the rounds interleaved, so
that both see the same load). Bytecode is compiled once first (into a temporary
``PYTHONPYCACHEPREFIX``), as an installed fscli has it.

Usage: python benchmarks/pass_views.py [ROUNDS] [--before DIR] [--sizes 200,1000,2000]
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from startup import scale_store
from timing import ROOT, child_cpu, fscli_cmd

AT = "2026-11-24T12:00:00"
VIEWS = {
    "sshare -a -P, cold": ["sshare", "-a", "-P"],
    "sshare -a -l -P after it": ["sshare", "-a", "-l", "-P"],
    "tree after sshare": ["tree"],
}


def write(db: str) -> None:
    """A write by another program: a new stamp, nothing else changed."""
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE cluster SET name = name")
    conn.close()


def one_round(root: Path, db: str, cache: Path) -> list[float]:
    """CPU seconds of each view, in order, after a write, in an empty cache folder."""
    shutil.rmtree(cache, ignore_errors=True)
    write(db)
    env = {**os.environ, "TZ": "UTC", "XDG_CACHE_HOME": str(cache)}
    spent = []
    for words in VIEWS.values():
        before = child_cpu()
        cmd = [*fscli_cmd(root), "--db", db, "--at", AT, *words]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        spent.append(child_cpu() - before)
    return spent


def main() -> None:
    args = sys.argv[1:]
    roots = {"this": ROOT}
    if "--before" in args:
        k = args.index("--before")
        roots = {"before": Path(args[k + 1]), **roots}
        del args[k : k + 2]
    sizes = [200, 1000, 2000]
    if "--sizes" in args:
        k = args.index("--sizes")
        sizes = [int(n) for n in args[k + 1].split(",")]
        del args[k : k + 2]
    rounds = int(args[0]) if args else 5
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        print(f"min CPU ms over {rounds} interleaved rounds: " + " | ".join(roots))
        for accounts in sizes:
            db = scale_store(Path(tmp), accounts, 5 * accounts)
            for name, root in roots.items():  # bytecode, the disk's cache
                one_round(root, db, Path(tmp) / f"cache-{name}")
            best: dict[tuple[str, str], float] = {}
            for _ in range(rounds):
                for name, root in roots.items():
                    spent = one_round(root, db, Path(tmp) / f"cache-{name}")
                    for view, cpu in zip(VIEWS, spent):
                        best[name, view] = min(best.get((name, view), cpu), cpu)
            for view in VIEWS:
                figures = " | ".join(f"{best[name, view] * 1000:6.1f}" for name in roots)
                print(f"{accounts}/{5 * accounts}  {view:26} {figures}")


if __name__ == "__main__":
    main()
