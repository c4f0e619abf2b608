"""``fscli bqueues`` and ``fscli lsf dispatch`` on jobs put into the store with
``fscli job submit``: the seed's worked numbers (29.579, 333.333, 9.259), HIST_HOURS decay,
share trees, --explain, --json, and the 2:1 split for shares 2000 vs 1000."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SEED = json.loads((Path(__file__).parents[1] / "data" / "lsf" / "seed002_worked.json").read_text())
T0 = "2026-05-01T12:00:00"


def submit(fscli, user: str, queue: str, *words: str) -> None:
    fscli.ok(
        "job", "submit", f"user={user}", f"queue={queue}", "submit=2026-05-01T00:00:00", *words
    )


def build_seed(fscli) -> None:
    """The seed's picture: tadmin1 runs 10 jobs (1147 CPU s, 301 s each), tadmin2 waits."""
    fscli.ok("lsf", "params", "set", *[f"{k}={v}" for k, v in SEED["params"].items()])
    fscli.ok(
        "lsf",
        "queue",
        "add",
        "normal",
        "priority=30",
        "fairshare=USER_SHARES[[tadmin1, 1000] [default, 1000]]",
    )
    for i in range(10):
        submit(
            fscli,
            "tadmin1",
            "normal",
            "state=running",
            f"start={T0}",
            f"cputime={115 if i < 7 else 114}",
        )
    submit(fscli, "tadmin2", "normal", "slots=2")


@pytest.fixture
def seed(fscli, template):
    """The store :func:`build_seed` leaves, copied from its template."""
    return template(fscli, build_seed)


