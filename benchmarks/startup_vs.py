"""The start-up floor of two checkouts side by side: ``startup.py``'s commands (and
``sprio -l``, ``sacctmgr show assoc -P``) on each one's own demo store, timed in
interleaved rounds (one run of the one, one of the other), so that a busy machine
weighs on both alike. Prints the minimum CPU time of each over the rounds, and the
change.

Made for "no figure gets worse": compare a branch with main in a detached worktree
(``git worktree add --detach ../main-copy main``). The pass cache lives in a temporary
``XDG_CACHE_HOME``: the first run of ``sprio`` fills it, the timed ones read it.

Usage: python benchmarks/startup_vs.py BEFORE_CHECKOUT [AFTER_CHECKOUT] [ROUNDS]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from startup import AT, COMMANDS
from timing import ROOT, fscli_cmd, timed

MORE = {
    "sprio -l": ["sprio", "-l"],
    "sacctmgr show assoc -P": ["sacctmgr", "show", "assoc", "-P"],
}


def main() -> None:
    paths = [a for a in sys.argv[1:] if not a.isdigit()]
    rounds = int(next((a for a in sys.argv[1:] if a.isdigit()), "15"))
    if not paths:
        sys.exit(__doc__.rsplit("Usage: ", 1)[1].strip())
    roots = [Path(paths[0]).resolve(), Path(paths[1]).resolve() if len(paths) > 1 else ROOT]
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        dbs = []
        for k, root in enumerate(roots):
            dbs.append(str(Path(tmp) / f"demo{k}.db"))
            quiet = {"check": True, "stdout": subprocess.DEVNULL}
            subprocess.run([*fscli_cmd(root), "--db", dbs[k], "-Q", "demo"], **quiet)
        print(f"{'command':24} {'before':>8} {'after':>8} {'change':>8}   (CPU ms)")
        for label, words in {**COMMANDS, **MORE}.items():
            cmds = [[*fscli_cmd(r), "--db", db, "--at", AT, *words] for r, db in zip(roots, dbs)]
            for cmd in cmds:  # bytecode, the disk cache, the pass cache
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            best = [float("inf")] * len(cmds)
            for _ in range(rounds):
                best = [min(b, timed(cmd, 1)[1]) for b, cmd in zip(best, cmds)]
            before, after = (b * 1000 for b in best)
            print(f"{label:24} {before:8.1f} {after:8.1f} {after - before:+8.1f}", flush=True)
    print(f"(min over {rounds} interleaved rounds)")


if __name__ == "__main__":
    main()
