"""Wall time of ``fscli --help`` (target: under 100 ms): the minimum over the runs, with
the child's CPU time beside it (see ``timing.py``).

Usage: python benchmarks/startup.py [RUNS]
"""

from __future__ import annotations

import sys

from timing import fscli_cmd, timed


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    wall, cpu = timed([*fscli_cmd(), "--help"], runs)
    print(f"fscli --help: min {wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms CPU over {runs} runs")


if __name__ == "__main__":
    main()
