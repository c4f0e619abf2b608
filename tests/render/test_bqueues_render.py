"""bqueues and bqueues -l text in LSF's layout, and the JSON-ready dict."""

from __future__ import annotations

import json
from pathlib import Path

from fscli.engine.lsf.queues import queue_summary
from fscli.engine.lsf.share_info import share_info
from fscli.engine.lsf.share_text import parse_user_shares
from fscli.engine.lsf.shares import GROUP, LsfQueue, ShareEntry, UserGroup
from fscli.engine.model import Job
from fscli.render.bqueues import (
    SEPARATOR,
    bqueues_dict,
    render_bqueues_long,
    render_share_block,
)

SEED = json.loads((Path(__file__).parents[1] / "data" / "lsf" / "seed002_worked.json").read_text())
NOW = 1_700_000_000


def seed_setup():
    """The seed's picture: tadmin1 runs 10 jobs (1147 CPU s, 3010 run s), tadmin2 waits."""
    queue = LsfQueue(
        "normal",
        30,
        parse_user_shares("USER_SHARES[[tadmin1, 1000] [default, 1000]]"),
        description="For normal low priority jobs",
    )
    jobs = [
        Job(
            id=i,
            user="tadmin1",
            queue="normal",
            state="running",
            start=NOW - 301,
            cputime=115 if i < 7 else 114,
        )
        for i in range(10)
    ]
    jobs.append(Job(id=10, user="tadmin2", queue="normal", state="pending", slots=2))
    return queue, jobs


def test_bqueues_long_seed_picture():
    queue, jobs = seed_setup()
    summary = queue_summary([queue], jobs)[0]
    text = render_bqueues_long(queue, summary, share_info(queue, jobs, NOW))
    assert (
        text
        == """\
QUEUE: normal
  -- For normal low priority jobs

PARAMETERS/STATISTICS
PRIO NICE  STATUS           MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP   RSV
  30    0  Open:Active        -    -    -    -    12     2    10     0     0     0

SCHEDULING POLICIES:  FAIRSHARE
USER_SHARES:  [tadmin1, 1000] [default, 1000]

SHARE_INFO_FOR: normal/
 USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  RUN_TIME   ADJUST
 tadmin2        1000   333.333        0         0       0.0         0    0.000
 tadmin1        1000    29.579       10         0    1147.0      3010    0.000
"""
    )
    # the rows carry the seed's worked numbers (tests/data/lsf/seed002_worked.json)
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()[-2:]}
    for case in ("running", "idle"):
        want = SEED[case]["bqueues"]
        assert rows[SEED[case]["user"]] == [
            str(want["SHARES"]),
            want["PRIORITY"],
            str(want["STARTED"]),
            "0",
            want["CPU_TIME"],
            want["RUN_TIME"],
            "0.000",
        ]


def test_bqueues_long_fcfs_queue_with_overrides():
    queue = LsfQueue("short", 50, params={"RUN_JOB_FACTOR": "5"})
    jobs = [Job(id=1, user="a", queue="short", state="pending", slots=4, start=NOW + 60)]
    text = render_bqueues_long(queue, queue_summary([queue], jobs)[0], [])
    assert (
        text
        == """\
QUEUE: short

PARAMETERS/STATISTICS
PRIO NICE  STATUS           MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP   RSV
  50    0  Open:Active        -    -    -    -     4     4     0     0     0     4
RUN_JOB_FACTOR: 5
"""
    )


def test_share_tree_blocks_and_wide_names():
    groups = {
        "physics_lab": UserGroup(
            "physics_lab", ("dan", "eve"), (ShareEntry("dan", 3), ShareEntry("eve", 1))
        )
    }
    queue = LsfQueue("q", shares=(ShareEntry("physics_lab", 10, GROUP), ShareEntry("zed", 10)))
    jobs = [
        Job(id=1, user="dan", queue="q", state="running", start=NOW - 3600, cputime=1800.4, slots=5)
    ]
    blocks = share_info(queue, jobs, NOW, groups=groups)
    assert (
        "\n\n".join(render_share_block(b) for b in blocks)
        == """\
SHARE_INFO_FOR: q/
 USER/GROUP    SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  RUN_TIME   ADJUST
 zed               10     3.333        0         0       0.0         0    0.000
 physics_lab       10     0.525        5         0    1800.4      3600    0.000

SHARE_INFO_FOR: q/physics_lab/
 USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  RUN_TIME   ADJUST
 eve               1     0.333        0         0       0.0         0    0.000
 dan               3     0.157        5         0    1800.4      3600    0.000"""
    )


def test_bqueues_summary_in_scan_order():
    queue, jobs = seed_setup()
    queues = [queue, LsfQueue("priority_long_name", 43), LsfQueue("idle", 1)]
    assert [
        (s.name, s.priority, s.status, s.njobs, s.pend, s.run, s.susp)
        for s in queue_summary(queues, jobs)
    ] == [
        ("priority_long_name", 43, "Open:Active", 0, 0, 0, 0),
        ("normal", 30, "Open:Active", 12, 2, 10, 0),
        ("idle", 1, "Open:Active", 0, 0, 0, 0),
    ]


def test_separator_between_queues():
    """bqueues -l of several queues: a blank line, 79 dashes and a blank line between them."""
    queues = [LsfQueue("short", 50), LsfQueue("idle", 1)]
    summaries = queue_summary(queues, [])
    text = SEPARATOR.join(render_bqueues_long(q, s, []) for q, s in zip(queues, summaries))
    stats = "PRIO NICE  STATUS           MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP   RSV"
    counts = "  Open:Active        -    -    -    -     0     0     0     0     0     0"
    assert text == (
        f"QUEUE: short\n\nPARAMETERS/STATISTICS\n{stats}\n  50    0{counts}\n"
        "\n" + "-" * 79 + "\n\n"
        f"QUEUE: idle\n\nPARAMETERS/STATISTICS\n{stats}\n   1    0{counts}\n"
    )


def test_json_dict():
    queue, jobs = seed_setup()
    data = bqueues_dict(queue, queue_summary([queue], jobs)[0], share_info(queue, jobs, NOW))
    assert json.loads(json.dumps(data)) == data
    assert data["fairshare"] == "USER_SHARES[[tadmin1, 1000] [default, 1000]]"
    assert data["statistics"] == {
        "name": "normal",
        "priority": 30,
        "status": "Open:Active",
        "njobs": 12,
        "pend": 2,
        "run": 10,
        "susp": 0,
        "rsv": 0,
    }
    (block,) = data["share_info"]
    assert (block["path"], block["total_shares"]) == ("normal/", 2000)
    first = block["rows"][1]
    assert first["name"] == "tadmin1" and abs(first["priority"] - 29.579) <= 5e-4
    assert (first["started"], first["cpu_time"], first["run_time"]) == (10, 1147.0, 3010.0)
