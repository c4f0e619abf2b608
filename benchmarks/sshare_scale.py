"""sshare at scale: 10,000 accounts, 100,000 user associations with usage records.

Builds a synthetic store (schema from ``fscli cluster add``, rows by bulk inserts with
the sqlite3 module) in two layouts:

* ``ordered``: associations written tree by tree, each user's charges together, so that
  id order follows the tree and the names (what a generator writes);
* ``shuffled``: the same tree and charges, but user associations written in random order
  (ids unrelated to names and accounts) and charges in time order, as years of
  ``user add`` and ``usage import`` leave a real store. Reading the same data in an
  order unrelated to memory makes every pass slower (cache misses).

and prints for each:

* ``fscli sshare -a -P > /dev/null`` end to end (subprocess; target < 2 s),
* the engine part, one pass per fresh process as the command makes it: load_state
  (Core), usage_at (decay), fair-share compute (target for usage_at + compute < 0.2 s),
  and the ShareRow objects that sshare renders (built on first use, so not in compute;
  printed beside it),

then ``fscli sshare`` (rich table) on the demo store (target < 0.4 s).

Usage: python benchmarks/sshare_scale.py [RUNS]   (no asserts: it prints figures)

The machine is shared, so wall-clock times are noisy: every figure is the minimum over
the runs, with the CPU time (user + sys of the child, or of the pass in the child)
beside it; judge progress by CPU time.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import fscli_cmd, timed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

TOP, SUB, USERS_PER_ACCOUNT = 100, 99, 10  # 100 + 9,900 accounts; 100,000 user assocs
AT = 1_777_600_000
CHARGES_PER_USER = 2


def build(db: Path, shuffled: bool = False) -> tuple[int, int, int]:
    """The synthetic store (layouts: see the module docstring); returns (accounts, user
    associations, usage rows)."""
    subprocess.run([*fscli_cmd(), "--db", str(db), "-Q", "cluster", "add", "big"], check=True)
    rng = random.Random(42)
    con = sqlite3.connect(db)
    cid, root_id = con.execute(
        "SELECT cluster_id, id FROM association WHERE account='root'"
    ).fetchone()
    next_id = root_id + 1
    accounts, assocs, leaves = [], [], []
    for t in range(TOP):
        top_name, top_id = f"top{t:03d}", next_id
        next_id += 1
        accounts.append((top_name,))
        assocs.append((top_id, cid, top_name, None, root_id, rng.randint(1, 100)))
        for s in range(SUB):
            name = f"acct{t:03d}_{s:02d}"
            accounts.append((name,))
            assocs.append((next_id, cid, name, None, top_id, rng.randint(1, 100)))
            leaves.append((name, next_id))
            next_id += 1
    # 100 top accounts hold users too, so every account has USERS_PER_ACCOUNT users
    leaves += [(a[2], a[0]) for a in assocs if a[4] == root_id]
    users, usage = [], []
    user_ids = list(range(next_id, next_id + len(leaves) * USERS_PER_ACCOUNT))
    if shuffled:
        random.Random(7).shuffle(user_ids)
    for k, (account, parent_id) in enumerate(leaves):
        for u in range(USERS_PER_ACCOUNT):
            name = f"u{k:05d}_{u}"
            assoc_id = user_ids[k * USERS_PER_ACCOUNT + u]
            users.append((name, account))
            assocs.append((assoc_id, cid, account, name, parent_id, rng.randint(1, 10)))
            for _ in range(CHARGES_PER_USER):
                usage.append(
                    (assoc_id, AT - rng.randint(0, 14 * 86400), float(rng.randint(0, 10_000_000)))
                )
    if shuffled:
        assocs.sort()
        usage.sort(key=lambda charge: charge[1])
    with con:
        con.executemany(
            "INSERT INTO account (name, description, organization) VALUES (?, ?, ?)",
            [(a[0], a[0], "bench") for a in accounts],
        )
        con.executemany(
            "INSERT INTO user_account (name, admin_level) VALUES (?, 'None')",
            [(name,) for name, _ in users],
        )
        con.executemany(  # each user has one association: its default
            "INSERT INTO association (id, cluster_id, account, user, parent_id, "
            "shares_raw, shares_parent, qos, is_default) VALUES (?, ?, ?, ?, ?, ?, 0, 'normal', ?)",
            [(*a, a[3] is not None) for a in assocs],
        )
        con.executemany("INSERT INTO usage (assoc_id, at, amount) VALUES (?, ?, ?)", usage)
    con.close()
    return len(accounts), len(users), len(usage)


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def engine_once(db: str) -> None:
    """One pass as ``fscli sshare`` makes it, in this fresh process: print the (wall, CPU)
    seconds of each stage as JSON."""
    from fscli.api.store import Store
    from fscli.engine.cluster_state import usage_at
    from fscli.engine.fairshare import compute
    from fscli.heap import bulk
    from fscli.store.state import load_state

    t0 = _clock()
    with Store(db).viewing() as conn:  # the command's read path (plain sqlite3)
        state = load_state(conn, None, AT)
    t1 = _clock()
    usage = usage_at(state, AT)
    t2 = _clock()
    with bulk():  # as fscli.api.shares holds the collector off the engine's objects
        result = compute(state.assocs, usage, state.config.algorithm, state.config.dampening)
    t3 = _clock()
    with bulk():
        rows = result.rows  # built on first use: not an assert, which python -O would skip
    t4 = _clock()
    if len(rows) != len(state.assocs):
        raise SystemExit(f"{len(rows)} rows for {len(state.assocs)} associations")
    stages = ("load", "decay", "fs", "rows")
    print(
        json.dumps(
            {
                "charges": len(state.charges),
                "algorithm": state.config.algorithm,
                **{
                    name: (b[0] - a[0], b[1] - a[1])
                    for name, (a, b) in zip(stages, ((t0, t1), (t1, t2), (t2, t3), (t3, t4)))
                },
            }
        )
    )


def engine_part(db: Path, runs: int) -> None:
    """Minimum times of each stage (wall and CPU), each run in a fresh process.

    A fresh process, as the command has: a second pass in one process runs on a heap full
    of the holes the first pass's objects left, and its compute reads 15-25% slower
    (measured: 147-158 ms for the first pass against 172-190 ms for the next ones).
    """
    passes = [
        json.loads(
            subprocess.run(
                [sys.executable, __file__, "--engine-once", str(db)],
                check=True,
                text=True,
                stdout=subprocess.PIPE,
                env={**os.environ, "TZ": "UTC"},
            ).stdout
        )
        for _ in range(runs)
    ]
    best = {
        name: (min(p[name][0] for p in passes) * 1000, min(p[name][1] for p in passes) * 1000)
        for name in ("load", "decay", "fs", "rows")
    }
    engine = min((p["decay"][0] + p["fs"][0]) * 1000 for p in passes)
    engine_cpu = min((p["decay"][1] + p["fs"][1]) * 1000 for p in passes)
    line = "    {:<40} {:7.1f} ms wall, {:7.1f} ms CPU"
    print(line.format("load_state (rows -> dataclasses):", *best["load"]))
    print(line.format(f"usage_at (decay of {passes[0]['charges']:,} charges):", *best["decay"]))
    print(line.format(f"fair-share compute ({passes[0]['algorithm']}):", *best["fs"]))
    print(
        line.format("engine part (usage_at + compute):", engine, engine_cpu) + " (target < 200 ms)"
    )
    print(line.format("then sshare's ShareRow objects:", *best["rows"]))


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    cmd = fscli_cmd()
    with tempfile.TemporaryDirectory() as tmp:
        for layout in ("ordered", "shuffled"):
            big = Path(tmp) / f"{layout}.db"
            start = time.perf_counter()
            n_acc, n_users, n_usage = build(big, shuffled=layout == "shuffled")
            print(
                f"{layout}: built {n_acc:,} accounts, {n_users:,} user associations, "
                f"{n_usage:,} usage records in {time.perf_counter() - start:.1f} s"
            )
            wall, cpu = timed([*cmd, "--db", str(big), "--at", str(AT), "sshare", "-a", "-P"], runs)
            print(
                f"  fscli sshare -a -P > /dev/null: min {wall:.2f} s wall, {cpu:.2f} s CPU "
                f"over {runs} runs (target < 2 s)"
            )
            print("  engine, one pass per fresh process:")
            engine_part(big, runs)
        demo = Path(tmp) / "demo.db"
        env = dict(os.environ, COLUMNS="160")
        subprocess.run(
            [*cmd, "--db", str(demo), "-Q", "demo"], check=True, stdout=subprocess.DEVNULL, env=env
        )
        wall, cpu = timed([*cmd, "--db", str(demo), "--cluster", "demo", "sshare"], runs * 3)
        print(
            f"fscli sshare on the demo store: min {wall * 1000:.0f} ms wall, "
            f"{cpu * 1000:.0f} ms CPU over {runs * 3} runs (target < 400 ms)"
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--engine-once"]:
        engine_once(sys.argv[2])
    else:
        main()
