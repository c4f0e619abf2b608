"""The floor: ``fscli --help``/``--version`` and the read commands on a small store, fscli's
demo: ``sshare -a -P``, ``sacctmgr -P show assoc``, ``sprio``, ``assoc list -P``, ``limits
check``, ``limits show``; with ``--scale``, also ``sshare -a -P``, ``sacctmgr -P show
assoc`` and ``sprio -l`` on the 200-account / 1,000-user and 1,000 / 5,000 trees of
``vs_slurm.py`` (300 pending jobs), where real Slurm answers ``sshare`` in 10 to 40 ms.
Prints the minimum wall time over the runs with the child's CPU time beside it (see
``timing.py``).

The commands whose answers the answer cache keeps (``sshare``, ``sacctmgr show``: see
docs/performance.md) get two rows: ``cold``, every run with no kept answer (the cache
folder emptied before it, so a run records its answer as the first after a write does),
and ``warm``, the same command asked again (each run replays the answer the one before
kept).

With ``--imports``, where that time goes: the interpreter's own start (``python -c
pass``), then what each command spends importing (``python -X importtime``, each
module's least self time over the runs) summed by package (fscli by layer: ``fscli.cli``,
``fscli.engine``, ...), largest first; what is left of the CPU time is the command's work.
``-X importtime`` reads the wall clock: on a busy machine its figures run above the CPU
time, so compare packages with each other there, not with the CPU time.

Bytecode is compiled once first (into a temporary ``PYTHONPYCACHEPREFIX``), as an
installed fscli has it: without it every run compiles every module it imports.

Usage: python benchmarks/startup.py [RUNS] [--imports] [--scale]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from timing import fscli_cmd, timed

AT = "2026-11-01T00:00:00"
COMMANDS = {
    "--help": ["--help"],
    "--version": ["--version"],
    "sshare -a -P": ["sshare", "-a", "-P"],
    "sprio": ["sprio"],
    "sacctmgr -P show assoc": ["sacctmgr", "-P", "show", "assoc"],
    "assoc list -P": ["assoc", "list", "-P"],
    "limits check": ["limits", "check", "user=user1", "cpus=4"],
    "limits show": ["limits", "show", "user=user1", "account=accountb", "--effective"],
}
SCALE = {
    "sshare -a -P": ["sshare", "-a", "-P"],
    "sacctmgr -P show assoc": ["sacctmgr", "-P", "show", "assoc"],
    "sprio -l": ["sprio", "-l"],
}
SIZES = ((200, 1000), (1000, 5000))
"""The trees ``--scale`` times (accounts, users)."""
ANSWERED = ("sshare", "sacctmgr")
"""Commands whose answers are kept: timed cold and warm."""
SCALE_AT = "2026-11-24T12:00:00"  # vs_slurm.py's moment: its jobs are pending then
SHOWN = 8
"""Packages shown per command with ``--imports``."""


def package(module: str) -> str:
    """What ``module``'s import time counts towards: its top package, fscli's by layer."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "fscli" else parts[0]


def import_costs(cmd: list[str], runs: int) -> dict[str, int]:
    """module -> microseconds ``cmd`` spends importing it: its least self time over the
    runs."""
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
    return best


def show_imports(cmd: list[str], cpu: float, start: float, runs: int) -> None:
    """Where ``cmd``'s CPU time goes: the interpreter's start (with the modules it
    imports), the imports of the command by package, and its work."""
    at_start = import_costs([sys.executable, "-c", "pass"], 1)
    costs: Counter[str] = Counter()
    for module, us in import_costs(cmd, runs).items():
        if module not in at_start:
            costs[package(module)] += us
    total = sum(costs.values()) / 1000
    print(
        f"    start {start * 1000:.1f} ms, imports {total:.1f} ms, work "
        f"{max(cpu * 1000 - start * 1000 - total, 0):.1f} ms; imports by package:"
    )
    print("    " + ", ".join(f"{name} {us / 1000:.1f}" for name, us in costs.most_common(SHOWN)))


def scale_store(tmp: Path, accounts: int, users: int) -> str:
    """The ``accounts`` / ``users`` tree of ``vs_slurm.py`` with its 300 pending jobs."""
    from vs_slurm import add_jobs, load_file

    db = tmp / f"scale{accounts}.db"
    cfg = tmp / f"scale{accounts}.cfg"
    cfg.write_text(load_file(accounts, users))
    quiet = {"check": True, "stdout": subprocess.DEVNULL}
    subprocess.run([*fscli_cmd(), "--db", str(db), "-Q", "load", str(cfg)], **quiet)
    add_jobs(db, users)
    return str(db)


def forget_answers() -> None:
    """Empty the answer cache (``XDG_CACHE_HOME`` is the run's own)."""
    shutil.rmtree(Path(os.environ["XDG_CACHE_HOME"], "fscli", "answers"), ignore_errors=True)


def rows(label: str, cmd: list[str]) -> list[tuple[str, dict]]:
    """(row label, ``timed`` options): cold and warm for a command whose answer is kept."""
    if cmd[cmd.index("--at") + 2] not in ANSWERED:
        return [(label, {})]
    return [(f"{label} cold", {"setup": forget_answers}), (f"{label} warm", {})]


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    runs = int(args[0]) if args else 20
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        db = str(Path(tmp) / "demo.db")
        subprocess.run(
            [*fscli_cmd(), "--db", db, "-Q", "demo"], check=True, stdout=subprocess.DEVNULL
        )
        cases = [
            (label, [*fscli_cmd(), "--db", db, "--at", AT, *w]) for label, w in COMMANDS.items()
        ]
        if "--scale" in sys.argv:
            for accounts, users in SIZES:
                big = scale_store(Path(tmp), accounts, users)
                size = f"{accounts}/{users // 1000}k"
                cases += [
                    (f"{label} {size}", [*fscli_cmd(), "--db", big, "--at", SCALE_AT, *w])
                    for label, w in SCALE.items()
                ]
        start = timed([sys.executable, "-c", "pass"], runs)[1] if "--imports" in sys.argv else 0
        if start:
            print(f"python -c pass: min {start * 1000:.1f} ms CPU (the interpreter's start)")
        for label, cmd in cases:
            for row, options in rows(label, cmd):
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)  # bytecode, disk
                wall, cpu = timed(cmd, runs, **options)
                print(f"fscli {row:34} min {wall * 1000:6.1f} ms wall, {cpu * 1000:6.1f} ms CPU")
                if "--imports" in sys.argv:
                    show_imports(cmd, cpu, start, min(runs, 5))
    print(f"(min over {runs} runs)")


if __name__ == "__main__":
    main()
