"""The 78 real sacctmgr 22.05 calls of the golden capture, replayed through ``fscli sacctmgr``.

Calls 1-71 run in order on one store set up as the capture's cluster was (cluster
``oracle`` with the root user, QOS qlow/qmed/qhigh at priorities 10/50/100, partitions
low and high); calls 72-78 load the dump of call 70 into a fresh store, as the capture
did. Every exit code and every stdout byte is compared, and stderr too, with these
stated differences, each for a reason outside sacctmgr's grammar:

- stdout: fscli runs no slurmctld, so ``show cluster`` has no controller host, port and
  RPC version (call 50); fscli's dump/load round trip keeps memory exact where Slurm's
  loses it (``mem=62.50G`` is written ``64000M`` and read back as 62.50G, not 62M: calls
  72, 74, 76), as spec/sacctmgr.md requires; association IDs after the add discarded in
  call 09 are one lower (MySQL spends an id on a rolled-back insert, SQLite reuses it:
  the ID column of call 40).
- stderr: the dump echo (70, 71) shows fscli's ``64000M`` for Slurm's ``62.50G``, Slurm's
  error about reading ``62.50G`` back (72, 75, 76) has no cause here, and the load's
  timing (``usec=``) is whatever it is.
"""

from __future__ import annotations

import csv
import re
import shlex
from pathlib import Path

import pytest

from tests.conftest import DATA, Fscli

GOLDEN = DATA / "golden" / "slurm-22.05" / "sacctmgr_messages"
CALLS = list(csv.DictReader((GOLDEN / "index.csv").open()))
FRESH_STORE_FROM = 72

# (call, golden text, what fscli prints instead) -- see the module docstring.
STDOUT_DIFFERENCES = {
    50: [("oracle|127.0.0.1|16817|9728|", "oracle||0|0|")],
    72: [
        (
            "cpu=32,mem=6+      10                    62 ",
            "cpu=32,mem=6+      10                 64000 ",
        )
    ],
    74: [("cpu=32,mem=62M", "cpu=32,mem=62.50G")],
    76: [
        (
            "cpu=32,mem=6+      10                    62 ",
            "cpu=32,mem=6+      10                 64000 ",
        )
    ],
}
UNREADABLE = "sacctmgr: error: Invalid unit type '.'. Possible options are 'KMGTP'\n"
STDERR_DIFFERENCES = {
    70: [("mem=62.50G", "mem=64000M")],
    71: [("mem=62.50G", "mem=64000M")],
    72: [(UNREADABLE, "")],
    75: [(UNREADABLE, "")],
    76: [(UNREADABLE, "")],
}
DISCARDED_ID = 9  # the association id the add answered "n" (call 09) spent in MySQL


def sqlite_ids(text: str) -> str:
    """Call 40's ``-P`` listing with the ids SQLite gives: one lower after the spent one."""
    lines = text.splitlines(keepends=True)
    column = lines[0].split("|").index("ID")
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split("|")
        if int(cells[column]) > DISCARDED_ID:
            cells[column] = str(int(cells[column]) - 1)
        out.append("|".join(cells))
    return "".join(out)


def prepared(path: Path) -> Fscli:
    """A store like the capture's fresh cluster."""
    fscli = Fscli(str(path))
    fscli.ok("cluster", "add", "oracle")
    fscli.ok("user", "add", "root", "account=root", "adminlevel=Administrator")
    for name, priority in (("qlow", 10), ("qmed", 50), ("qhigh", 100)):
        fscli.ok("qos", "add", name, f"priority={priority}")
    for name, factor in (("low", 10), ("high", 100)):
        fscli.ok("partition", "add", name, f"priorityjobfactor={factor}")
    return fscli


def argv_and_input(command: str, rundir: Path) -> tuple[list[str], str | None]:
    line, _, answer = command.replace("$RUNDIR", str(rundir)).partition(" <<< ")
    words = shlex.split(line)
    assert words[0] == "sacctmgr"
    return ["sacctmgr", *words[1:]], (answer + "\n" if answer else None)


def expected(call: dict, stream: str) -> str:
    return (GOLDEN / f"{int(call['n']):02d}_{call['label']}.{stream}").read_text()


@pytest.fixture(scope="module")
def replay(tmp_path_factory) -> list[tuple[dict, object]]:
    """Every call's result, run once in order."""
    rundir = tmp_path_factory.mktemp("rundir")
    (rundir / "bad.cfg").write_text((GOLDEN / "load_bad_file.cfg").read_text())
    fscli = prepared(rundir / "store.db")
    results = []
    for call in CALLS:
        if int(call["n"]) == FRESH_STORE_FROM:
            fscli = prepared(rundir / "fresh.db")
        argv, answer = argv_and_input(
            (GOLDEN / f"{int(call['n']):02d}_{call['label']}.cmd").read_text().strip(), rundir
        )
        results.append((call, fscli(*argv, input=answer)))
    return results


@pytest.mark.parametrize("index", range(len(CALLS)), ids=[c["label"] for c in CALLS])
def test_call_matches_sacctmgr(replay, index):
    call, result = replay[index]
    n = int(call["n"])
    assert result.exit_code == int(call["rc"]), (n, result.stdout, result.stderr)
    want = expected(call, "stdout").replace("$RUNDIR", "")
    for golden, ours in STDOUT_DIFFERENCES.get(n, []):
        assert golden in want
        want = want.replace(golden, ours)
    if n == 40:
        want = sqlite_ids(want)
    assert result.stdout == want, n
    want = expected(call, "stderr")
    for golden, ours in STDERR_DIFFERENCES.get(n, []):
        assert golden in want
        want = want.replace(golden, ours)
    assert _no_rundir(result.stderr) == _any_usec(want), n


def _no_rundir(text: str) -> str:
    """Temporary paths as the capture wrote them, and the load's timing as ``usec=N``."""
    return _any_usec(re.sub(r"/\S*/rundir\d*", "$RUNDIR", text))


def _any_usec(text: str) -> str:
    return re.sub(r"usec=\d+", "usec=N", text)
