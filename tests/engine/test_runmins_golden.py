"""Every association's TRES counters in a real Slurm 22.05 capture (the limits one), from
its running jobs: GrpTRESRunMins (what sshare prints as TRESRunMins) and the usage shown
in GrpTRESMins=...N(used) (sshare's GrpTRESRaw: decayed TRES-minutes).

The capture's jobs run without a time limit (Slurm's INFINITE, 0xFFFFFFFF minutes) or
with the 10-minute limit of QOS qwall; PriorityCalcPeriod is 1 minute. The phase of the
passes is recovered from one counter: lgrp's 6-CPU job, started 15:44:56, holds
600 MB x INFINITE less 430 MB-minutes, i.e. 43 s were taken back: a pass at 15:45:39.
Every other number is then a prediction, compared exactly. The capture does not decay
usage (PriorityDecayHalfLife=0).
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

from fscli.engine.config import PriorityConfig
from fscli.engine.runmins import Allocation, run_minutes
from fscli.engine.timestr import parse_duration_mins
from fscli.engine.tree import subtree_totals
from fscli.engine.tres import parse_tres
from fscli.engine.usage import Run, tres_seconds
from tests.engine.adapt import raw_usage

RAW = Path(__file__).parents[1] / "data/golden/slurm-22.05/limits_cr_core_memory/raw"
PASS_PHASE = 39  # seconds past the minute (see the module docstring)
AT = "2026-11-21T15:46:33"  # scontrol show job's moment (job 1: RunTime 1:37 from 15:44:56)


def _utc(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp())


NAMES = ("cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages")


def _assoc_mgr(
    counter: str,
) -> tuple[dict[tuple[str, str], int], dict[int, int | None], dict[int, dict[str, str]]]:
    """((account, user) -> id, id -> parent id, id -> the counter's used values by TRES)."""
    text = (RAW / "scontrol_show_assoc_mgr.txt").read_text()
    ids, parents, counters = {}, {}, {}
    for block in re.split(r"\n(?=ClusterName=)", text)[1:]:
        head = dict(re.findall(r"(\w+)=(\S*)", block.splitlines()[0]))
        aid = int(head["ID"])
        ids[(head["Account"], head["UserName"].split("(")[0])] = aid  # "lu1(1016)"
        parent = re.search(r"ParentAccount=\S*?\((\d+)\)", block)
        parents[aid] = int(parent.group(1)) if parent else None
        text_of = re.search(counter + r"=(\S+)", block).group(1)
        counters[aid] = dict(re.findall(r"([\w/]+)=\S*?\((\d+)\)", text_of))
    for (account, user), aid in ids.items():
        if user:  # a user association's parent is its account's association
            parents[aid] = ids[(account, "")]
    return ids, parents, counters


def _running_jobs(ids: dict[tuple[str, str], int]) -> list[Allocation]:
    jobs = []
    for block in (RAW / "scontrol_show_job.txt").read_text().split("JobId=")[1:]:
        fields = dict(re.findall(r"(\w+)=(\S+)", block))
        if fields["JobState"] != "RUNNING":
            continue
        user = fields["UserId"].split("(")[0]
        limit = fields["TimeLimit"]
        tres = parse_tres(fields["TRES"])  # memory in MB, as Slurm counts it
        jobs.append(
            Allocation(
                ids[(fields["Account"], user)],
                _utc(fields["StartTime"]),
                parse_duration_mins(limit),
                tres,
            )
        )
    return jobs


def _check(got: dict[int, dict[str, int]], counters: dict[int, dict[str, str]]) -> int:
    """Compare every association; the number of them with a non-zero counter."""
    for aid, want in counters.items():
        held = got.get(aid, {})
        assert {n: str(held.get(n, 0)) for n in NAMES} == want, (aid, want)
    return sum(any(v != "0" for v in want.values()) for want in counters.values())


def test_every_associations_run_minutes_as_slurm_counted_them() -> None:
    ids, parents, counters = _assoc_mgr("GrpTRESRunMins")
    jobs = _running_jobs(ids)
    assert len(jobs) >= 5
    got = run_minutes(jobs, parents, _utc(AT), 60, PASS_PHASE)
    assert _check(got, counters) == 19  # associations holding run time (the rest: zeros)


def test_every_associations_tres_usage_as_slurm_counted_it() -> None:
    """GrpTRESRaw's numbers: decayed TRES-seconds from the engine over 60, truncated;
    billing from the RawUsage the same runs give."""
    ids, parents, counters = _assoc_mgr("GrpTRESMins")
    jobs = _running_jobs(ids)
    cfg = PriorityConfig(decay_half_life=0, calc_period=60, calc_anchor=PASS_PHASE)
    runs = [(Run(j.assoc_id, j.start, None, j.tres["billing"]), j.tres) for j in jobs]
    at = _utc(AT)
    seconds = tres_seconds(runs, at, cfg)
    for aid, raw in raw_usage([], at, cfg, [run for run, _ in runs]).items():
        seconds.setdefault(aid, {})["billing"] = raw
    got = {
        aid: {n: int(v / 60) for n, v in counts.items()}
        for aid, counts in subtree_totals(seconds, parents).items()
    }
    assert _check(got, counters) == 13  # associations with usage (the rest: zeros)
