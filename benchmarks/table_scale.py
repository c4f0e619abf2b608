"""Tables at 100,000 rows against ``-P`` of the same rows (issue 19's goal: a table costs
at most 1.5x the parsable output).

Builds a store of 1,000 accounts and 100,000 user associations (bulk inserts, see
``timing.insert_tree``), then times ``assoc list`` and ``sshare -a -l`` three ways:

* ``-P``: Slurm's parsable text, into /dev/null;
* ``piped``: the table into /dev/null (plain aligned text, no width limit);
* ``terminal``: the table on a pseudo-terminal 250 columns wide (the terminal path of
  ``render.tables.show``), its output read and thrown away by this process.

Usage: python benchmarks/table_scale.py [RUNS]   (default 3; prints figures, asserts
nothing; every figure is the minimum over the runs, wall and the child's CPU)
"""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

from timing import child_cpu, fscli_cmd, insert_tree

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

USERS = 100_000
COLUMNS = 250
AT = "2026-05-01T00:00:00"
COMMANDS = (("assoc", "list"), ("sshare", "-a", "-l"))


def build(path: str) -> None:
    from fscli.store.db import open_engine

    engine = open_engine(path)
    with engine.begin() as conn:
        insert_tree(
            conn, USERS, {}, lambda i: {"shares_raw": 1 + i % 7}, lambda u: {"shares_raw": 1}
        )
    engine.dispose()


def run_on_terminal(cmd: list[str], env: dict) -> None:
    """``cmd`` with stdout on a pseudo-terminal COLUMNS wide; its output drained."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, COLUMNS, 0, 0))
    drained = threading.Thread(target=_drain, args=(master,))
    drained.start()
    subprocess.run(cmd, check=True, stdout=slave, env=env)
    os.close(slave)
    drained.join()
    os.close(master)


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 1 << 16):
            pass
    except OSError:  # the child's side closed
        pass


def timed(cmd: list[str], runs: int, terminal: bool) -> tuple[float, float]:
    env = {**os.environ, "TZ": "UTC", "COLUMNS": str(COLUMNS)}
    walls, cpus = [], []
    for _ in range(runs):
        cpu, start = child_cpu(), time.perf_counter()
        if terminal:
            run_on_terminal(cmd, env)
        else:
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        walls.append(time.perf_counter() - start)
        cpus.append(child_cpu() - cpu)
    return min(walls), min(cpus)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "big.db")
        build(db)
        base = [*fscli_cmd(), "--db", db, "--at", AT]
        print(f"{USERS:,} user associations; min of {runs} runs; load {os.getloadavg()[0]:.2f}")
        for words in COMMANDS:
            name = " ".join(words)
            wall_p, cpu_p = timed([*base, *words, "-P"], runs, terminal=False)
            print(f"{name:14} -P        {wall_p:6.2f} s wall {cpu_p:6.2f} s CPU")
            for how, terminal in (("piped", False), ("terminal", True)):
                wall, cpu = timed([*base, *words], runs, terminal)
                print(
                    f"{name:14} {how:9} {wall:6.2f} s wall {cpu:6.2f} s CPU"
                    f"  {wall / wall_p:4.2f}x -P (CPU {cpu / cpu_p:4.2f}x)"
                )
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
