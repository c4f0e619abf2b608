"""LSF dynamic user priority from job records: the seed's worked numbers, decay, terms,
share resolution (users, groups, group@, default, others, share trees) and explain."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from fscli.engine.lsf.params import LsfParams
from fscli.engine.lsf.share_info import explain, share_info
from fscli.engine.lsf.share_text import parse_user_shares
from fscli.engine.lsf.shares import (
    DEFAULT,
    EACH,
    GROUP,
    OTHERS,
    LsfQueue,
    ShareEntry,
    UserGroup,
    resolve_shares,
)
from fscli.engine.lsf.usage import Usage, decayed, dynamic_priority, job_usage, usage_by_user
from fscli.engine.model import Job
from fscli.errors import InvalidValue, NotFound

SEED = json.loads((Path(__file__).parents[1] / "data" / "lsf" / "seed002_worked.json").read_text())
NOW = 1_700_000_000
HOUR = 3600


def job(
    user: str,
    state: str,
    *,
    queue: str = "normal",
    slots: int = 1,
    start: int | None = None,
    end: int | None = None,
    cputime: float | None = None,
    limit: int | None = None,
) -> Job:
    return Job(
        id=0,
        user=user,
        queue=queue,
        state=state,
        slots=slots,
        start=start,
        end=end,
        cputime=cputime,
        time_limit=limit,
    )


def seed_queue(text: str) -> LsfQueue:
    return LsfQueue("normal", 30, parse_user_shares(text), dict(SEED["params"]))


def seed_running_jobs() -> list[Job]:
    case = SEED["running"]
    n, total = case["jobs"], case["cpu_seconds_total"]
    cpu = [total // n + (1 if i < total % n else 0) for i in range(n)]  # 115 x7, 114 x3
    return [
        job(case["user"], "running", start=NOW - case["run_seconds_each"], cputime=c) for c in cpu
    ]


def rows_by_name(blocks):
    return {row.name: row for block in blocks for row in block.rows}


def test_seed_running_and_idle_users():
    queue = seed_queue(SEED["fairshare"])
    blocks = share_info(queue, seed_running_jobs(), NOW, users=[SEED["idle"]["user"]])
    assert [b.path for b in blocks] == ["normal/"]
    assert [r.name for r in blocks[0].rows] == ["tadmin2", "tadmin1"]  # priority descending
    for case in (SEED["running"], SEED["idle"]):
        row = rows_by_name(blocks)[case["user"]]
        want = case["bqueues"]
        assert row.shares == want["SHARES"]
        assert abs(row.priority - float(want["PRIORITY"])) <= 5e-4
        assert f"{row.priority:.3f}" == want["PRIORITY"]
        assert row.started == want["STARTED"]
        assert f"{row.cpu_time:.1f}" == want["CPU_TIME"]
        assert f"{row.run_time:.0f}" == want["RUN_TIME"]
    assert rows_by_name(blocks)["tadmin1"].priority == pytest.approx(
        1000 / (1147 / HOUR * 0.7 + 3010 / HOUR * 0.7 + 33), rel=1e-12
    )


def test_seed_history_after_100_finished_jobs():
    case = SEED["history"]
    queue = seed_queue(SEED["fairshare"])
    queue.params.update(case["params"])
    run = case["run_seconds_each"]
    jobs = [
        job(case["user"], "completed", start=NOW - run, end=NOW, cputime=run * case["cpu_fraction"])
        for _ in range(case["jobs"])
    ]
    row = rows_by_name(share_info(queue, jobs, NOW))[case["user"]]
    assert f"{row.priority:.3f}" == case["priority"]
    assert row.cpu_time == pytest.approx(180000)
    assert row.hist_run_time == pytest.approx(360000)
    assert row.run_time == 0 and row.started == 0
    # Without ENABLE_HIST_RUN_TIME only the CPU time counts: 1000 / (35 + 3).
    queue.params.pop("ENABLE_HIST_RUN_TIME")
    row = rows_by_name(share_info(queue, jobs, NOW))[case["user"]]
    assert row.priority == pytest.approx(1000 / 38, rel=1e-12)


def test_finished_cpu_time_decays_to_a_tenth_after_hist_hours():
    params = LsfParams()
    finished = job("u", "completed", start=NOW - 6 * HOUR, end=NOW - 5 * HOUR, cputime=3600)
    assert job_usage(finished, NOW, params).cpu_time == pytest.approx(360.0, rel=1e-12)
    half = job_usage(finished, NOW - int(2.5 * HOUR), params).cpu_time
    assert half == pytest.approx(3600 * 0.1**0.5, rel=1e-12)
    assert decayed(100.0, 10 * HOUR, 0) == 100.0  # HIST_HOURS=0: no decay
    assert job_usage(finished, NOW, LsfParams(hist_hours=10)).cpu_time == pytest.approx(
        3600 * 0.1**0.5, rel=1e-12
    )


def test_running_job_counts_in_full_and_run_time_decays_only_when_asked():
    running = job("u", "running", start=NOW - 10 * HOUR, cputime=7200, limit=24 * 60, slots=4)
    use = job_usage(running, NOW, LsfParams())
    assert (use.cpu_time, use.run_time, use.started) == (7200, 10 * HOUR, 4)
    assert use.committed_run_time == 24 * HOUR
    decaying = job_usage(running, NOW, LsfParams(run_time_decay=True))
    scale = 5 * HOUR  # each second used decays by 0.1 ** (age / HIST_HOURS)
    assert decaying.run_time == pytest.approx(scale / math.log(10) * (1 - 0.01), rel=1e-12)
    assert decaying.cpu_time == 7200


def test_pending_jobs_reserve_only_with_a_planned_start():
    assert job_usage(job("u", "pending", slots=8), NOW, LsfParams()) == Usage()
    assert job_usage(job("u", "pending", slots=8, start=NOW + 60), NOW, LsfParams()) == Usage(
        reserved=8
    )
    assert job_usage(job("u", "cancelled"), NOW, LsfParams()) == Usage()


def test_every_term_of_the_formula():
    params = LsfParams(committed_run_time_factor=0.5, fairshare_adjustment_factor=2.0)
    use = Usage(
        cpu_time=3600,
        run_time=7200,
        hist_run_time=1800,
        committed_run_time=4 * HOUR,
        started=2,
        reserved=3,
    )
    denominator = 1 * 0.7 + (0.5 + 2) * 0.7 + (4 - 2) * 0.5 + (1 + 5) * 3 + 1.5 * 2.0
    assert dynamic_priority(100, use, params, adjustment=1.5) == pytest.approx(
        100 / denominator, rel=1e-12
    )


def test_static_fairshare_ranks_by_shares_alone():
    zero = {k: "0" for k in ("CPU_TIME_FACTOR", "RUN_TIME_FACTOR", "RUN_JOB_FACTOR")}
    queue = LsfQueue("q", shares=parse_user_shares("USER_SHARES[[a, 30] [b, 10]]"), params=zero)
    jobs = [job("b", "running", queue="q", start=NOW - HOUR, cputime=HOUR)]
    rows = share_info(queue, jobs, NOW)[0].rows
    assert [(r.name, r.priority) for r in rows] == [("a", 30.0), ("b", 10.0)]


def test_adjust_column_is_the_adjustment_term():
    queue = LsfQueue(
        "q", shares=(ShareEntry("a", 10),), params={"FAIRSHARE_ADJUSTMENT_FACTOR": "0.5"}
    )
    row = share_info(queue, [], NOW, adjustments={"a": 4})[0].rows[0]
    assert (row.adjustment, row.adjust) == (4, 2.0)
    assert row.priority == pytest.approx(10 / 5)


def test_usage_counts_only_the_queue_own_jobs():
    jobs = [
        job("a", "running", queue="short", start=NOW - 60),
        job("a", "running", queue="normal", start=NOW - 120),
    ]
    usage = usage_by_user(jobs, "normal", NOW, LsfParams())
    assert usage == {"a": Usage(run_time=120, committed_run_time=120, started=1)}


def test_default_gives_each_user_shares_total_56():
    entries = (ShareEntry("User1", 10), ShareEntry("User2", 6), ShareEntry("default", 4, DEFAULT))
    users = [f"User{i}" for i in range(1, 13)]
    blocks = share_info(LsfQueue("q", shares=entries), [], NOW, users=users)
    rows = rows_by_name(blocks)
    assert blocks[0].total_shares == 56
    assert len(rows) == 12
    assert rows["User1"].share_fraction == pytest.approx(10 / 56)
    assert rows["User7"].shares == 4


GROUPS = {
    "eng": UserGroup("eng", ("ann", "bob", "ops")),
    "ops": UserGroup("ops", ("cat",)),
    "lab": UserGroup("lab", ("dan", "eve"), (ShareEntry("dan", 3), ShareEntry("eve", 1))),
}


def test_groups_each_member_default_and_others():
    universe = {"ann", "bob", "cat", "zed", "yan"}
    nodes = resolve_shares(
        (ShareEntry("eng", 5, GROUP), ShareEntry("others", 2, OTHERS)), GROUPS, universe
    )
    assert [(n.name, n.shares, sorted(n.users)) for n in nodes] == [
        ("eng", 5, ["ann", "bob", "cat"]),
        ("others", 2, ["yan", "zed"]),
    ]
    nodes = resolve_shares(
        (ShareEntry("ann", 9), ShareEntry("eng", 5, EACH), ShareEntry("default", 1, DEFAULT)),
        GROUPS,
        universe,
    )
    assert [(n.name, n.shares) for n in nodes] == [
        ("ann", 9),
        ("bob", 5),
        ("cat", 5),
        ("yan", 1),
        ("zed", 1),
    ]


def test_group_consumption_sums_members_and_subgroups():
    queue = LsfQueue("q", shares=(ShareEntry("eng", 10, GROUP), ShareEntry("zed", 10)))
    jobs = [
        job("ann", "running", queue="q", start=NOW - HOUR, cputime=HOUR),
        job("cat", "running", queue="q", start=NOW - HOUR, cputime=HOUR, slots=2),
    ]
    row = rows_by_name(share_info(queue, jobs, NOW, groups=GROUPS))["eng"]
    assert (row.started, row.cpu_time, row.run_time) == (3, 2 * HOUR, 2 * HOUR)
    assert row.priority == pytest.approx(10 / (2 * 0.7 + 2 * 0.7 + 4 * 3))


def test_share_tree_blocks_per_level():
    queue = LsfQueue("q", shares=(ShareEntry("lab", 10, GROUP), ShareEntry("zed", 10)))
    jobs = [job("dan", "running", queue="q", start=NOW, slots=5)]
    blocks = share_info(queue, jobs, NOW, groups=GROUPS)
    assert [b.path for b in blocks] == ["q/", "q/lab/"]
    top = {r.name: r.priority for r in blocks[0].rows}
    assert top == pytest.approx({"zed": 10 / 3, "lab": 10 / 18})
    assert [(r.name, r.started) for r in blocks[1].rows] == [("eve", 0), ("dan", 5)]
    assert blocks[1].rows[1].priority == pytest.approx(3 / 18)


def test_group_cycle_and_unknown_group():
    groups = {"a": UserGroup("a", ("b",)), "b": UserGroup("b", ("a", "u"))}
    with pytest.raises(InvalidValue, match=r"user group 'a' contains itself \(a -> b -> a\)"):
        resolve_shares((ShareEntry("a", 1, GROUP),), groups, ())
    with pytest.raises(NotFound, match="unknown user group 'labs'"):
        resolve_shares((ShareEntry("labs", 1, EACH),), GROUPS, ())


def test_fcfs_queue_has_no_share_info():
    assert share_info(LsfQueue("fcfs"), [job("a", "running", queue="fcfs")], NOW) == []


def test_explain_shows_formula_and_numbers():
    queue = seed_queue(SEED["fairshare"])
    lines = explain(queue, "tadmin1", seed_running_jobs(), NOW, users=["tadmin2"])
    assert lines[0] == "tadmin1 in normal/: 1000 of 2000 shares (50.00%)"
    assert lines[1].startswith("priority = shares / (cpu_time*CPU_TIME_FACTOR")
    assert "1147.0 s = 0.318611 h x 0.7 = 0.223028" in lines[4]
    assert "1 + 10 (10 started, 0 reserved) x 3 = 33.000000" in lines[7]
    assert lines[-1] == "priority = 1000 / 33.808306 = 29.579"


def test_explain_unknown_name():
    with pytest.raises(
        NotFound,
        match="'tadmin3' holds no shares in LSF queue 'normal' "
        r"\(did you mean 'tadmin1'\?\)",
    ):
        explain(seed_queue(SEED["fairshare"]), "tadmin3", seed_running_jobs(), NOW)
