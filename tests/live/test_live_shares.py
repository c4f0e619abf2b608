"""Real sshare and sprio against fscli's, on one scenario run on the live cluster.

A tree is built with sacctmgr (accounts shx, shy, shz under shy, users alice..erin, one
with FairShare=2), real jobs run (a short one that leaves usage, a 64-CPU blocker, four
jobs left pending behind it in the three partitions, with a nice value), and after the
next priority pass (PriorityCalcPeriod=1: at most a minute) everything is read in one go:
``sshare -a -l -P``, ``sshare -a`` (fixed width), ``sprio -l``, the jobs' normalized age
(to pin the pass's moment), ``squeue``, ``sacctmgr dump`` and the controller's usage
(``scontrol show assoc_mgr``, two decimals). fscli gets the same tree (``load``), slurm.conf
(``config import``), partitions, usage (``usage import --format sshare``) and pending
jobs (``job import``), and answers at ``--at`` the pass's moment through the shims'
commands (``slurm-sshare``, ``slurm-sprio``).

What is compared, and the tolerances (each as narrow as the reads allow):

* ``sprio -l``: byte for byte.
* ``sshare -a -l -P``: every column byte for byte but NormUsage and EffectvUsage (within
  2e-6) and LevelFS (within a relative 0.01/RawUsage of its row, plus 1e-6), which come
  from the usage: the controller prints its usage with two decimals only, so fscli's usage
  is off by up to 0.005 of a CPU-second (see ``_tolerance``). TRESRunMins
  is left out: fscli imports the pending jobs only (the running blocker's usage is in the
  imported RawUsage already), so it holds no running job's minutes.
* ``sshare -a`` fixed width, the columns that do not come from the usage's decimals
  (``-o Account,User,RawShares,NormShares,RawUsage,FairShare``): byte for byte.

The fixture skips when no live cluster runs, or when it runs without slurmctld (``tests/
live/slurm up DIR --jobs``). The whole file takes about 1.5 minutes.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import Fscli
from tests.live.conftest import held_jobs_cluster

ACCOUNTS = [("shx", "root", 30), ("shy", "root", 70), ("shz", "shy", 5)]
USERS = [("alice", "shx", 1), ("bob", "shx", 1), ("carl", "shy", 1), ("dana", "shz", 1)]
USERS += [("erin", "shz", 2)]
PENDING = [  # user, account, partition, cpus, nice
    ("bob", "shx", "high", 4, 50),
    ("dana", "shz", "low,high", 2, 0),
    ("erin", "shz", "batch", 32, 0),
    ("alice", "shx", "low", 8, 0),
]
SQUEUE = (
    "JobID:0|,UserName:0|,Account:0|,Partition:0|,QOS:0|,State:0|,SubmitTime:0|,"
    "StartTime:0|,TimeLimit:0|,NumNodes:0|,NumCPUs:0|,MinMemory:0|,tres-per-node:0|,"
    "Nice:0|,tres-alloc:0"
)
MAX_AGE = 7 * 86400  # PriorityMaxAge=7-0 of tests/live/slurm's slurm.conf
FROM_USAGE = ("NormUsage", "EffectvUsage", "LevelFS")
USAGE_TOLERANCE = 2e-6


def run(*argv: str, user: str | None = None, check: bool = True) -> str:
    if user is not None:
        argv = ("runuser", "-u", user, "--", "env", f"SLURM_CONF={os.environ['SLURM_CONF']}", *argv)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(argv)}: {done.returncode} {done.stderr}")
    return done.stdout


def sbatch(user: str, account: str, partition: str, cpus: int, *extra: str) -> str:
    argv = ["sbatch", "--parsable", "-A", account, "-p", partition, "-n", str(cpus)]
    argv += ["-o", "/dev/null", *extra]
    for attempt in range(3):  # slurmctld may not know a new association yet
        done = subprocess.run(
            ["runuser", "-u", user, "--", "env", f"SLURM_CONF={os.environ['SLURM_CONF']}"] + argv,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode == 0:
            return done.stdout.strip().split(";")[0]
        run("scontrol", "reconfigure", check=False)
        time.sleep(2 + attempt)
    raise AssertionError(f"sbatch as {user}: {done.stderr}")


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    with held_jobs_cluster() as jobs:
        yield _run_scenario(tmp_path_factory.mktemp("live-shares"), jobs)


def _run_scenario(tmp: Path, jobs: list[str]) -> dict:
    for account, parent, share in ACCOUNTS:
        run(
            "sacctmgr",
            "-i",
            "add",
            "account",
            account,
            f"parent={parent}",
            f"fairshare={share}",
            check=False,
        )
    for user, account, share in USERS:
        run(
            "sacctmgr",
            "-i",
            "add",
            "user",
            user,
            f"account={account}",
            f"fairshare={share}",
            check=False,
        )
    run("scontrol", "reconfigure")
    jobs.append(sbatch("alice", "shx", "batch", 16, "--mem=1000", "--wrap", "sleep 8"))
    blocker = sbatch("carl", "shy", "batch", 64, "--wrap", "sleep 300")
    jobs.append(blocker)
    _wait(lambda: run("squeue", "-h", "-j", blocker, "-o", "%T").strip() == "RUNNING", 60)
    pending = []
    for user, account, partition, cpus, nice in PENDING:
        pending.append(
            sbatch(user, account, partition, cpus, f"--nice={nice}", "--wrap", "sleep 1")
        )
    jobs.extend(pending)

    def aged() -> bool:  # a pass has run since the pending jobs came: their age is > 0
        lines = run("sprio", "-h", "-n", "-o", "%i|%a").split()
        ages = {i: float(a) for i, a in (line.split("|") for line in lines)}
        return all(ages.get(j, 0.0) > 0 for j in pending)

    _wait(aged, 75)
    for _ in range(3):  # a pass between the reads changes usage: read again
        taken = _read(tmp)
        taken["read_at"] = _now()  # within the pass the reads saw
        if run("sshare", "-a", "-l", "-P") == taken["sshare_l_P"]:
            break
    else:
        raise AssertionError("a priority pass ran during every read")
    taken["at"] = taken["pass"] = _pass_moment(taken, pending)
    taken["fscli"] = mirror(tmp, taken)
    return taken


def _now() -> str:
    """This second, as squeue prints its times (TZ is the tests' own)."""
    from datetime import datetime

    return datetime.now().replace(microsecond=0).isoformat()


def _wait(ready, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > end:
            raise AssertionError(f"the live cluster was not ready within {seconds} s")
        time.sleep(1)


def _read(tmp: Path) -> dict:
    dump = tmp / "live.cfg"
    dump.unlink(missing_ok=True)
    run("sacctmgr", "dump", "live", f"file={dump}")
    return {
        "sshare_l_P": run("sshare", "-a", "-l", "-P"),
        "sshare_fixed": run(
            "sshare", "-a", "-o", "Account,User,RawShares,NormShares,RawUsage,FairShare"
        ),
        "sprio_l": run("sprio", "-l"),
        "age": run("sprio", "-h", "-n", "-o", "%i|%a"),
        "squeue": run("squeue", "-h", "-O", SQUEUE),
        "assoc_mgr": run("scontrol", "show", "assoc_mgr", "flags=assoc"),
        "dump": dump.read_text(),
    }


def _pass_moment(taken: dict, pending: list[str]) -> str:
    """The last pass's moment: a pending job's submit time plus the age sprio shows
    (normalized, 7 decimals of PriorityMaxAge: 0.06 s)."""
    from datetime import datetime, timedelta

    submit = {line.split("|")[0]: line.split("|")[6] for line in taken["squeue"].splitlines()}
    ages = dict(line.split("|") for line in taken["age"].split())
    job = pending[0]
    moment = datetime.fromisoformat(submit[job]) + timedelta(seconds=float(ages[job]) * MAX_AGE)
    return (moment + timedelta(seconds=0.5)).replace(microsecond=0).isoformat()


def _usage_file(assoc_mgr: str) -> str:
    """``Account|User|RawUsage`` rows of the users' usage, with the controller's decimals."""
    rows = ["Account|User|RawUsage"]
    for head, usage in re.findall(
        r"^(ClusterName=.*)\n\s+SharesRaw.*\n\s+UsageRaw/Norm/Efctv=([0-9.]+)/", assoc_mgr, re.M
    ):
        fields = dict(word.split("=", 1) for word in head.split())
        user = fields["UserName"].split("(")[0]
        if user:
            rows.append(f"{fields['Account']}|{user}|{usage}")
    return "\n".join(rows) + "\n"


def mirror(tmp: Path, taken: dict, memory: bool = False, pending_only: bool = True) -> Fscli:
    """A store holding what ``taken`` read off the cluster: the dump, slurm.conf, the
    partitions, the controller's usage and squeue's jobs (the pending ones only, or all
    with ``pending_only=False``), its passes anchored at ``taken["pass"]`` when the
    scenario knows one; ``memory`` gives the cluster its node's 64000 MB."""
    fscli = Fscli(str(tmp / "store.db"))
    at = taken["at"]
    (tmp / "live.cfg").write_text(taken["dump"])
    size = ["nodes=1", "cpus=64"] + (["tres=mem=64000"] if memory else [])
    fscli.ok("-Q", "cluster", "add", "live", *size)
    fscli.ok("-Q", "load", str(tmp / "live.cfg"))
    fscli.ok("-Q", "config", "import", os.environ["SLURM_CONF"])
    if "pass" in taken:  # the controller's passes fall every PriorityCalcPeriod from its
        # start, not on the minute: the one the scenario saw anchors fscli's
        fscli.ok("-Q", "config", "set", f"PriorityCalcAnchor={taken['pass']}")
    for name, factor in (("batch", 1), ("low", 1), ("high", 10)):
        fscli.ok(
            "-Q", "partition", "add", name, "nodes=1", "cpus=64", "tres=mem=64000",
            f"priorityjobfactor={factor}",
        )  # fmt: skip
    (tmp / "usage.txt").write_text(_usage_file(taken["assoc_mgr"]))
    # slurmctld's assoc_mgr may still hold an earlier scenario's associations that a
    # `slurm reset` took out of slurmdbd: only this scenario's are the test's
    usage = ("usage", "import", str(tmp / "usage.txt"), "--format", "sshare", "--skip-unknown")
    fscli.ok("-Q", *usage, at=at)
    lines = taken["squeue"].splitlines()
    if pending_only:
        lines = [line for line in lines if line.split("|")[5] == "PENDING"]
    (tmp / "jobs.txt").write_text("\n".join(lines) + "\n")
    fscli.ok("-Q", "job", "import", str(tmp / "jobs.txt"), at=at)
    return fscli


def _table(text: str) -> list[dict[str, str]]:
    lines = text.splitlines()
    head = lines[0].split("|")
    return [dict(zip(head, line.split("|"))) for line in lines[1:]]


def _tolerance(column: str, row: dict[str, str]) -> float:
    """How far a usage column may be off: the controller's usage has two decimals (0.005
    of a CPU-second off at most, in the row and in the totals it is divided by). NormUsage
    and EffectvUsage: 2e-6. LevelFS (NormShares / EffectvUsage, large where the usage is
    small): relative 0.01 / RawUsage of the row, plus 1e-6 for the printed decimals."""
    if column != "LevelFS":
        return USAGE_TOLERANCE
    return abs(float(row[column])) * 0.01 / max(float(row["RawUsage"]), 1.0) + 1e-6


def test_sprio_long_is_real_sprios(scenario):
    """At the pass, and when the cluster printed it (later in the same pass): the
    controller's factors, as fscli's, are those it set at the pass."""
    fscli = scenario["fscli"]
    for at in (scenario["at"], scenario["read_at"]):
        assert fscli.ok("slurm-sprio", "-l", at=at).stdout == scenario["sprio_l"], at


def test_sshare_long_parsable_is_real_sshares(scenario):
    got = scenario["fscli"].ok("slurm-sshare", "-a", "-l", "-P", at=scenario["at"]).stdout
    want = scenario["sshare_l_P"]
    assert got.splitlines()[0] == want.splitlines()[0]
    got_rows, want_rows = _table(got), _table(want)
    assert [(r["Account"], r["User"]) for r in got_rows] == [
        (r["Account"], r["User"]) for r in want_rows
    ]
    for g, w in zip(got_rows, want_rows):
        for column in w:
            if column == "TRESRunMins":
                continue
            if column in FROM_USAGE and w[column] not in ("", "inf"):
                assert abs(float(g[column]) - float(w[column])) <= _tolerance(column, w), (
                    column,
                    g,
                    w,
                )
            else:
                assert g[column] == w[column], (column, g, w)


def test_sshare_fixed_width_is_real_sshares(scenario):
    got = scenario["fscli"].ok(
        "slurm-sshare", "-a", "-o", "Account,User,RawShares,NormShares,RawUsage,FairShare",
        at=scenario["at"],
    ).stdout  # fmt: skip
    assert got == scenario["sshare_fixed"]
