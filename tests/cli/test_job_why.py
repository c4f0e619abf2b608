"""``fscli job why``: the Reason real Slurm 22.05 recorded, from the two golden captures.

sprio: eight jobs pend behind a 64-CPU blocker on the one node both partitions share. The
main scheduler last ran when they were submitted (15:38:05) and took them by the
priorities of then (sacct's Priority column): job 10 first (low: Resources), then 11
(high: the node of low is gone — the "Nodes required..." description), the rest Priority.
limits: every pending job of limits_cr_core_memory carries the limit's reason.
"""

from __future__ import annotations

import json

import pytest

from tests.cli import test_limits_cli_golden as limits_golden
from tests.cli import test_sprio_capture as sprio_capture
from tests.cli.test_sprio_capture import oracle  # noqa: F401 (the capture's store, a fixture)

SUBMITTED = "2026-11-21T15:38:05"


@pytest.fixture(scope="module")
def sprio_store(oracle):  # noqa: F811
    return oracle


def _squeue_reasons() -> dict[int, str]:
    lines = (sprio_capture.CAPTURE / "squeue_all.txt").read_text().splitlines()
    head = lines[0].split("|")
    rows = [dict(zip(head, line.split("|"))) for line in lines[1:]]
    return {int(r["JOBID"]): r["REASON"] for r in rows if r["ST"] == "PD"}


def test_sprio_capture_priorities_at_submission_are_saccts(sprio_store):
    """The priorities the pass ranks by: sacct's Priority, stored at submission."""
    out = sprio_store.ok("sprio", "-h", "-o", "%i %Y", at=SUBMITTED).stdout
    assert dict(line.split() for line in out.splitlines()) == {
        "4": "2631",
        "5": "4750",
        "6": "4607",
        "7": "6062",
        "8": "7725",
        "9": "7015",
        "10": "9600",
        "11": "9581",
    }


@pytest.mark.parametrize("job_id", sorted(_squeue_reasons()))
def test_sprio_capture_reason(sprio_store, job_id):
    expected = _squeue_reasons()[job_id]
    doc = json.loads(sprio_store.ok("job", "why", str(job_id), "--json", at=SUBMITTED).stdout)
    assert doc["reason"] == expected
    out = sprio_store.ok("job", "why", str(job_id), "-P", at=SUBMITTED).stdout
    assert out == f"JobID|Reason\n{job_id}|{expected}\n"


def test_job_list_reason_column(sprio_store):
    out = sprio_store.ok("job", "list", "-P", at=SUBMITTED).stdout.splitlines()
    head = out[0].split("|")
    got = {int(r[0]): r[head.index("Reason")] for r in (line.split("|") for line in out[1:])}
    assert got == {1: "", 2: "", 3: "None", **_squeue_reasons()}


def test_why_resources_names_the_blocker_and_rank(sprio_store):
    out = sprio_store.ok("job", "why", "10", at=SUBMITTED).stdout
    assert out.splitlines() == [
        "job 10 (user user4, account py, partition low, QOS qmed) is pending",
        "Reason: Resources",
        "priority 9600, rank 1 of 4 in partition low",
        "costs it most: fairshare 0.8 x 10000 = 8000.00 (2000.00 below its weight)",
        "would run: when jobs 3 end (not enough CPUs free now)",
    ]


def test_why_priority_names_the_jobs_ahead(sprio_store):
    doc = json.loads(sprio_store.ok("job", "why", "4", "--json", at=SUBMITTED).stdout)
    assert (doc["priority"], doc["rank"], doc["pending_in_partition"]) == (2631, 4, 4)
    assert doc["ahead"] == [10, 8, 6]
    assert doc["costliest_factor"]["factor"] == "fairshare"
    assert doc["would_run"] == [
        {
            "kind": "jobs_ahead",
            "text": "after job 10 starts (first in partition low)",
            "jobs": [10],
        }
    ]


def test_later_the_order_changes(sprio_store):
    """At the capture's sprio moment the priorities differ (job 7 leads): a pass then
    would make job 7 the one waiting for Resources."""
    doc = json.loads(sprio_store.ok("job", "why", "7", "--json").stdout)
    assert doc["reason"] in ("Resources", "Priority")
    at = sprio_capture.NOW
    doc = json.loads(sprio_store.ok("job", "why", "7", "--json", at=at).stdout)
    assert (doc["reason"], doc["rank"]) == ("Resources", 1)