def test_seed_running_and_idle_users(seed):
    out = seed.ok("bqueues", "-l", "normal", at="2026-05-01T12:05:01").stdout
    assert (
        out
        == """\
QUEUE: normal

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
    assert (
        SEED["running"]["bqueues"]["PRIORITY"] in out and SEED["idle"]["bqueues"]["PRIORITY"] in out
    )


def test_seed_explain_and_json(seed):
    out = seed.ok("bqueues", "normal", "--explain", "tadmin1", at="2026-05-01T12:05:01").stdout
    lines = out.splitlines()
    assert lines[0] == "tadmin1 in normal/: 1000 of 2000 shares (50.00%)"
    assert lines[-1] == "priority = 1000 / 33.808306 = 29.579"
    assert "  1 + job_slots       1 + 10 (10 started, 0 reserved) x 3 = 33.000000" in lines
    doc = json.loads(seed.ok("bqueues", "-l", "--json", at="2026-05-01T12:05:01").stdout)
    queue = doc["queues"][0]
    assert queue["fairshare"] == "USER_SHARES[[tadmin1, 1000] [default, 1000]]"
    assert queue["statistics"]["run"] == 10 and queue["statistics"]["pend"] == 2
    rows = {r["name"]: r for r in queue["share_info"][0]["rows"]}
    assert round(rows["tadmin1"]["priority"], 3) == 29.579
    assert rows["tadmin1"]["run_time"] == 3010 and rows["tadmin1"]["cpu_time"] == 1147
    assert round(rows["tadmin2"]["priority"], 3) == 333.333


def test_seed_history_after_100_finished_jobs(fscli):
    fscli.ok(
        "lsf",
        "queue",
        "add",
        "normal",
        "fairshare=USER_SHARES[[default, 1000]]",
        "ENABLE_HIST_RUN_TIME=Y",
    )
    for _ in range(100):
        submit(
            fscli,
            "usera",
            "normal",
            "state=completed",
            "start=2026-05-01T10:00:00",
            "end=2026-05-01T11:00:00",
            "cputime=1800",
        )
    out = fscli.ok("bqueues", "-l", at="2026-05-01T11:00:00").stdout
    assert " usera          1000     9.259        0         0  180000.0         0    0.000" in out
    assert "ENABLE_HIST_RUN_TIME: Y" in out
    # five hours later (HIST_HOURS=5) the history counts a tenth: 1000 / (3.5 + 7 + 3)
    later = fscli.ok("bqueues", "normal", "--explain", "usera", at="2026-05-01T16:00:00").stdout
    assert later.splitlines()[-1] == "priority = 1000 / 13.500000 = 74.074"


def test_usage_records_count_as_decayed_cpu_time(science):
    science.ok("lsf", "queue", "add", "normal", "fairshare=USER_SHARES[[default, 10]]")
    science.ok(
        "usage", "add", "user=alice", "account=physics", "raw=36000", "at=2026-05-01T00:00:00"
    )
    out = science.ok("bqueues", "-l", at="2026-05-01T05:00:00").stdout
    rows = [line.split() for line in out.splitlines()[-3:]]
    assert rows == [
        ["bob", "10", "3.333", "0", "0", "0.0", "0", "0.000"],
        ["carol", "10", "3.333", "0", "0", "0.0", "0", "0.000"],
        ["alice", "10", "2.703", "0", "0", "3600.0", "0", "0.000"],
    ]


def build_share_tree(fscli) -> None:
    """normal: a share tree (group phys of dan 3 and eve 1, next to zed), dan running;
    short: no fairshare, zed's 4 slots pending."""
    fscli.ok("lsf", "group", "add", "phys", "members=dan,eve", "shares=[dan, 3] [eve, 1]")
    fscli.ok(
        "lsf",
        "queue",
        "add",
        "normal",
        "priority=30",
        "fairshare=USER_SHARES[[phys, 10] [zed, 10]]",
    )
    fscli.ok("lsf", "queue", "add", "short", "priority=50")
    submit(fscli, "dan", "normal", "state=running", f"start={T0}")
    submit(fscli, "zed", "short", "slots=4")


@pytest.fixture
def share_tree(fscli, template):
    """The store :func:`build_share_tree` leaves, copied from its template."""
    return template(fscli, build_share_tree)


def test_share_tree_and_summary_views(share_tree):
    fscli = share_tree
    out = fscli.ok("bqueues", "-l", "normal", at=T0).stdout
    assert out.split("SHARE_INFO_FOR")[1:] == [
        ": normal/\n"
        " USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  RUN_TIME   ADJUST\n"
        " zed              10     3.333        0         0       0.0         0    0.000\n"
        " phys             10     1.667        1         0       0.0         0    0.000\n\n",
        ": normal/phys/\n"
        " USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  RUN_TIME   ADJUST\n"
        " dan               3     0.500        1         0       0.0         0    0.000\n"
        " eve               1     0.333        0         0       0.0         0    0.000\n",
    ]
    assert fscli.ok("bqueues", "-P", at=T0).stdout.splitlines() == [
        "QUEUE_NAME|PRIO|STATUS|MAX|JL/U|JL/P|JL/H|NJOBS|PEND|RUN|SUSP",
        "short|50|Open:Active|-|-|-|-|4|4|0|0",
        "normal|30|Open:Active|-|-|-|-|1|0|1|0",
    ]
    table = fscli.ok("bqueues", at=T0).stdout
    assert "QUEUE_NAME" in table and "Open:Active" in table
    assert fscli.ok("bqueues", "-l", at=T0).stdout.count("QUEUE: ") == 2


def test_long_parsable_is_the_share_info_lines_one_row_each(share_tree):
    """-l -P/-p: every SHARE_INFO_FOR line as a row (the queue and block first), numbers
    unrounded, '|' between fields (-P) or after each (-p); -n drops the header. A queue
    without fairshare has no such lines (bqueues -P has its statistics)."""
    fscli = share_tree
    at = "2026-05-01T13:00:00"
    assert fscli.ok("bqueues", "-l", "-P", at=at).stdout == (
        "QUEUE|SHARE_INFO_FOR|USER/GROUP|SHARES|PRIORITY|STARTED|RESERVED|CPU_TIME|RUN_TIME|ADJUST\n"
        "normal|normal/|zed|10|3.333333|0|0|0.000000|0.000000|0.000000\n"
        "normal|normal/|phys|10|1.492537|1|0|0.000000|3600.000000|0.000000\n"
        "normal|normal/phys/|dan|3|0.447761|1|0|0.000000|3600.000000|0.000000\n"
        "normal|normal/phys/|eve|1|0.333333|0|0|0.000000|0.000000|0.000000\n"
    )
    assert fscli.ok("bqueues", "-l", "-p", "-n", "normal", at=at).stdout == (
        "normal|normal/|zed|10|3.333333|0|0|0.000000|0.000000|0.000000|\n"
        "normal|normal/|phys|10|1.492537|1|0|0.000000|3600.000000|0.000000|\n"
        "normal|normal/phys/|dan|3|0.447761|1|0|0.000000|3600.000000|0.000000|\n"
        "normal|normal/phys/|eve|1|0.333333|0|0|0.000000|0.000000|0.000000|\n"
    )
    assert fscli.ok("bqueues", "-l", "-P", "short", at=at).stdout == (
        "QUEUE|SHARE_INFO_FOR|USER/GROUP|SHARES|PRIORITY|STARTED|RESERVED|CPU_TIME|RUN_TIME|ADJUST\n"
    )


def test_bqueues_errors(fscli):
    fscli.ok("lsf", "queue", "add", "normal", "fairshare=USER_SHARES[[alice, 1]]")
    assert (
        "LSF queue 'nromal' does not exist (did you mean 'normal'?)"
        in fscli.fails("bqueues", "nromal", code=1).stderr
    )
    assert (
        "'bob' holds no shares in LSF queue 'normal'"
        in fscli.fails("bqueues", "--explain", "bob", code=1).stderr
    )


@pytest.mark.parametrize(
    "words, message",
    [
        (("-l", "-n"), "-l prints text with none: drop -n or add -p/-P"),
        (("--explain", "alice", "-n"), "--explain prints text with none: drop -n"),
    ],
)
def test_no_header_is_refused_where_there_is_no_header(fscli, words, message):
    """-n on the long text or --explain would be ignored: it is refused instead."""
    fscli.ok("lsf", "queue", "add", "normal", "fairshare=USER_SHARES[[alice, 1]]")
    err = fscli.fails("bqueues", *words, code=2).stderr
    assert err == (
        "fscli: error: -n leaves out the header line of the queue table and of -p/-P rows; "
        f"{message}\n"
    )
    rows = fscli.ok("bqueues", "-l", "-P", "-n").stdout
    assert rows == "normal|normal/|alice|1|0.333333|0|0|0.000000|0.000000|0.000000\n"


def test_dispatch_two_to_one_split_under_equal_demand(fscli):
    case = SEED["split"]
    fscli.ok("lsf", "queue", "add", "normal", f"fairshare={case['fairshare']}")
    out = fscli.ok(
        "lsf", "dispatch", "normal", "slots=30", "users=" + ",".join(case["users"]), "-P", at=T0
    ).stdout
    assert out.splitlines() == [
        "Queue|User|Slots|Fraction",
        "normal|user1|20|0.666667",
        "normal|user2|10|0.333333",
    ]
    equal = SEED["equal"]
    fscli.ok("lsf", "queue", "modify", "normal", f"fairshare={equal['fairshare']}")
    doc = json.loads(
        fscli.ok("lsf", "dispatch", "slots=100", "jobs=1000", "users=A,B", "--json", at=T0).stdout
    )
    assert {r["User"]: r["Slots"] for r in doc["dispatch"]} == equal["expected"]
    assert "slots=N" in fscli.fails("lsf", "dispatch", "normal", code=2).stderr
    assert fscli.fails("lsf", "dispatch", "slots=1000001", code=1).stderr == (
        "fscli: error: invalid slots '1000001': out of range (at most 1000000)\n"
    )
    assert fscli.fails("lsf", "dispatch", "slots=3", "jobs=99999999", code=1).stderr == (
        "fscli: error: invalid jobs '99999999': expected a whole number from 0 to 1000000\n"
    )


def test_pending_job_with_a_planned_start_reserves_its_slots(seed):
    """tadmin2's 2-slot job, planned to start at 13:00, holds 2 RESERVED slots:
    1000 / ((1 + 2) x 3) = 111.111 (333.333 without the reservation)."""
    submit(seed, "tadmin2", "normal", "slots=2", "state=pending", "start=2026-05-01T13:00:00")
    out = seed.ok("bqueues", "-l", "normal", at="2026-05-01T12:05:01").stdout
    assert out.splitlines()[-2:] == [
        " tadmin2        1000   111.111        0         2       0.0         0    0.000",
        " tadmin1        1000    29.579       10         0    1147.0      3010    0.000",
    ]
    why = seed.ok("bqueues", "normal", "--explain", "tadmin2", at="2026-05-01T12:05:01").stdout
    assert "  1 + job_slots       1 + 2 (0 started, 2 reserved) x 3 = 9.000000" in why
    err = seed.fails(
        "job",
        "submit",
        "user=tadmin2",
        "queue=normal",
        "state=pending",
        "submit=2026-05-01T00:00:00",
        "start=2026-04-30T00:00:00",
        code=1,
    ).stderr
    assert err == "fscli: error: start= is before the job's submit time\n"


def test_a_pending_slurm_job_takes_no_start(science):
    err = science.fails("job", "submit", "user=alice", "state=pending", "start=now", code=1).stderr
    assert err == "fscli: error: a pending job has no start= or end= (use state=running)\n"
