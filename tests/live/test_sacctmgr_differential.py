"""``fscli sacctmgr`` against the real sacctmgr, call by call, on generated sequences.

Each seed is a sequence of :data:`LENGTH` calls (``tests/live/generate.py``) run on a fresh
live cluster and on a fresh fscli store; exit codes, stdout and stderr must be equal at
every call, and the clusters' dumps at the end. A difference fails with the shortest
sequence that still shows it. ``FSCLI_LIVE_SEEDS`` sets how many seeds run (80 by default,
2,000 calls); :data:`ONCE_FAILED` keeps the seeds that once found a difference.
"""

from __future__ import annotations

import os

import pytest

from tests.live.differential import first_difference, shortest
from tests.live.generate import sequence

LENGTH = 25
SEEDS = int(os.environ.get("FSCLI_LIVE_SEEDS", "80"))
FIRST_SEED = int(os.environ.get("FSCLI_LIVE_FIRST_SEED", "0"))
ONCE_FAILED: list[int] = [87, 92, 97, 109, 117, 126, 133, 140, 154]
KNOWN_DIFFERENT: dict[int, str] = {}
"""Seeds whose sequence still differs from sacctmgr, with the call where it first does:
each one is work left (the issue's note lists them). Such a seed is an expected failure
while it differs, and an unexpected pass (reported, not failed) once fixed: then take it
out of here. A seed not listed must match."""
SHRUNK_AT_MOST = 3
"""Failing seeds whose sequence is shortened (each costs up to 40 more sequences); the
others report their first differing call as it stands."""
RAN: list[int] = []
FAILED: list[int] = []


@pytest.mark.parametrize("seed", sorted({*ONCE_FAILED, *range(FIRST_SEED, FIRST_SEED + SEEDS)}))
def test_sequence_answers_as_sacctmgr(live_slurm, seed):
    RAN.append(seed)
    calls = sequence(seed, LENGTH)
    difference = first_difference(calls)
    if difference is None:
        return
    if seed in KNOWN_DIFFERENT:
        pytest.xfail(f"known difference at call {difference.index + 1}: {difference.call}")
    FAILED.append(seed)
    if len(FAILED) <= SHRUNK_AT_MOST:
        calls, difference = shortest(calls)
    pytest.fail(f"seed {seed}: " + difference.describe(calls), pytrace=False)
