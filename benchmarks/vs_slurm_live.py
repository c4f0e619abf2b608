"""``vs_slurm.py --live``: real Slurm and fscli timed side by side, in one run, on one tree.

On the live cluster of ``tests/live/slurm up DIR --jobs`` (``SLURM_CONF`` and
``FSCLI_LIVE_SLURM`` exported), for each size: accounting reset, the scale tree loaded
with ``sacctmgr load`` (the six Unix users of the live cluster in its first accounts),
one job holding the node and 300 pending jobs behind it, then ``fscli import slurm
--live`` mirrors the cluster into a fresh store. Each command is then timed in rounds,
interleaved: a write to the store, fscli's command (cold: the first after a write),
fscli's again (warm), real Slurm's. The table gives medians and ratios (Slurm / fscli;
above 1, fscli is faster). The jobs are cancelled at the end of each size.

Run as root (sbatch as the job users, the tree's owner). Loading 10,000 users into
slurmdbd takes about two minutes.
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import ROOT, fscli_cmd

sys.path.insert(0, str(ROOT))
from tests.live.test_live_shares import run, sbatch  # noqa: E402 - the live tests' helpers

JOB_USERS = ("alice", "bob", "carl", "dana", "erin", "frank")
PENDING = 300
COMMANDS = [
    ("sshare -a -P", ["sshare", "-a", "-P"], ["sshare", "-a", "-P"]),
    ("sshare -a -l -P", ["sshare", "-a", "-l", "-P"], ["sshare", "-a", "-l", "-P"]),
    (
        "sacctmgr -P show assoc",
        ["sacctmgr", "-P", "show", "assoc"],
        ["sacctmgr", "-P", "show", "assoc"],
    ),
    ("sacctmgr dump", ["sacctmgr", "-i", "dump", "live"], ["sacctmgr", "-i", "dump", "live"]),
    ("sprio", ["sprio"], ["sprio"]),
    ("sprio -l", ["sprio", "-l"], ["sprio", "-l"]),
]


def live_file(load_file: str, accounts: int, users: int) -> str:
    """The scale tree on cluster ``live``, the job users under its first accounts."""
    text = load_file.replace("Cluster - 'oracle'", "Cluster - 'live'")
    extra = [
        f"Parent - 'acct{k:05d}'\nUser - '{user}':DefaultAccount='acct{k:05d}':Fairshare=1"
        for k, user in enumerate(JOB_USERS)
    ]
    return text + "\n".join(extra) + "\n"


def load(cfg: Path) -> None:
    """``sacctmgr load`` (two minutes at 10,000 users: longer than ``run`` waits)."""
    done = subprocess.run(
        ["sacctmgr", "-i", "load", f"file={cfg}"], capture_output=True, text=True, timeout=1800
    )
    if done.returncode != 0:
        raise SystemExit(f"sacctmgr load: exit {done.returncode}: {done.stderr.strip()}")


def prepare_cluster(folder: Path, text: str, tmp: Path) -> None:
    """Fresh accounting holding ``text``'s tree, one job holding the node, 300 pending."""
    cancel_jobs()
    run(str(ROOT / "tests/live/slurm"), "fresh", str(folder))  # slurmctld registers anew
    cfg = tmp / "live.cfg"
    cfg.write_text(text)
    started = time.perf_counter()
    load(cfg)
    print(f"  sacctmgr load: {time.perf_counter() - started:.1f} s", flush=True)
    run("scontrol", "reconfigure", check=False)  # may time out while slurmctld takes the tree
    sbatch("root", "root", "batch", 64, "--wrap", "sleep 3600")
    for k in range(PENDING):
        user = JOB_USERS[k % len(JOB_USERS)]
        sbatch(user, f"acct{JOB_USERS.index(user):05d}", "batch", k % 4 + 1, "--wrap", "sleep 1")
    time.sleep(70)  # a priority pass, so that sprio shows every factor


def fscli(db: Path, at: str | None, *args: str) -> str:
    moment = ["--at", at] if at else []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [*fscli_cmd(), "--db", str(db), *moment, *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"fscli {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def timed(argv: list[str], cwd: Path) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd, env=env)
    return time.perf_counter() - start


def write(db: Path) -> None:
    """A write to the store by another program (the settings' stamp set anew)."""
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE cluster SET name = name")
    conn.close()


def measure_size(load_file: str, accounts: int, users: int, runs: int) -> list[tuple]:
    folder = Path(os.environ["FSCLI_LIVE_SLURM"])
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        prepare_cluster(folder, live_file(load_file, accounts, users), tmp)
        db = tmp / "mirror.db"
        started = time.perf_counter()
        out = fscli(db, None, "import", "slurm", "--live")
        print(f"  fscli import slurm --live: {time.perf_counter() - started:.1f} s", flush=True)
        at = next((w for w in out.split() if w[:2] == "20" and "T" in w), None)
        rows = []
        for name, ours, theirs in COMMANDS:
            mine = [*fscli_cmd(), "--db", str(db), *(["--at", at] if at else []), *ours]
            cold, warm, slurm = [], [], []
            for _ in range(runs):
                write(db)
                cold.append(timed(mine, tmp))
                warm.append(timed(mine, tmp))
                slurm.append(timed(theirs, tmp))
            rows.append((name, accounts, users, *map(statistics.median, (slurm, cold, warm))))
        cancel_jobs()
    return rows


def cancel_jobs() -> None:
    for user in ("root", *JOB_USERS):
        run("scancel", f"--user={user}", check=False)


def main(load_file, sizes: list[tuple[int, int]], runs: int) -> None:
    if not os.environ.get("FSCLI_LIVE_SLURM") or not os.environ.get("SLURM_CONF"):
        raise SystemExit("no live Slurm: start one with `tests/live/slurm up DIR --jobs`")
    print(
        f"real Slurm 22.05.8 and fscli, side by side (medians of {runs} interleaved rounds; "
        f"cold: first command after a write; sprio: {PENDING} pending jobs)"
    )
    for accounts, users in sizes:
        print(f"{accounts} accounts / {users} users:", flush=True)
        rows = measure_size(load_file(accounts, users), accounts, users, runs)
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        print(
            "| command | size | Slurm s | fscli cold s | fscli warm s | ratio cold | ratio warm |"
        )
        print("|---|---|---|---|---|---|---|")
        for name, accounts, users, slurm, cold, warm in rows:
            print(
                f"| {name} | {accounts} / {users} | {slurm:.3f} | {cold:.3f} | {warm:.3f} "
                f"| {slurm / cold:.2f} | {slurm / warm:.2f} |",
                flush=True,
            )
