"""Survey the differences over many seeds: ``python -m tests.live.explore FIRST LAST``.

For each seed, the first call whose answers differ, one line a seed, and the counts at the
end; with ``-v`` both sides' answers too; with ``-a`` every differing call, not only the
first (later ones may follow from the first). Needs the live cluster's exports.
"""

from __future__ import annotations

import sys

from tests.live.differential import differences
from tests.live.generate import sequence
from tests.live.test_sacctmgr_differential import LENGTH


def main(argv: list[str]) -> int:
    """Holds the live cluster's lock, as the live tests do, so that neither resets it
    under the other."""
    import fcntl
    import os
    from pathlib import Path

    from tests.live.conftest import NO_CLUSTER

    if not os.environ.get("FSCLI_LIVE_SLURM") or not os.environ.get("SLURM_CONF"):
        sys.exit(f"explore: {NO_CLUSTER}")
    with open(Path(os.environ["FSCLI_LIVE_SLURM"]) / "lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return survey(argv)


def survey(argv: list[str]) -> int:
    verbose = "-v" in argv
    every = "-a" in argv
    first, last = (int(a) for a in argv if not a.startswith("-"))
    differ = 0
    for seed in range(first, last):
        found = list(differences(sequence(seed, LENGTH)))
        if not found:
            print(f"seed {seed}: same")
            continue
        differ += 1
        for one in found if every else found[:1]:
            print(f"seed {seed}: call {one.index + 1}: {one.call}")
            if verbose:
                for name, side in (("real", one.real), ("fscli", one.fscli)):
                    print(f"  {name} rc={side.rc} stdout={side.stdout!r} stderr={side.stderr!r}")
    print(f"{differ} of {last - first} seeds differ")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
