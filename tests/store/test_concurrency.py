"""Eight admins writing to one store at once lose nothing and wait instead of failing.

Each backend gets 8 worker processes running mixed add/modify/usage commands; the final
store must equal the serial run of the same commands (taken on SQLite, so the backends
are also checked against each other). A short version of ``benchmarks/concurrent_writers.py``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.backends import EVERY_BACKEND, once, store_for
from tests.store.writers import run, setup_commands, state, worker_commands

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 8
COMMANDS = 12  # per worker: two rounds of the six kinds of command

pytestmark = [pytest.mark.slow, once]  # 8 processes at once


@pytest.fixture(scope="module")
def serial_state(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("serial") / "store.db")
    assert run(db, setup_commands()) == []
    for worker in range(WORKERS):
        assert run(db, worker_commands(worker, COMMANDS)) == []
    return state(db)


@pytest.mark.parametrize("backend", EVERY_BACKEND)
def test_concurrent_writers_equal_the_serial_run(backend, tmp_path, serial_state):
    db = store_for(backend, tmp_path / "store.db")
    assert run(db, setup_commands()) == []
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.store.writers", "worker", db, str(w), str(COMMANDS)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(WORKERS)
    ]
    outcomes = [(p.wait(timeout=600), *p.communicate()) for p in procs]
    assert [o for o in outcomes if o[0] != 0] == []  # no "database is locked", no failure
    got = state(db)
    assert got["history"] == [str(2 + WORKERS * COMMANDS)]
    assert got == serial_state
