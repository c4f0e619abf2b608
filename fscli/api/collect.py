"""``fscli collect DIR``: save what a live cluster's own tools print, for ``import slurm``.

Run on a node of the cluster (as root or a Slurm administrator, so that sacct and sshare
see every user). Each command's standard output goes to a file named after the command
without its option values (``sshare -a -l -P`` -> ``sshare_a_l_P.txt``, ``sacctmgr -P show
qos format=...`` -> ``sacctmgr_show_qos.txt``); ``collect.json`` records the moment, the
version (``sacctmgr --version``), the cluster name, the host, the moment of slurmctld's
last priority pass, and each command's exit status and error text. A missing tool or a
failing command is recorded there, not fatal: ``import slurm`` imports what was saved.

The tools run with ``TZ=UTC`` and ``SLURM_TIME_FORMAT`` giving the offset, so the times in
the files mean the same on any machine that imports them. The priority pass that ran
last is read from slurmctld's state file ``priority_last_decay_ran`` (two packed 64-bit
times: last pass, last reset) where the state directory is readable; the commands are run
again (up to three times) when a pass ran while they ran, so that every file shows one
pass's numbers.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from fscli.io.capture import CONFIG, DUMP, JOBS, META, NODES, PARTITIONS, SACCT

TIME_FORMAT = "%Y-%m-%dT%H:%M:%S%z"
TIMEOUT = 300  # seconds a command may take (sacct over a long history is the slowest)
ATTEMPTS = 3

ASSOC_FIELDS = {  # sacctmgr show assoc format=: 23.11 replaced Lft/Rgt by Lineage
    "old": "Cluster,Account,User,Partition,ParentID,ParentName,ID,LFT,RGT,Fairshare,"
    "Priority,DefaultQOS,QOS,GrpJobs,GrpJobsAccrue,GrpSubmitJobs,GrpTRES,GrpTRESMins,"
    "GrpTRESRunMins,GrpWall,MaxJobs,MaxJobsAccrue,MaxSubmitJobs,MaxTRES,MaxTRESPerNode,"
    "MaxTRESMins,MaxTRESRunMins,MaxWall",
    "new": "Cluster,Account,User,Partition,ParentID,ParentName,ID,Lineage,Fairshare,"
    "Priority,DefaultQOS,QOS,GrpJobs,GrpJobsAccrue,GrpSubmitJobs,GrpTRES,GrpTRESMins,"
    "GrpTRESRunMins,GrpWall,MaxJobs,MaxJobsAccrue,MaxSubmitJobs,MaxTRES,MaxTRESPerNode,"
    "MaxTRESMins,MaxTRESRunMins,MaxWall",
}
QOS_FIELDS = (
    "Name,ID,Description,Flags,GraceTime,GrpJobs,GrpJobsAccrue,GrpSubmitJobs,GrpTRES,"
    "GrpTRESMins,GrpTRESRunMins,GrpWall,LimitFactor,MaxJobsAccruePA,MaxJobsAccruePU,"
    "MaxJobsPA,MaxJobsPU,MaxSubmitJobsPA,MaxSubmitJobsPU,MaxTRES,MaxTRESMins,MaxTRESPA,"
    "MaxTRESPerNode,MaxTRESPU,MaxTRESRunMinsPA,MaxTRESRunMinsPU,MaxWall,MinPrioThreshold,"
    "MinTRES,Preempt,PreemptExemptTime,PreemptMode,Priority,UsageFactor,UsageThreshold"
)
SACCT_FIELDS = (
    "JobID,User,Account,Partition,QOS,State,Submit,Start,End,ElapsedRaw,TimelimitRaw,"
    "AllocCPUS,AllocTRES"
)


@dataclass
class Collected:
    """What a collect saved: the folder, ``collect.json``'s content, and one line per
    command that failed or whose tool is missing."""

    folder: Path
    meta: dict
    problems: list[str] = field(default_factory=list)


def commands(version: str, start: str) -> list[tuple[str, list[str]]]:
    """(file, command) of what a collect runs (``sacctmgr dump`` and ``scontrol show
    config`` aside: they come first), fields chosen by ``version`` (``sacctmgr
    --version``'s ``22.05.8``). A file is named after its command without option values
    (``sshare -a -l -P`` -> ``sshare_a_l_P.txt``)."""
    lineage = _at_least(version, (23, 11))
    assoc = "format=" + ASSOC_FIELDS["new" if lineage else "old"]
    return [
        ("sacctmgr_show_assoc.txt", ["sacctmgr", "-P", "show", "assoc", assoc]),
        ("sacctmgr_show_qos.txt", ["sacctmgr", "-P", "show", "qos", "format=" + QOS_FIELDS]),
        ("sacctmgr_show_user.txt", ["sacctmgr", "-P", "show", "user", "withassoc"]),
        ("sacctmgr_show_account.txt", ["sacctmgr", "-P", "show", "account", "withcoord"]),
        ("sshare_a_l_P.txt", ["sshare", "-a", "-l", "-P"]),
        ("sshare_a_P.txt", ["sshare", "-a", "-P"]),
        ("sprio_l.txt", ["sprio", "-l"]),
        ("sprio_l_n.txt", ["sprio", "-l", "-n"]),
        ("sprio_w.txt", ["sprio", "-w"]),
        (PARTITIONS, ["scontrol", "show", "partition"]),
        (NODES, ["scontrol", "show", "node"]),
        (JOBS, ["scontrol", "show", "job"]),
        ("scontrol_show_assoc_mgr.txt", ["scontrol", "show", "assoc_mgr", "flags=assoc,qos"]),
        (SACCT, ["sacct", "-a", "-X", "-P", "-S", start, "-E", "now", "--format=" + SACCT_FIELDS]),
    ]


def _at_least(version: str, wanted: tuple[int, int]) -> bool:
    parts = [int(p) for p in version.split(".")[:2] if p.isdigit()]
    return len(parts) == 2 and (parts[0], parts[1]) >= wanted


def collect(folder: str | Path, start: str | None = None) -> Collected:
    """Run every command into ``folder`` (made if missing); see the module docstring.
    ``start`` is sacct's ``-S`` (default: ten decay half-lives back, or the epoch when
    usage does not decay)."""
    import time

    from fscli.errors import InvalidValue

    target = Path(folder)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # read-only, not a folder, no permission: one line, no traceback
        raise InvalidValue(f"{folder}: cannot make the folder: {exc.strerror}") from None
    env = {**os.environ, "TZ": "UTC", "SLURM_TIME_FORMAT": TIME_FORMAT}
    problems: list[str] = []
    runs: dict[str, dict] = {}
    said = _run("sacctmgr_version", ["sacctmgr", "--version"], env, runs, problems)
    version = said.strip().split()[-1:] or [""]
    first = list(problems)
    for _attempt in range(ATTEMPTS):
        problems[:] = first  # a run again reports its own failures
        config_text = _save(CONFIG, ["scontrol", "show", "config"], target, env, runs, problems)
        from fscli.io.scontrol import show_config

        conf = show_config(config_text)
        before = last_pass(conf.get("StateSaveLocation"))
        moment = time.time()
        cluster = conf.get("ClusterName", "")
        _dump(cluster, target, env, runs, problems)
        for name, argv in commands(version[0], start or _sacct_start(conf, moment)):
            _save(name, argv, target, env, runs, problems)
        after = last_pass(conf.get("StateSaveLocation"))
        if before == after:
            break
    meta = {
        "moment": int(moment),
        "version": version[0],
        "cluster": cluster,
        "hostname": socket.gethostname(),
        "time_zone": "UTC",
        "last_pass": after[0] if after else None,
        "last_reset": after[1] if after else None,
        "commands": runs,
    }
    (target / META).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return Collected(target, meta, problems)


def last_pass(state_dir: str | None) -> tuple[int, int] | None:
    """(last pass, last reset) from slurmctld's ``priority_last_decay_ran``, or None when
    it cannot be read."""
    if not state_dir:
        return None
    try:
        data = (Path(state_dir) / "priority_last_decay_ran").read_bytes()
    except OSError:
        return None
    if len(data) < 16:
        return None
    return int.from_bytes(data[0:8], "big"), int.from_bytes(data[8:16], "big")


def _sacct_start(conf: dict[str, str], moment: float) -> str:
    from datetime import datetime, timezone

    from fscli.engine.timestr import parse_duration_mins

    try:
        half_life = parse_duration_mins(conf.get("PriorityDecayHalfLife", "0"), "half-life")
    except Exception:  # noqa: BLE001 - an unreadable value: take the whole history
        half_life = 0
    if not half_life:
        return "1970-01-01T00:00:00"
    start = datetime.fromtimestamp(moment - 10 * 60 * half_life, timezone.utc)
    return start.strftime("%Y-%m-%dT%H:%M:%S")


def _dump(cluster: str, target: Path, env: dict, runs: dict, problems: list[str]) -> None:
    """``sacctmgr dump CLUSTER file=...`` into ``sacctmgr_dump.cfg`` (sacctmgr writes the
    file itself, and refuses to overwrite one)."""
    path = target / DUMP
    path.unlink(missing_ok=True)
    argv = ["sacctmgr", "dump", cluster or "(unknown)", f"file={path}"]
    _run(DUMP, argv, env, runs, problems)


def _save(
    name: str, argv: list[str], target: Path, env: dict, runs: dict, problems: list[str]
) -> str:
    text = _run(name, argv, env, runs, problems)
    (target / name).write_text(text)
    return text


def _run(key: str, argv: list[str], env: dict, runs: dict, problems: list[str]) -> str:
    """A command's standard output; its status recorded in ``runs`` under ``key``
    (missing tool: status None), a failure also in ``problems``."""
    if shutil.which(argv[0], path=env.get("PATH")) is None:
        runs[key] = {"argv": argv, "status": None, "error": f"{argv[0]}: not found"}
        problems.append(f"{' '.join(argv[:4])}: {argv[0]} not found")
        return ""
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, env=env, timeout=TIMEOUT, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        runs[key] = {"argv": argv, "status": None, "error": str(exc)}
        problems.append(f"{' '.join(argv[:4])}: {exc}")
        return ""
    runs[key] = {"argv": argv, "status": done.returncode, "error": done.stderr.strip()}
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or [""])[0]
        problems.append(f"{' '.join(argv[:4])}: exit {done.returncode} {first}".rstrip())
    return done.stdout
