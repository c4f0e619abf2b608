"""Median wall time of ``fscli --help`` (target: under 100 ms).

Usage: python benchmarks/startup.py [RUNS]
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    exe = shutil.which("fscli")
    cmd = [exe, "--help"] if exe else [sys.executable, "-m", "fscli", "--help"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    print(f"fscli --help: median {statistics.median(times) * 1000:.1f} ms over {runs} runs "
          f"(min {min(times) * 1000:.1f} ms) [{' '.join(cmd)}]")


if __name__ == "__main__":
    main()
