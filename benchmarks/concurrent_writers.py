"""Commands per second with 8 admins writing at once, on SQLite and on each server.

8 worker processes each run 200 mixed add/modify/usage-add commands (one transaction each)
against one store; the final store is compared with the serial run of the same commands.

    python benchmarks/concurrent_writers.py [--workers 8] [--commands 200]

Servers come from FSCLI_TEST_POSTGRES_URL / FSCLI_TEST_MYSQL_URL (``.ci/servers start DIR``
prints them); their databases are wiped first. Run from the repository root.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.backends import URL_VARS
from tests.store.writers import run, setup_commands, state, worker_commands


def wipe(url: str) -> None:
    from sqlalchemy import MetaData, create_engine

    engine = create_engine(url)
    with engine.begin() as conn:
        meta = MetaData()
        meta.reflect(conn)
        meta.drop_all(conn)
    engine.dispose()


def concurrent(db: str, workers: int, commands: int) -> tuple[float, list[str]]:
    assert run(db, setup_commands()) == []
    began = time.perf_counter()
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.store.writers", "worker", db, str(w), str(commands)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(workers)
    ]
    failures = []
    for w, proc in enumerate(procs):
        out, err = proc.communicate()
        failures += out.splitlines()
        if proc.returncode and err.strip():  # a crash: its traceback ends in the exception
            failures.append(f"worker {w} crashed: {err.strip().splitlines()[-1]}")
    return time.perf_counter() - began, failures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--commands", type=int, default=200)
    args = parser.parse_args()
    os.environ.setdefault("TZ", "UTC")
    total = args.workers * args.commands

    with tempfile.TemporaryDirectory() as tmp:
        serial_db = str(Path(tmp) / "serial.db")
        assert run(serial_db, setup_commands()) == []
        began = time.perf_counter()
        for w in range(args.workers):
            assert run(serial_db, worker_commands(w, args.commands)) == []
        serial_time = time.perf_counter() - began
        expected = state(serial_db)
        print(
            f"serial (SQLite, one process): {total} commands in {serial_time:.1f} s "
            f"= {total / serial_time:.0f} commands/s"
        )

        backends = {"sqlite": str(Path(tmp) / "concurrent.db")}
        backends.update({b: os.environ[v] for b, v in URL_VARS.items() if os.environ.get(v)})
        for backend, db in backends.items():
            if backend != "sqlite":
                wipe(db)
            took, failures = concurrent(db, args.workers, args.commands)
            same = state(db) == expected
            print(
                f"{backend:10}: {args.workers} writers x {args.commands} commands in {took:.1f} s"
                f" = {total / took:.0f} commands/s; failures {len(failures)}; "
                f"final state {'equals' if same else 'DIFFERS FROM'} the serial run"
            )
            for line in failures[:5]:
                print("   ", line)


if __name__ == "__main__":
    main()