def test_running_and_unknown_jobs(sprio_store):
    out = sprio_store.ok("job", "why", "3", at=SUBMITTED).stdout
    assert out.splitlines()[:2] == [
        "job 3 (user user4, account py, partition low, QOS normal) is running",
        "Reason: None",
    ]
    result = sprio_store.fails("job", "why", "99", code=1)
    assert result.stderr == "fscli: error: job 99 does not exist on this cluster\n"
    result = sprio_store.fails("job", "why", "x", code=1)
    assert result.stderr == "fscli: error: invalid job id 'x': expected a whole number >= 1\n"


@pytest.fixture(scope="module")
def limits_store(tmp_path_factory):
    from tests.conftest import Fscli

    fscli = Fscli(str(tmp_path_factory.mktemp("why") / "store.db"))
    limits_golden._build(fscli)
    for row in limits_golden.ROWS:
        if row["state"] in ("RUNNING", "PENDING"):
            words = limits_golden._request(row)
            job = limits_golden._job_words(row, words, f",billing={row['cpus']}")
            fscli.ok("job", "submit", f"id={row['jobid']}", *job, at=limits_golden.AT)
    return fscli


PENDING = [r for r in limits_golden.ROWS if r["state"] == "PENDING"]


@pytest.mark.parametrize("row", PENDING, ids=[r["case"] for r in PENDING])
def test_limits_capture_reason(limits_store, row):
    doc = json.loads(
        limits_store.ok("job", "why", row["jobid"], "--json", at=limits_golden.AT).stdout
    )
    assert doc["reason"] == row["reason"]
    assert doc["kind"] == "limit"
    check = json.loads(
        limits_store.ok(
            "limits", "check", f"job={row['jobid']}", "--json", at=limits_golden.AT
        ).stdout
    )
    assert (check["verdict"], check["reason"]) == ("pend", row["reason"])


def test_limits_capture_list_reasons(limits_store):
    out = limits_store.ok("job", "list", "-P", at=limits_golden.AT).stdout.splitlines()
    head = out[0].split("|")
    got = {r[0]: r[head.index("Reason")] for r in (line.split("|") for line in out[1:])}
    assert got == {
        r["jobid"]: r["reason"] for r in limits_golden.ROWS if r["state"] in ("RUNNING", "PENDING")
    }


def test_group_limit_names_jobs_to_end_and_the_value_that_fits(limits_store):
    out = limits_store.ok("job", "why", "2", at=limits_golden.AT).stdout.splitlines()
    assert out[1:3] == [
        "Reason: AssocGrpCpuLimit",
        "limit: AssocGrpCpuLimit: GrpTRES[cpu]=8 at account lgrp, 6 in use, asks 6",
    ]
    assert out[-2:] == [
        "would run: when jobs 1 end",
        "would run: if GrpTRES=cpu at account lgrp were 12",
    ]


def test_job_count_and_per_job_limits(limits_store):
    doc = json.loads(limits_store.ok("job", "why", "32", "--json", at=limits_golden.AT).stdout)
    assert [u["text"] for u in doc["would_run"]] == [
        "when jobs 31 end",
        "if MaxJobs at account lacctmaxjobs were 2",
    ]
    doc = json.loads(limits_store.ok("job", "why", "3", "--json", at=limits_golden.AT).stdout)
    # 10 CPUs under GrpTRES=cpu=8: no job's end lets it run, only a larger limit
    assert [u["text"] for u in doc["would_run"]] == ["if GrpTRES=cpu at account lgrp were 16"]
    doc = json.loads(limits_store.ok("job", "why", "9", "--json", at=limits_golden.AT).stdout)
    assert doc["would_run"][-1]["value"] == 20
    assert doc["would_run"][-1]["text"] == (
        "if MaxWallDurationPerJob at user lu4@lwall were 00:20:00"
    )


def test_limits_check_job_refuses_other_words_and_running_jobs(limits_store):
    result = limits_store.fails("limits", "check", "job=2", "cpus=4", code=2)
    assert "takes no other words" in result.stderr
    result = limits_store.fails("limits", "check", "job=1", code=2)
    assert result.stderr == (
        "fscli: error: job 1 is running: limits check job= takes a pending Slurm job\n"
    )
    limits_store.fails("limits", "check", "job=999", code=1)
