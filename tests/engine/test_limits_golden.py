"""Every submission of the real Slurm 22.05 capture limits_cr_core_memory, replayed.

The setup (accounts, users and their own limits) is read from the capture's notes.md,
because ``sacctmgr show assoc`` prints inherited Max* values on the user rows and would
hide whether inheritance works. QOS and partitions come from the raw sacctmgr/scontrol
output, the jobs alive at each submission from ``scontrol show job``.
"""

from __future__ import annotations

import csv
import re
import shlex
from pathlib import Path

import pytest

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.limits.check import JobRequest, LimitsState, check
from fscli.engine.model import Assoc, Job, Partition, Qos
from fscli.engine.timestr import parse_duration_mins
from fscli.engine.tres import parse_tres

DATA = Path(__file__).parent.parent / "data/golden/slurm-22.05/limits_cr_core_memory"
NOW = 1_800_000_000  # no run-minute limit in the capture: any fixed moment will do
DEF_MEM_PER_CPU = 100  # slurm.conf DefMemPerCPU


def _limits(words: list[str]) -> dict:
    out = {}
    for word in words:
        key, _, text = word.partition("=")
        defn = limitdefs.lookup(key)
        out[defn.name] = limitdefs.parse_limit(defn, text)
    return out


def _pipe_table(name: str) -> list[dict[str, str]]:
    lines = (DATA / "raw" / name).read_text().splitlines()
    head = lines[0].split("|")
    return [dict(zip(head, line.split("|"))) for line in lines[1:] if line]


def load_assocs() -> list[Assoc]:
    notes = (DATA / "notes.md").read_text()
    rows = _pipe_table("sacctmgr_show_assoc_P.txt")
    ids = {(r["Account"], r["User"]): int(r["ID"]) for r in rows}
    root_row = next(r for r in rows if r["Account"] == "root")
    assocs = [Assoc(ids[("root", "")], None, "root", qos=tuple(root_row["QOS"].split(",")))]
    accounts = re.search(r"^- Accounts: (.*)$", notes, re.MULTILINE).group(1)
    for item in accounts.split(";"):
        name, parent, *words = re.match(r"\s*(\w+)\(parent=(\w+)\)\s*(.*)", item).groups()
        assocs.append(
            Assoc(ids[(name, "")], ids[(parent, "")], name, limits=_limits(" ".join(words).split()))
        )
    users = re.search(r"^- Users: (.*)$", notes, re.MULTILINE).group(1)
    for item in users.split(";"):
        who, *words = item.split()
        user, account = who.split("@")
        assocs.append(
            Assoc(ids[(account, user)], ids[(account, "")], account, user, limits=_limits(words))
        )
    return assocs


def load_qos() -> list[Qos]:
    columns = {
        "GrpTRES": "GrpTRES",
        "GrpJobs": "GrpJobs",
        "GrpSubmit": "GrpSubmitJobs",
        "MaxTRES": "MaxTRESPerJob",
        "MaxTRESPU": "MaxTRESPerUser",
        "MaxJobsPU": "MaxJobsPerUser",
        "MaxSubmitPU": "MaxSubmitJobsPerUser",
        "MaxWall": "MaxWallDurationPerJob",
    }
    out = []
    for row in _pipe_table("sacctmgr_show_qos_P.txt"):
        limits = _limits([f"{name}={row[col]}" for col, name in columns.items() if row[col]])
        flags = frozenset(f for f in row["Flags"].split(",") if f)
        out.append(Qos(row["Name"], int(row["Priority"]), flags, limits=limits))
    return out


def load_partitions() -> list[Partition]:
    text = (DATA / "raw/scontrol_show_partition.txt").read_text()
    out = []
    for block in text.strip().split("\n\n"):
        fields = dict(re.findall(r"(\S+?)=(\S*)", block))
        out.append(
            Partition(
                fields["PartitionName"],
                qos=None if fields["QoS"] == "N/A" else fields["QoS"],
                max_time=parse_duration_mins(fields["MaxTime"]),
            )
        )
    return out


