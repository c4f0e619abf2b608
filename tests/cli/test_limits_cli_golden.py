"""The real Slurm 22.05 capture limits_cr_core_memory, replayed at the command line.

The limits are built with ``fscli limits set`` (accounts and users as notes.md lists them,
QOS from ``sacctmgr show qos -P``, partition pq with QOS partqos); before each submission
``fscli limits check`` must give Slurm's verdict and reason, then the accepted job is
entered with ``fscli job submit ... state=running|pending`` as Slurm left it.
"""

from __future__ import annotations

import csv
import json
import re
import shlex
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data/golden/slurm-22.05/limits_cr_core_memory"
AT = "2026-01-05T10:00:00"
DEF_MEM_PER_CPU = 100  # slurm.conf DefMemPerCPU (CR_Core_Memory)
ROWS = list(csv.DictReader((DATA / "limits.csv").open()))
QOS_COLUMNS = (
    "Priority",
    "Flags",
    "GrpTRES",
    "GrpJobs",
    "GrpSubmit",
    "MaxTRES",
    "MaxTRESPU",
    "MaxJobsPU",
    "MaxSubmitPU",
    "MaxWall",
)


def _notes_items(label: str) -> list[str]:
    notes = (DATA / "notes.md").read_text()
    return re.search(rf"^- {label}: (.*)$", notes, re.MULTILINE).group(1).split(";")


def _build(fscli) -> None:
    fscli.ok("cluster", "add", "oracle")
    fscli.ok("config", "set", f"DefMemPerCPU={DEF_MEM_PER_CPU}")
    lines = (DATA / "raw/sacctmgr_show_qos_P.txt").read_text().splitlines()
    head = lines[0].split("|")
    names = []
    for line in lines[1:]:
        row = dict(zip(head, line.split("|")))
        names.append(row["Name"])
        if row["Name"] != "normal":
            fscli.ok("qos", "add", row["Name"])
        words = [f"{col}={row[col]}" for col in QOS_COLUMNS if row[col] and row[col] != "0"]
        if words:
            fscli.ok("limits", "set", f"qos={row['Name']}", *words)
    for name in ("low", "high"):
        fscli.ok("partition", "add", name)
    fscli.ok("partition", "add", "pq", "qos=partqos")
    root_qos = ",".join(q for q in names if q not in ("qlow", "qmed", "qhigh", "partqos"))
    fscli.ok("limits", "set", "cluster=oracle", f"qos={root_qos}")
    for item in _notes_items("Accounts"):
        name, parent, words = re.match(r"\s*(\w+)\(parent=(\w+)\)\s*(.*)", item).groups()
        fscli.ok("account", "add", name, f"parent={parent}")
        if words.strip():
            fscli.ok("limits", "set", f"account={name}", *words.split())
    for item in _notes_items("Users"):
        who, *words = item.split()
        user, account = who.split("@")
        fscli.ok("user", "add", user, f"account={account}")
        if words:
            fscli.ok("limits", "set", f"user={user}", f"account={account}", *words)


def _request(row: dict[str, str]) -> list[str]:
    args = shlex.split(row["extra_args"])
    opts = dict(zip(args[::2], args[1::2]))
    mem = next((a.split("=")[1] for a in args if a.startswith("--mem=")), None)
    cpus = int(row["cpus"])
    given = f",mem={mem}" if mem else ""  # else DefMemPerCPU fills it in
    words = [
        f"user={row['user']}",
        f"account={row['account']}",
        f"tres=cpu={cpus}{given},billing={cpus}",
    ]
    words += [f"partition={opts['-p']}"] if "-p" in opts else []
    words += [f"qos={opts['-q']}"] if "-q" in opts else []
    words += [f"time={opts['-t']}"] if "-t" in opts else []
    return words


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    """Every case: (row, limits check --json document, stdout of the human form)."""
    from tests.conftest import Fscli

    fscli = Fscli(str(tmp_path_factory.mktemp("golden") / "store.db"))
    _build(fscli)
    results = []
    for row in ROWS:
        words = _request(row)
        doc = json.loads(fscli.ok("limits", "check", *words, "--json", at=AT).stdout)
        text = fscli.ok("limits", "check", *words, at=AT).stdout
        results.append((row, doc, text))
        if row["state"] in ("RUNNING", "PENDING"):
            fscli.ok("job", "submit", *_job_words(row, words, f",billing={row['cpus']}"), at=AT)
    return results


def _job_words(row: dict[str, str], words: list[str], billing: str) -> list[str]:
    """``job submit`` words for the job Slurm accepted (``billing`` is added to its TRES;
    a job that gave no memory gets DefMemPerCPU's from job submit)."""
    tres = ",".join(
        [w for w in words[2].split(",") if w.startswith("mem=")]
        + [billing.lstrip(",")] * bool(billing)
    )
    submit = [w for w in words if not w.startswith(("tres=", "partition=", "qos="))]
    return [
        *submit,
        *[f"tres={tres}"] * bool(tres),
        f"cpus={row['cpus']}",
        f"partition={row['partition']}",
        f"qos={row['qos']}",
        f"state={row['state'].lower()}",
    ]


