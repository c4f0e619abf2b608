"""The floor: ``fscli --help``/``--version`` (target 40 ms) and the read commands on a small
store, fscli's demo (target 60 ms): ``sshare -a -P``, ``sprio``, ``assoc list -P``,
``limits check``, ``limits show``. Prints the minimum wall time over the runs with the
child's CPU time beside it (see ``timing.py``), then, with ``--imports``, what each
command spends importing, module by module (``python -X importtime``, the minimum of
each module over the runs), largest first.

Bytecode is compiled once first (into a temporary ``PYTHONPYCACHEPREFIX``), as an
installed fscli has it: without it every run compiles every module it imports.

Usage: python benchmarks/startup.py [RUNS] [--imports]
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from timing import fscli_cmd, timed

AT = "2026-11-01T00:00:00"
COMMANDS = {
    "--help": ["--help"],
    "--version": ["--version"],
    "sshare -a -P": ["sshare", "-a", "-P"],
    "sprio": ["sprio"],
    "assoc list -P": ["assoc", "list", "-P"],
    "limits check": ["limits", "check", "user=user1", "cpus=4"],
    "limits show": ["limits", "show", "user=user1", "account=accountb", "--effective"],
}


def import_costs(cmd: list[str], runs: int) -> list[tuple[int, str]]:
    """(microseconds, module) of every module ``cmd`` imports: each module's least
    self time over the runs."""
    best: dict[str, int] = defaultdict(lambda: 1 << 62)
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", *cmd[1:]],
            capture_output=True,
            text=True,
            env={**os.environ, "TZ": "UTC"},
        )
        for line in done.stderr.splitlines():
            found = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
            if found:
                best[found[2]] = min(best[found[2]], int(found[1]))
    return sorted(((us, name) for name, us in best.items()), reverse=True)


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--imports"]
    runs = int(args[0]) if args else 20
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        db = str(Path(tmp) / "demo.db")
        subprocess.run(
            [*fscli_cmd(), "--db", db, "-Q", "demo"], check=True, stdout=subprocess.DEVNULL
        )
        for label, words in COMMANDS.items():
            cmd = [*fscli_cmd(), "--db", db, "--at", AT, *words]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)  # bytecode, disk cache
            wall, cpu = timed(cmd, runs)
            print(f"fscli {label:14} min {wall * 1000:6.1f} ms wall, {cpu * 1000:6.1f} ms CPU")
            if "--imports" in sys.argv:
                costs = import_costs(cmd, min(runs, 5))
                total = sum(us for us, _ in costs)
                print(f"    imports: {total / 1000:.1f} ms in {len(costs)} modules; largest:")
                for us, name in costs[:12]:
                    print(f"    {us / 1000:6.2f} ms  {name}")
    print(f"(min over {runs} runs)")


if __name__ == "__main__":
    main()