def load_jobs() -> dict[str, Job]:
    """Jobs by case name, in their final state (every job sleeps 900 s: none had ended)."""
    text = (DATA / "raw/scontrol_show_job.txt").read_text()
    jobs = {}
    for block in re.split(r"^### ", text, flags=re.MULTILINE)[1:]:
        case, _, body = block.partition("\n")
        fields = dict(re.findall(r"(\S+?)=(\S*)", body))
        tres = parse_tres(fields["TRES"])
        jobs[case.strip()] = Job(
            int(fields["JobId"]),
            fields["UserId"].split("(")[0],
            fields["Account"],
            partitions=(fields["Partition"],),
            qos=fields["QOS"],
            state=fields["JobState"].lower(),
            cpus=tres["cpu"],
            nodes=tres["node"],
            tres=tres,
            time_limit=parse_duration_mins(fields["TimeLimit"]),
        )
    return jobs


def _request(row: dict[str, str]) -> JobRequest:
    args = shlex.split(row["extra_args"])
    opts = dict(zip(args[::2], args[1::2]))
    mem = next((int(a.split("=")[1]) for a in args if a.startswith("--mem=")), None)
    cpus = int(row["cpus"])
    tres = {"cpu": cpus, "mem": mem or cpus * DEF_MEM_PER_CPU, "node": 1, "billing": cpus}
    return JobRequest(
        row["user"],
        row["account"],
        opts.get("-p"),
        opts.get("-q"),
        tres,
        int(opts["-t"]) if "-t" in opts else None,
    )


ROWS = list(csv.DictReader((DATA / "limits.csv").open()))
ASSOCS, QOS, PARTITIONS, JOBS = load_assocs(), load_qos(), load_partitions(), load_jobs()
DEFAULT_PARTITION = "low"  # PartitionName=low Default=YES


def _state_before(index: int) -> LimitsState:
    earlier = [JOBS[r["case"]] for r in ROWS[:index] if r["case"] in JOBS]
    for job in earlier:
        job.assoc_id = next(a.id for a in ASSOCS if (a.user, a.account) == (job.user, job.account))
    return LimitsState(ASSOCS, QOS, PARTITIONS, earlier, default_partition=DEFAULT_PARTITION)


def test_capture_has_38_submissions():
    assert len(ROWS) == 38
    assert sum(r["state"] == "REJECTED" for r in ROWS) == 6


@pytest.mark.parametrize("index", range(len(ROWS)), ids=[r["case"] for r in ROWS])
def test_submission(index):
    row = ROWS[index]
    result = check(_request(row), _state_before(index), NOW)
    if row["state"] == "RUNNING":
        assert (result.verdict, result.reason) == ("run", None), result.to_dict()
    elif row["state"] == "PENDING":
        assert (result.verdict, result.reason) == ("pend", row["reason"]), result.to_dict()
    else:
        assert result.verdict == "reject", result.to_dict()
        assert result.sbatch_stderr() == row["sbatch_stderr"]


@pytest.mark.parametrize("case", sorted(JOBS))
def test_request_tres_matches_what_slurm_recorded(case):
    """The request built from the sbatch line is the TRES Slurm gave the job."""
    row = next(r for r in ROWS if r["case"] == case)
    assert _request(row).tres == JOBS[case].tres


def test_time_limit_filled_from_association_maxwall():
    """user_maxwall_default: no -t under MaxWall=10 gets TimeLimit=00:10:00 and runs."""
    index = next(i for i, r in enumerate(ROWS) if r["case"] == "user_maxwall_default")
    result = check(_request(ROWS[index]), _state_before(index), NOW)
    assert result.time_limit == JOBS["user_maxwall_default"].time_limit == 10


def test_qos_table_matches_notes():
    by_name = {q.name: q for q in QOS}
    assert by_name["qdeny"].flags == {"DenyOnLimit"}
    assert by_name["qover"].flags == {"OverPartQOS"}
    assert by_name["qmem"].limits == {"MaxTRESPerJob": {"mem": 1000}}
    assert by_name["qwall"].limits == {"MaxWallDurationPerJob": 10}