def test_capture_has_38_submissions():
    assert len(ROWS) == 38
    assert sum(r["state"] == "REJECTED" for r in ROWS) == 6


@pytest.mark.parametrize("index", range(len(ROWS)), ids=[r["case"] for r in ROWS])
def test_submission(replay, index):
    row, doc, text = replay[index]
    if row["state"] == "RUNNING":
        assert (doc["verdict"], doc["reason"]) == ("run", None), doc
        assert text == "run: no limit stops this job\n"
    elif row["state"] == "PENDING":
        assert (doc["verdict"], doc["reason"]) == ("pend", row["reason"]), doc
        assert text.startswith(f"pend: {row['reason']} (")
    else:
        assert doc["verdict"] == "reject", doc
        stderr = text.split("\n", 1)[1]
        assert stderr.startswith(row["sbatch_stderr"] + "\n")


def test_pending_reasons_name_limit_value_count_and_level(replay):
    docs = {row["case"]: doc for row, doc, _ in replay}
    grp = docs["assoc_grptres_cpu_2"]
    assert {k: grp[k] for k in ("limit", "tres", "value", "current", "level", "source")} == {
        "limit": "GrpTRES",
        "tres": "cpu",
        "value": 8,
        "current": 6,
        "level": "account",
        "source": "lgrp",
    }
    maxjobs = docs["acct_maxjobs_inherit_2"]
    assert (maxjobs["limit"], maxjobs["value"], maxjobs["current"], maxjobs["level"]) == (
        "MaxJobs",
        1,
        1,
        "account",
    )
    part = docs["partqos_over"]
    assert (part["limit"], part["value"], part["level"], part["source"]) == (
        "MaxTRESPerJob",
        4,
        "partition-qos",
        "partqos",
    )
    submit = docs["assoc_grpsubmit_3"]
    assert submit["error"] == (
        "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)"
    )
    assert (submit["limit"], submit["current"], submit["level"]) == ("GrpSubmitJobs", 2, "account")


def test_invalid_qos_is_a_reject_verdict(replay):
    row, doc, _ = next(r for r in replay if r[0]["case"] == "invalid_qos")
    assert doc["verdict"] == "reject"
    assert doc["error"] == "Invalid qos specification"


def test_time_limit_filled_from_association_maxwall(replay):
    _, doc, _ = next(r for r in replay if r[0]["case"] == "user_maxwall_default")
    assert doc["time_limit"] == 10


def _billing_in_use() -> dict[str, int]:
    """The billing TRES each account association and QOS held at the end, as slurmctld's
    ``scontrol show assoc_mgr`` printed it (``GrpTRES=...,billing=N(used)``)."""
    text = (DATA / "raw/scontrol_show_assoc_mgr.txt").read_text()
    holders = re.findall(
        r"^(?:ClusterName=\S+ Account=(\S+) UserName= |QOS=(\w+)\().*?\n"
        r"(?:.*\n)*?\s+GrpTRES=.*?billing=\S+?\((\d+)\)",
        text,
        re.MULTILINE,
    )
    return {account or f"qos={qos}": int(used) for account, qos, used in holders}


@pytest.fixture(scope="module")
def settled(tmp_path_factory):
    """The capture's store with its running and pending jobs, entered without a billing:
    fscli computes it, as slurmctld did (no TRESBillingWeights: the CPUs)."""
    from tests.conftest import Fscli

    fscli = Fscli(str(tmp_path_factory.mktemp("settled") / "store.db"))
    _build(fscli)
    for row in ROWS:
        if row["state"] in ("RUNNING", "PENDING"):
            fscli.ok("job", "submit", *_job_words(row, _request(row), ""), at=AT)
    return fscli


def test_billing_in_use_matches_slurmctld(settled):
    """A GrpTRES=billing limit of exactly what slurmctld counted stops a 1-CPU job that
    bills 1 more, and names the count: every association and QOS jobs ran under."""
    used = {holder: count for holder, count in _billing_in_use().items() if count}
    assert len(used) == 17  # 10 accounts (root too), 7 QOS
    assert (used["root"], used["lqos"], used["qos=normal"], used["qos=partqos"]) == (34, 18, 20, 12)
    users = {
        account: user
        for user, account in (item.split()[0].split("@") for item in _notes_items("Users"))
    }
    for holder, count in used.items():
        qos = holder.removeprefix("qos=") if holder.startswith("qos=") else None
        words = ["user=lu1", "account=lgrp", "cpus=1"]
        if qos == "partqos":
            words.append("partition=pq")
        elif qos:
            words.append(f"qos={qos}")
        elif holder != "root":
            words = [f"user={users[holder]}", f"account={holder}", "cpus=1"]
        target = (
            f"qos={qos}" if qos else "cluster=oracle" if holder == "root" else f"account={holder}"
        )
        doc = json.loads(
            settled.ok(
                "limits",
                "check",
                *words,
                "--json",
                "--with",
                f"{target} GrpTRES=billing={count}",
                at=AT,
            ).stdout
        )
        found = [
            v["current"]
            for v in [doc, *doc["others"]]
            if (v["limit"], v["tres"]) == ("GrpTRES", "billing")
        ]
        assert found == [count], (holder, doc)
