"""Timing shared by the benchmarks: the minimum wall and CPU time of a command over runs.

The machine may be shared, so wall-clock time is noisy; the CPU time of the child (user +
system, from ``RUSAGE_CHILDREN``) is the steadier figure, and both are minima over the runs.
"""

from __future__ import annotations

import os
import resource
import subprocess
import time


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], runs: int, cwd=None) -> tuple[float, float]:
    """(min wall, min CPU) seconds of ``runs`` runs of ``cmd``, its output discarded."""
    walls, cpus = [], []
    for _ in range(runs):
        cpu, start = child_cpu(), time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                       env={**os.environ, "TZ": "UTC"}, cwd=cwd)
        walls.append(time.perf_counter() - start)
        cpus.append(child_cpu() - cpu)
    return min(walls), min(cpus)
