"""What-if at scale: ``sshare -a --with ...`` against plain ``sshare -a -P`` on
``sshare_scale.py``'s shuffled store (10,000 accounts, 100,000 user associations).

Prints, for each what-if kind, its time and its ratio to the plain command (the issue's
bar: within 2.5x), and one solver (``whatif shares``) for scale. No asserts: it prints
figures, the minimum over the runs, CPU time beside wall time (the machine is shared).

Usage: python benchmarks/whatif_scale.py [RUNS]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from sshare_scale import AT, build
from timing import fscli_cmd, timed

CASES = {
    "plain sshare -a -P": [],
    "--with 'account=acct000_00 fairshare=+50'": ["--with", "account=acct000_00 fairshare=+50"],
    "--with two changes": [
        "--with",
        "account=top001 fairshare=-10%",
        "--with",
        "account=acct002_03 fairshare=200",
    ],
    "--with-config PriorityDecayHalfLife=14-0": ["--with-config", "PriorityDecayHalfLife=14-0"],
    "--with-config ... --as-if-always": [
        "--with-config",
        "PriorityDecayHalfLife=14-0",
        "--as-if-always",
    ],
}


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    cmd = fscli_cmd()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "shuffled.db"
        start = time.perf_counter()
        accounts, users, charges = build(db, shuffled=True)
        print(
            f"built {accounts:,} accounts, {users:,} user associations, {charges:,} usage "
            f"records in {time.perf_counter() - start:.1f} s"
        )
        base = [*cmd, "--db", str(db), "--at", str(AT), "-Q"]
        plain = None
        for name, extra in CASES.items():
            wall, cpu = timed([*base, "sshare", "-a", "-P", *extra], runs)
            plain = plain or (wall, cpu)
            print(
                f"  {name}: min {wall:.2f} s wall, {cpu:.2f} s CPU over {runs} runs "
                f"({wall / plain[0]:.2f}x wall, {cpu / plain[1]:.2f}x CPU of plain)"
            )
        wall, cpu = timed(
            [*base, "whatif", "shares", "acct000_00", "--target", "LevelFS=1", "-P"], 1
        )
        print(f"  whatif shares acct000_00 --target LevelFS=1: {wall:.1f} s wall, {cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
