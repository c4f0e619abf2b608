"""Run sacctmgr command sequences through the real sacctmgr and ``fscli sacctmgr``, call by call.

The real side is the live slurmdbd that ``tests/live/slurm up`` started (``SLURM_CONF`` in the
environment), put back to a fresh cluster before each sequence; the fscli side is a new store
given the same first command (``add cluster live``). Each call's exit code, stdout and stderr
are compared after :func:`normalise` (time stamps and the load's timing, which differ by
nature), and the ``sacctmgr dump`` of the cluster at the end.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
CLUSTER = "live"
SETUP = "sacctmgr -i add cluster live"


@dataclass(frozen=True)
class Answer:
    """What one call printed and returned."""

    rc: int
    stdout: str
    stderr: str


@dataclass(frozen=True)
class Difference:
    """The first call of a sequence whose answers differ."""

    index: int
    call: str
    real: Answer
    fscli: Answer

    def describe(self, calls: list[str]) -> str:
        lines = [f"call {self.index + 1} of {len(calls)} differs: {self.call}", "sequence:"]
        lines += [f"  {c}" for c in calls]
        for name, side in (("real sacctmgr", self.real), ("fscli sacctmgr", self.fscli)):
            lines.append(f"--- {name}: rc {side.rc}")
            lines.append("stdout:\n" + side.stdout)
            lines.append("stderr:\n" + side.stderr)
        return "\n".join(lines)


TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
USEC = re.compile(r"usec=\d+")


def normalise(text: str, rundir: str) -> str:
    """Moments and the load's timing as placeholders; the run's folder as ``$RUNDIR``."""
    text = text.replace(rundir, "$RUNDIR")
    return USEC.sub("usec=N", TIMESTAMP.sub("YYYY-MM-DDTHH:MM:SS", text))


def split(call: str) -> tuple[list[str], str | None]:
    """A call's words after ``sacctmgr`` and what it reads on stdin (``<<< answer``)."""
    line, _, answer = call.partition(" <<< ")
    words = shlex.split(line)
    assert words[0] == "sacctmgr", call
    return words[1:], (answer + "\n" if answer else None)


def reset_real() -> None:
    """The live accounting database back to the fresh cluster."""
    subprocess.run(
        [str(HERE / "slurm"), "reset", os.environ["FSCLI_LIVE_SLURM"]],
        check=True,
        capture_output=True,
    )


def run_real(call: str, rundir: str) -> Answer:
    words, answer = split(call.replace("$RUNDIR", rundir))
    done = subprocess.run(
        ["sacctmgr", *words],
        input=answer or "",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=rundir,
    )
    return Answer(done.returncode, done.stdout, done.stderr)


class Mirror:
    """``fscli sacctmgr`` on a store of its own, in this process (CliRunner)."""

    def __init__(self, db: str, rundir: str):
        from click.testing import CliRunner

        self.db = db
        self.rundir = rundir
        self.runner = CliRunner()

    def __call__(self, call: str) -> Answer:
        from fscli.cli.main import cli

        words, answer = split(call.replace("$RUNDIR", self.rundir))
        result = self.runner.invoke(cli, ["--db", self.db, "sacctmgr", *words], input=answer)
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return Answer(result.exit_code, result.stdout, result.stderr)


def first_difference(calls: list[str]) -> Difference | None:
    """Run ``calls`` on both sides from a fresh cluster; the first that differs, if any.
    A final ``dump`` of the cluster on each side is compared as one more call."""
    return next(differences(calls), None)


def differences(calls: list[str]) -> Iterator[Difference]:
    """Every call whose answers differ, running on after each (the two sides may have
    parted ways by then: the first is the one to trust)."""
    reset_real()
    with tempfile.TemporaryDirectory(prefix="fscli-diff-") as rundir:
        os.chmod(rundir, 0o755)
        mirror = Mirror(os.path.join(rundir, "store.db"), rundir)
        mirror(SETUP)
        for index, call in enumerate([*calls, f"sacctmgr -i dump {CLUSTER} file=$RUNDIR/x.cfg"]):
            if call.startswith("sacctmgr -i dump"):
                real, ours = _dumps(rundir, mirror)
            else:
                real = _normal(run_real(call, rundir), rundir)
                ours = _normal(mirror(call), rundir)
            if real != ours:
                yield Difference(index, call, real, ours)


def _dumps(rundir: str, mirror: Mirror) -> tuple[Answer, Answer]:
    real_file = f"{rundir}/real.cfg"
    ours_file = f"{rundir}/ours.cfg"
    real = run_real(f"sacctmgr -i dump {CLUSTER} file={real_file}", rundir)
    ours = mirror(f"sacctmgr -i dump {CLUSTER} file={ours_file}")
    text = {p: Path(p).read_text() if Path(p).exists() else "" for p in (real_file, ours_file)}
    return (
        Answer(real.rc, text[real_file], ""),
        Answer(ours.rc, text[ours_file], ""),
    )


def _normal(answer: Answer, rundir: str) -> Answer:
    return Answer(answer.rc, normalise(answer.stdout, rundir), normalise(answer.stderr, rundir))


def shortest(calls: list[str], budget: int = 40) -> tuple[list[str], Difference]:
    """A shorter sequence that still differs: calls dropped one at a time (from the end
    backwards, after the differing call is made the last), while the difference stays."""
    found = first_difference(calls)
    assert found is not None
    calls = calls[: found.index + 1]
    best = found
    i = len(calls) - 2
    while i >= 0 and budget > 0:
        trial = calls[:i] + calls[i + 1 :]
        budget -= 1
        again = first_difference(trial)
        if again is not None:
            calls, best = trial[: again.index + 1], again
            i = min(i, len(calls) - 1)
        i -= 1
    return calls, best
