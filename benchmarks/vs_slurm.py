"""fscli beside real Slurm 22.05.8 on the scale trees of ``golden/slurm-22.05/scale``.

Builds the three flat trees real Slurm was measured on (accounts directly under root,
5 users per account, round robin: 200 / 1k, 1k / 5k, 2k / 10k) as sacctmgr load files,
loads each into a fresh store, and times what ``side_by_side.md`` times there: ``load``,
``sshare -a -P``, ``sshare -a -l -P``, ``assoc list -P -n format=...`` (sacctmgr show
assoc), ``dump``, and ``sprio`` / ``sprio -l`` with 300 pending jobs. It prints fscli's
median wall time beside real Slurm's, as recorded on the same kind of 2-core machine in
``side_by_side.md`` and in the capture's own ``timings.md`` (copied below), and their
ratios: above 1, fscli is faster.

Usage: python benchmarks/vs_slurm.py [RUNS]   (default 5; no asserts: it prints figures)
       python benchmarks/vs_slurm.py --live [--sizes 200,1000,2000] [RUNS]
(``--live``: real Slurm timed beside fscli in the same run, :mod:`vs_slurm_live`;
``--sizes``: the numbers of accounts, five users each.)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import fscli_cmd

SIZES = [(200, 1000), (1000, 5000), (2000, 10000)]
# real Slurm 22.05.8, seconds (golden/slurm-22.05/scale/side_by_side.md, medians)
SLURM = {
    ("load", 200): 3.04,
    ("load", 1000): 22.1,
    ("load", 2000): 109.0,
    ("sshare -a -P", 200): 0.019,
    ("sshare -a -P", 1000): 0.264,
    ("sshare -a -P", 2000): 0.999,
    ("sshare -a -l -P", 2000): 0.986,
    ("show assoc", 2000): 1.72,
    ("dump", 2000): 4.26,
    ("sprio", 200): 0.005,
    ("sprio -l", 200): 0.011,
}
# the same, from the capture's own run (golden/slurm-22.05/scale/timings.md, medians)
SLURM_CAPTURE = {
    ("load", 200): 2.66,
    ("load", 1000): 19.94,
    ("load", 2000): 74.24,
    ("sshare -a -P", 200): 0.039,
    ("sshare -a -P", 1000): 0.563,
    ("sshare -a -P", 2000): 2.215,
    ("sshare -a -l -P", 200): 0.039,
    ("sshare -a -l -P", 1000): 0.587,
    ("sshare -a -l -P", 2000): 2.263,
    ("show assoc", 200): 0.267,
    ("show assoc", 1000): 0.731,
    ("show assoc", 2000): 1.478,
    ("dump", 200): 0.524,
    ("dump", 1000): 1.934,
    ("dump", 2000): 5.375,
}
JOBS = 300
AT = "2026-11-24T12:00:00"


def load_file(accounts: int, users: int) -> str:
    """A load file like real Slurm's (``load_file_head.cfg``)."""
    lines = [
        "Cluster - 'oracle':Fairshare=1:QOS='normal'",
        "Parent - 'root'",
        "User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1",
    ]
    lines += [
        f"Account - 'acct{i:05d}':Description='scale account {i}':Organization='org{i}'"
        f":Fairshare={i % 10 + 1}"
        for i in range(accounts)
    ]
    for i in range(accounts):
        lines.append(f"Parent - 'acct{i:05d}'")
        lines += [
            f"User - 'user{u:06d}':DefaultAccount='acct{i:05d}':Fairshare=1"
            for u in range(i, users, accounts)
        ]
    return "\n".join(lines) + "\n"


def run(db: Path, *args: str, cwd: Path | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(
        [*fscli_cmd(), "--db", str(db), "--at", AT, *args],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=cwd,
        env={**os.environ, "TZ": "UTC"},
    )
    return time.perf_counter() - start


def median(times: list[float]) -> float:
    return statistics.median(times)


def add_jobs(db: Path, users: int) -> None:
    """Priority weights as the Slurm run had them, a partition, 300 pending jobs."""
    for words in (
        [
            "config",
            "set",
            "PriorityWeightAge=1000",
            "PriorityWeightFairshare=10000",
            "PriorityWeightJobSize=1000",
            "PriorityWeightPartition=1000",
            "PriorityWeightQOS=1000",
            "PriorityMaxAge=1-0",
        ],
        ["partition", "add", "debug", "nodes=4", "cpus=16"],
    ):
        run(db, "-Q", *words)
    for j in range(JOBS // 10):  # 30 users, 10 jobs each
        run(
            db,
            "-Q",
            "job",
            "submit",
            f"user=user{j * 7 % users:06d}",
            "partition=debug",
            f"cpus={j % 4 + 1}",
            f"submit=2026-11-24T{j % 12:02d}:00:00",
            "count=10",
        )


def measure(runs: int, sizes: list[tuple[int, int]]) -> list[tuple[str, int, int, float]]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        for accounts, users in sizes:
            cfg = tmp_path / f"scale{accounts}.cfg"
            cfg.write_text(load_file(accounts, users))
            loads = []
            for k in range(max(1, runs // 2)):
                db = tmp_path / f"s{accounts}-{k}.db"
                run(db, "-Q", "db", "upgrade")
                loads.append(run(db, "-Q", "load", str(cfg)))
            out.append(("load", accounts, users, median(loads)))
            for name, args in (
                ("sshare -a -P", ["sshare", "-a", "-P"]),
                ("sshare -a -l -P", ["sshare", "-a", "-l", "-P"]),
                (
                    "show assoc",
                    ["assoc", "list", "-P", "-n", "format=Account,User,Share,ParentName"],
                ),
                ("dump", ["dump", "oracle", f"file={tmp_path / 'd.cfg'}"]),
            ):
                out.append((name, accounts, users, median([run(db, *args) for _ in range(runs)])))
            if accounts == sizes[0][0]:
                add_jobs(db, users)
                for name, args in (("sprio", ["sprio"]), ("sprio -l", ["sprio", "-l"])):
                    out.append(
                        (name, accounts, users, median([run(db, *args) for _ in range(runs)]))
                    )
    return out


def main() -> None:
    args = sys.argv[1:]
    sizes = SIZES
    if "--sizes" in args:
        k = args.index("--sizes")
        sizes = [(int(n), 5 * int(n)) for n in args[k + 1].split(",")]
        del args[k : k + 2]
    if "--live" in args:
        import vs_slurm_live

        args.remove("--live")
        vs_slurm_live.main(load_file, sizes, int(args[0]) if args else 3)
        return
    runs = int(args[0]) if args else 5
    print(
        f"fscli beside real Slurm 22.05.8 (medians; fscli over {runs} runs, load over "
        f"{max(1, runs // 2)}); ratio = Slurm / fscli, above 1: fscli is faster"
    )
    print(
        "| command | size | Slurm s (side by side) | Slurm s (capture) | fscli s | Slurm / fscli |"
    )
    print("|---|---|---|---|---|---|")
    for name, accounts, users, seconds in measure(runs, sizes):
        slurm = [table.get((name, accounts)) for table in (SLURM, SLURM_CAPTURE)]
        size = f"{accounts} / {users}" + (f", {JOBS} jobs" if name.startswith("sprio") else "")
        ratios = " / ".join(f"{s / seconds:.2f}" for s in slurm if s) or "-"
        shown = [str(s) if s else "-" for s in slurm]
        print(f"| {name} | {size} | {shown[0]} | {shown[1]} | {seconds:.3f} | {ratios} |")


if __name__ == "__main__":
    main()
