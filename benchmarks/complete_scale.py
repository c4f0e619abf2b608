"""Shell completion at scale: real TABs on a store with 100,000 associations.

Builds a synthetic store (schema from ``fscli cluster add``, rows by bulk inserts with
the sqlite3 module): 10,000 accounts, 50,000 users with two associations each, 1,000
QOS, 100 partitions, 10,000 pending jobs. Then runs Click's completion protocol
(``_FSCLI_COMPLETE=bash_complete``, ``COMP_WORDS``/``COMP_CWORD``; zsh's and fish's for
the last TABs) through a subprocess, exactly what a TAB in the shell does, and prints per
TAB the minimum wall time and the minimum CPU time (user+sys of the child) over several
runs. Target (issue 21): every TAB <= 40 ms.

Usage: python benchmarks/complete_scale.py [RUNS]   (no asserts: it prints figures)
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import child_cpu, fscli_cmd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

FIELDS = ["phys", "chem", "bio", "math", "geo", "astro", "eng", "med", "cs", "econ"]
PEOPLE = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
ACCOUNTS, USERS, QOS, PARTITIONS, JOBS = 10_000, 50_000, 1_000, 100, 10_000

# (what the user typed, the words after "fscli --db DB"[, shell]); the last word is being
# completed
TABS = [
    ("user add bob account=ph<TAB>", ["user", "add", "bob", "account=ph"]),
    ("user add bob account = ph<TAB> (bash split)", ["user", "add", "bob", "account", "=", "ph"]),
    ("account modify <TAB>", ["account", "modify", ""]),
    ("account modify phys01<TAB>", ["account", "modify", "phys01"]),
    ("user modify b<TAB>", ["user", "modify", "b"]),
    ("user modify bob0001<TAB>", ["user", "modify", "bob0001"]),
    ("user add x qos=normal,q00<TAB>", ["user", "add", "x", "qos=normal,q00"]),
    ("qos modify <TAB>", ["qos", "modify", ""]),
    ("partition delete p<TAB>", ["partition", "delete", "p"]),
    ("assoc list user=alice000<TAB>", ["assoc", "list", "user=alice000"]),
    ("<TAB> (zsh: the commands and their help)", [""], "zsh"),
    ("user modify bob0001<TAB> (zsh)", ["user", "modify", "bob0001"], "zsh"),
    ("user add bob account=ph<TAB> (fish)", ["user", "add", "bob", "account=ph"], "fish"),
]


def build(db: Path) -> int:
    """The synthetic store; returns the number of associations."""
    subprocess.run([*fscli_cmd(), "--db", str(db), "-Q", "cluster", "add", "big"], check=True)
    con = sqlite3.connect(db)
    cid, root_id = con.execute(
        "SELECT cluster_id, id FROM association WHERE account='root'"
    ).fetchone()
    accounts = [f"{FIELDS[i % len(FIELDS)]}{i:05d}" for i in range(ACCOUNTS)]
    users = [f"{PEOPLE[i % len(PEOPLE)]}{i:05d}" for i in range(USERS)]
    assocs = [(root_id + 1 + i, cid, name, None, root_id, False) for i, name in enumerate(accounts)]
    next_id = root_id + 1 + len(assocs)
    for i, name in enumerate(users):
        for k in range(2):
            index = (i * 7 + k * 3) % ACCOUNTS
            # a user's first association is its default
            assocs.append((next_id, cid, accounts[index], name, root_id + 1 + index, k == 0))
            next_id += 1
    jobs = [
        (
            10_000 + j,
            cid,
            assocs[ACCOUNTS + j][0],
            assocs[ACCOUNTS + j][3],
            "pending",
            1_777_000_000,
        )
        for j in range(JOBS)
    ]
    with con:
        con.executemany(
            "INSERT INTO account (name, description, organization) VALUES (?, ?, ?)",
            [(a, a, "bench") for a in accounts],
        )
        con.executemany(
            "INSERT INTO user_account (name, admin_level) VALUES (?, 'None')",
            [(u,) for u in users],
        )
        con.executemany(
            "INSERT INTO association (id, cluster_id, account, user, parent_id, "
            "shares_raw, shares_parent, qos, is_default) "
            "VALUES (?, ?, ?, ?, ?, 1, 0, 'normal', ?)",
            assocs,
        )
        con.executemany(
            "INSERT INTO qos (name, priority, usage_factor) VALUES (?, 0, 1.0)",
            [(f"q{i:04d}",) for i in range(QOS)],
        )
        con.executemany(
            "INSERT INTO partition (cluster_id, name, priority_job_factor, "
            "priority_tier) VALUES (?, ?, 1, 1)",
            [(cid, f"p{i:03d}") for i in range(PARTITIONS)],
        )
        con.executemany(
            "INSERT INTO job (id, cluster_id, assoc_id, user, state, submit, cpus, "
            "nodes, slots, nice, site_factor) VALUES (?, ?, ?, ?, ?, ?, 1, 1, 1, 0, 0)",
            jobs,
        )
    con.close()
    return len(assocs)


def tab(
    cmd: list[str], db: Path, words: list[str], runs: int, shell: str = "bash"
) -> tuple[float, float, int]:
    """(min wall s, min CPU s, number of candidates) of one TAB over ``runs`` runs."""
    line = ["fscli", "--db", str(db), *words]
    cword = line[-1] if shell == "fish" else str(len(line) - 1)  # fish: the word itself
    env = dict(
        os.environ,
        _FSCLI_COMPLETE=f"{shell}_complete",
        COMP_WORDS=" ".join(line),
        COMP_CWORD=cword,
        PYTHONPYCACHEPREFIX=str(db.parent / "pycache"),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed fscli has its bytecode compiled
    subprocess.run(cmd, env=env, check=True, capture_output=True)  # warm: bytecode, disk cache
    walls, cpus, count = [], [], 0
    for _ in range(runs):
        cpu, start = child_cpu(), time.perf_counter()
        done = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
        walls.append(time.perf_counter() - start)
        cpus.append(child_cpu() - cpu)
        count = len(done.stdout.splitlines()) // (3 if shell == "zsh" else 1)
    return min(walls), min(cpus), count


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    cmd = fscli_cmd()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "big.db"
        start = time.perf_counter()
        assocs = build(db)
        print(
            f"built {ACCOUNTS:,} accounts, {USERS:,} users, {assocs:,} associations, "
            f"{QOS:,} QOS, {PARTITIONS} partitions, {JOBS:,} jobs "
            f"in {time.perf_counter() - start:.1f} s"
        )
        print(f"{'TAB':<46} {'wall':>8} {'cpu':>8} {'answers':>8}   (min of {runs} runs)")
        for label, words, *shell in TABS:
            wall, cpu, count = tab(cmd, db, words, runs, *shell)
            print(f"{label:<46} {wall * 1000:6.0f}ms {cpu * 1000:6.0f}ms {count:8,}")
        print("target: every TAB <= 40 ms")


if __name__ == "__main__":
    main()
