"""Shared by the benchmarks: the command that runs fscli, the minimum wall and CPU time of a
command over runs, and the bulk insert of a big accounting tree.

The machine may be shared, so wall-clock time is noisy; the CPU time of the child (user +
system, from ``RUSAGE_CHILDREN``) is the steadier figure, and both are minima over the runs.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fscli_cmd(root: Path = ROOT) -> list[str]:
    """This checkout's fscli (or the one at ``root``), entered as the installed script
    enters it (``console``, which skips the heap teardown at exit), whatever the working
    directory.

    Not an ``fscli`` found on PATH: ``pip install .`` copies the code, so that one may be
    another version than the checkout (and than the engine the benchmarks time in-process).
    """
    entry = (
        f"import sys; sys.path.insert(0, {str(root)!r}); "
        "from fscli.cli.main import console; console()"
    )
    return [sys.executable, "-c", entry]


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], runs: int, cwd=None, setup=None) -> tuple[float, float]:
    """(min wall, min CPU) seconds of ``runs`` runs of ``cmd``, its output discarded;
    ``setup()``, if given, runs before each run and is not timed."""
    walls, cpus = [], []
    for _ in range(runs):
        if setup:
            setup()
        cpu, start = child_cpu(), time.perf_counter()
        subprocess.run(
            cmd, check=True, stdout=subprocess.DEVNULL, env={**os.environ, "TZ": "UTC"}, cwd=cwd
        )
        walls.append(time.perf_counter() - start)
        cpus.append(child_cpu() - cpu)
    return min(walls), min(cpus)


def insert_tree(conn, users: int, root: dict, account, user) -> tuple[int, int]:
    """Cluster ``big`` (1,000 nodes), root and ``users // 100`` accounts ``aNNNN`` under it,
    ``users`` users ``uNNNNNN`` spread round-robin over them, by bulk Core inserts.

    ``root`` holds extra columns of the root association; ``account(i)`` and ``user(u)``
    give extra columns of account ``i``'s and user ``u``'s association. Returns (number of
    accounts, id of user 0's association: user ``u``'s is that plus ``u``).
    """
    from sqlalchemy import insert

    from fscli.store import models as m

    accounts = max(1, users // 100)
    conn.execute(insert(m.Cluster), [{"id": 1, "name": "big", "nodes": 1000, "cpus": 64000}])
    conn.execute(
        insert(m.Account), [{"name": "root"}] + [{"name": f"a{i:04d}"} for i in range(accounts)]
    )
    conn.execute(
        insert(m.Association),
        [{"id": 1, "cluster_id": 1, "account": "root", "parent_id": None, **root}],
    )
    conn.execute(
        insert(m.Association),
        [
            {"id": 2 + i, "cluster_id": 1, "account": f"a{i:04d}", "parent_id": 1, **account(i)}
            for i in range(accounts)
        ],
    )
    first_user = 2 + accounts
    conn.execute(
        insert(m.Association),
        [
            {
                "id": first_user + u,
                "cluster_id": 1,
                "account": f"a{u % accounts:04d}",
                "user": f"u{u:06d}",
                "parent_id": 2 + u % accounts,
                "is_default": True,  # each user's one association
                **user(u),
            }
            for u in range(users)
        ],
    )
    conn.execute(
        insert(m.User),
        [{"name": f"u{u:06d}", "admin_level": "None"} for u in range(users)],
    )
    return accounts, first_user


BATCH_AND_FAST = [
    {
        "cluster_id": 1,
        "name": name,
        "nodes": nodes,
        "cpus": nodes * 64,
        "priority_job_factor": factor,
        "priority_tier": 1,
    }
    for name, nodes, factor in (("batch", 1000, 10), ("fast", 200, 100))
]
"""The two partitions of the 100,000-job benchmarks (rows of the partition table)."""
