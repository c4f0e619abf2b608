"""Multifactor priority against Slurm's own tests (test24.5/6/7), the docs and the formulas."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from fscli.engine.config import PriorityConfig, validate
from fscli.engine.model import Assoc, ClusterInfo, Job, Partition, Qos
from fscli.engine.priority import (
    FACTORS,
    OVERFLOW_WARNING,
    check_nice,
    check_site_factor,
    cluster_size,
    config_warnings,
    explain,
    filter_columns,
)
from fscli.errors import InvalidValue, NotFound
from fscli.render.sprio import render
from tests.engine.adapt import compute_priorities

GOLDEN = Path(__file__).parents[1] / "data/golden"
NOW = 1_800_000_000


def _golden(name: str) -> dict:
    return yaml.safe_load((GOLDEN / name).read_text())


def _config(**values: str) -> PriorityConfig:
    return PriorityConfig.from_mapping(dict(validate(k, v) for k, v in values.items()))


def _run(jobs, config, *, assocs=None, qos=None, parts=None, cluster=None, fs=None, now=NOW):
    parts = parts or {"p": Partition("p", nodes=1, cpus=8)}
    return compute_priorities(
        jobs, assocs or {}, qos or {}, parts, cluster or ClusterInfo("c"), config, fs or {}, now
    )


# --- Slurm's test suite -------------------------------------------------------------------


class Scenario:
    """A test24.6/24.7 cluster: one node of ``cpus`` CPUs in every partition."""

    def __init__(self, setup: dict, cpus: int):
        self.cpus = cpus
        self.parts = {
            p["name"]: Partition(
                p["name"], nodes=1, cpus=cpus, priority_job_factor=p["PriorityJobFactor"]
            )
            for p in setup["partitions"]
        }
        self.qos = {q["name"]: Qos(q["name"], priority=q["priority"]) for q in setup["qos"]}
        self.assocs = {1: Assoc(1, None, "root")}
        for account in setup["accounts"]:
            acct_id = len(self.assocs) + 1
            self.assocs[acct_id] = Assoc(acct_id, 1, account["name"], priority=account["priority"])
            # the user association inherits the account's priority (checks_scontrol)
            self.assocs[acct_id + 1] = Assoc(acct_id + 1, acct_id, account["name"], user="tester")
        self.jobs: dict[str, Job] = {}

    def submit(self, name: str, args: str, state: str) -> None:
        cpus = int(
            re.search(r"-n(\S+)", args)
            .group(1)
            .replace("<cpu_cnt_half>", str(self.cpus // 2))
            .replace("<cpu_cnt>", str(self.cpus))
        )
        self.jobs[name] = Job(
            id=100 + len(self.jobs),
            user="tester",
            account=re.search(r"-A (\S+)", args).group(1),
            partitions=tuple(re.search(r"-p (\S+)", args).group(1).split(",")),
            qos=re.search(r"--qos=(\S+)", args).group(1),
            state=state.lower(),
            submit=NOW - 10,
            cpus=cpus,
        )

    def sprio(self, config: PriorityConfig, name: str, fmt: str, **options) -> str:
        result = compute_priorities(
            list(self.jobs.values()),
            self.assocs,
            self.qos,
            self.parts,
            ClusterInfo("c", nodes=1, cpus=self.cpus),
            config,
            {},
            NOW,
        )
        rows = filter_columns(
            result.columns, jobs=[self.jobs[name].id], partitions=options.pop("partitions", None)
        )
        return render(rows, config, fmt=fmt, **options)

    def expect(self, text: str, regex: str, name: str) -> None:
        regex = regex.replace("<cpu_cnt>", str(self.cpus)).replace(name, str(self.jobs[name].id))
        assert re.search(regex, text), (regex, text)


def _suite_config(golden: dict) -> PriorityConfig:
    keys = {k: str(v) for k, v in golden["config"].items() if k.startswith("PriorityWeight")}
    flags = str(golden["config"]["PriorityFlags"])
    return _config(**keys, PriorityFlags=flags if flags.startswith("NO_") else "")


@pytest.mark.parametrize("cpus", [4, 64])
def test_24_6_non_normalized_factors(cpus):
    golden = _golden("slurm-testsuite/test24.6.yaml")
    config = _suite_config(golden)
    assert {"NO_NORMAL_ALL"} <= config.flags
    scenario = Scenario(golden["setup"], cpus)
    for job in golden["setup"]["jobs"]:
        scenario.submit(job["id"], job["args"], job["state"])
    for check in golden["expected"]:
        name = check["cmd"].split()[2]
        part = re.search(r"-p (\S+)", check["cmd"])
        text = scenario.sprio(
            config, name, golden["sprio_format"], partitions=[part.group(1)] if part else None
        )
        assert len(text.splitlines()) == 1 + check["count"]
        scenario.expect(text, check["regex"], name)


def test_24_6_running_job_is_not_listed():
    golden = _golden("slurm-testsuite/test24.6.yaml")
    scenario = Scenario(golden["setup"], 8)
    for job in golden["setup"]["jobs"]:
        scenario.submit(job["id"], job["args"], job["state"])
    with pytest.raises(NotFound, match="Unable to find jobs"):
        scenario.sprio(_suite_config(golden), "job1", golden["sprio_format"])


@pytest.mark.parametrize("cpus", [2, 48])
def test_24_7_normalized_factors(cpus):
    golden = _golden("slurm-testsuite/test24.7.yaml")
    config = _suite_config(golden)
    scenario = Scenario(golden["setup"], cpus)
    restore = {}
    for step in golden["steps"]:
        if step["name"] == "test2":  # the max priorities move to ta2/tq2/p2
            restore = {"ta1": 4000000, "tq1": 4000000, "p1": 60000}
            _set_priorities(scenario, ta1=2000000, tq1=2000000, p1=30000)
        if step["name"] == "test3":
            _set_priorities(scenario, **restore)
        if step["name"] == "test4":
            scenario.jobs["jobC"] = Job(
                id=999_001,
                user="tester",
                account="ta1",
                partitions=("p1",),
                qos="tq1",
                submit=NOW - 5,
                admin_priority=999,
            )
        for job in step.get("jobs", []):
            scenario.submit(job["id"], job["args"], job["state"])
        for check in step["expected"]:
            name = re.search(r"-j (\w+)", check["cmd"]).group(1)
            fmt = re.search(r"-o '([^']+)'", check["cmd"])
            normalized = " -n " in check["cmd"]
            fmt = (
                fmt.group(1)
                if fmt
                else ("%.15i %10b %10p %10q %12t" if normalized else "%.15i %10B %10P %10Q %12T")
            )
            if check["cmd"].endswith("-o same"):
                fmt = re.search(r"-o '([^']+)'", step["expected"][0]["cmd"]).group(1)
            text = scenario.sprio(config, name, fmt, normalized=normalized)
            scenario.expect(text, check["regex"], name)


def _set_priorities(scenario: Scenario, ta1: int, tq1: int, p1: int) -> None:
    account = next(a for a in scenario.assocs.values() if a.account == "ta1" and not a.user)
    account.priority = ta1
    scenario.qos["tq1"].priority = tq1
    scenario.parts["p1"].priority_job_factor = p1


def test_24_5_site_factor_range_and_sprio_column():
    golden = _golden("slurm-testsuite/test24.5.yaml")
    for check in golden["expected"]:
        value = int(check["action"].split("=")[1])
        if "error" in check:
            with pytest.raises(InvalidValue, match="^SiteFactor value out of range$"):
                check_site_factor(value)
            continue
        job = Job(
            id=7, user="u", partitions=("p",), submit=NOW, site_factor=check_site_factor(value)
        )
        text = render(_run([job], _config()).rows, _config(), fmt="%.15i %S", header=False)
        assert re.search(check["sprio_regex"].replace("<job>", "7"), text), text


def test_site_factor_below_one_gives_priority_one():
    job = Job(id=7, user="u", partitions=("p",), submit=NOW, site_factor=-2147483645)
    (row,) = _run([job], _config()).rows
    assert (row.exact, row.priority) == (1.0, 1)


# --- Slurm documentation ------------------------------------------------------------------


@pytest.mark.parametrize(
    "flags, key",
    [("", "default_normalized"), ("NO_NORMAL_PART", "with_PriorityFlags_NO_NORMAL_PART")],
)
def test_doc_partition_normalization(flags, key):
    golden = _golden("slurm-docs/priority_multifactor_partition_normalization.yaml")
    config = _config(PriorityFlags=flags, **{k: str(v) for k, v in golden["config"].items()})
    parts = {
        p["name"]: Partition(p["name"], nodes=1, cpus=1, priority_job_factor=p["PriorityJobFactor"])
        for p in golden["partitions"]
    }
    jobs = [
        Job(id=i, user="u", partitions=(name,), submit=NOW) for i, name in enumerate(parts, start=1)
    ]
    rows = _run(jobs, config, parts=parts).rows
    assert {r.partition: r.weighted["partition"] for r in rows} == golden["expected"][key]


# --- factors ------------------------------------------------------------------------------


def test_age_from_eligible_time_or_submit_with_accrue_always():
    job = Job(id=1, user="u", partitions=("p",), submit=NOW - 3 * 86400, eligible=NOW - 86400)
    week = {"PriorityWeightAge": "1000", "PriorityMaxAge": "7-0"}
    (row,) = _run([job], _config(**week)).rows
    assert row.factors["age"] == pytest.approx(1 / 7)
    (row,) = _run([job], _config(PriorityFlags="ACCRUE_ALWAYS", **week)).rows
    assert row.factors["age"] == pytest.approx(3 / 7)
    old = Job(id=2, user="u", partitions=("p",), submit=NOW - 30 * 86400)
    (row,) = _run([old], _config(**week)).rows
    assert row.factors["age"] == 1.0


def test_age_is_counted_to_the_last_pass_as_the_controller_set_it():
    """slurmctld sets the factors at submission and at each pass, and sprio shows them: at
    NOW + 4 min (passes every 5 minutes from NOW, or every 7 from an anchor 3 minutes
    later) a job waits to the last pass; one eligible since then, or submitted, has waited
    0, and a pass moment counts as its own."""
    week = {"PriorityWeightAge": "1000", "PriorityMaxAge": "7-0"}
    before = Job(id=1, user="u", partitions=("p",), submit=NOW - 86400)
    since = Job(id=2, user="u", partitions=("p",), submit=NOW - 600, eligible=NOW + 60)
    came = Job(id=3, user="u", partitions=("p",), submit=NOW + 120)
    at = NOW + 240
    rows = _run([before, since, came], _config(**week), now=at).rows
    assert [r.factors["age"] for r in rows] == [pytest.approx(1 / 7), 0.0, 0.0]
    anchored = _config(PriorityCalcAnchor=str(NOW + 180), PriorityCalcPeriod="7", **week)
    rows = _run([before, since, came], anchored, now=at).rows  # the pass at NOW + 180
    assert [r.factors["age"] * 7 * 86400 for r in rows] == pytest.approx([86580, 120, 60])
    (row,) = _run([before], _config(**week), now=NOW + 300).rows
    assert row.factors["age"] * 7 * 86400 == pytest.approx(86700)


def test_not_yet_eligible_held_and_running_jobs_are_not_listed():
    jobs = [
        Job(id=1, user="u", partitions=("p",), submit=NOW - 60, eligible=NOW + 60),
        Job(id=2, user="u", partitions=("p",), submit=NOW, admin_priority=0),
        Job(id=3, user="u", partitions=("p",), submit=NOW, state="running"),
        Job(id=4, user="u", partitions=("p",), submit=NOW, state="completed"),
    ]
    assert _run(jobs, _config()).rows == []
    assert [r.job_id for r in _run(jobs, _config(PriorityFlags="ACCRUE_ALWAYS")).rows] == [1]
    running = _run(jobs, _config(PriorityFlags="CALCULATE_RUNNING")).rows
    assert [r.job_id for r in running] == [3]


@pytest.mark.parametrize(
    "extra, nodes, cpus, expected",
    [
        ({}, 2, 16, (2 / 10 + 16 / 320) / 2),
        ({"PriorityFavorSmall": "YES"}, 2, 16, ((10 - 2) / 10 + (320 - 16) / 320) / 2),
        ({"PriorityFlags": "SMALL_RELATIVE_TO_TIME"}, 2, 16, 64 / 60 / 320),
        ({"PriorityFlags": "SMALL_RELATIVE_TO_TIME"}, 1, 100, 100 / 60 / 320),
        (
            {"PriorityFlags": "SMALL_RELATIVE_TO_TIME", "PriorityFavorSmall": "YES"},
            2,
            16,
            1 - 64 / 60 / 320,
        ),
    ],
)
def test_job_size_factor(extra, nodes, cpus, expected):
    config = _config(PriorityWeightJobSize="1000", **extra)
    job = Job(id=1, user="u", partitions=("p",), submit=NOW, nodes=nodes, cpus=cpus, time_limit=60)
    (row,) = _run([job], config, cluster=ClusterInfo("c", nodes=10, cpus=320)).rows
    assert row.factors["jobsize"] == pytest.approx(expected, abs=1e-12)


def test_job_size_relative_to_time_without_any_limit_divides_by_infinite():
    # no time limit and a partition without MaxTime: Slurm divides by INFINITE (0xFFFFFFFF)
    config = _config(PriorityWeightJobSize="1000", PriorityFlags="SMALL_RELATIVE_TO_TIME")
    job = Job(id=1, user="u", partitions=("p",), submit=NOW, nodes=2, cpus=16)
    (row,) = _run([job], config, cluster=ClusterInfo("c", nodes=10, cpus=320)).rows
    assert row.factors["jobsize"] == pytest.approx(64 / 0xFFFFFFFF / 320, rel=1e-12, abs=0)


def test_cluster_size_defaults_to_largest_partition():
    parts = {"a": Partition("a", nodes=4, cpus=128), "b": Partition("b", nodes=10, cpus=320)}
    assert cluster_size(ClusterInfo("c"), parts) == (10, 320)
    assert cluster_size(ClusterInfo("c", nodes=20, cpus=640), parts) == (20, 640)
    config = _config(PriorityWeightJobSize="1000")
    result = _run(
        [Job(id=1, user="u", partitions=("p",), submit=NOW)], config, parts={"p": Partition("p")}
    )
    assert result.rows[0].factors["jobsize"] == 0
    assert "no node and CPU counts" in result.warnings[0]


def test_assoc_priority_is_inherited_and_normalized():
    assocs = {
        1: Assoc(1, None, "root"),
        2: Assoc(2, 1, "a", priority=50),
        3: Assoc(3, 2, "a", user="u"),
        4: Assoc(4, 1, "b", priority=200),
        5: Assoc(5, 4, "b", user="u", priority=20),
    }
    jobs = [
        Job(id=1, user="u", account="a", partitions=("p",), submit=NOW),
        Job(id=2, user="u", account="b", partitions=("p",), submit=NOW),
    ]
    rows = _run(jobs, _config(PriorityWeightAssoc="1000"), assocs=assocs).rows
    assert [r.factors["assoc"] for r in rows] == [50 / 200, 20 / 200]
    assert [r.assoc_id for r in rows] == [3, 5]
    raw = _run(
        jobs, _config(PriorityWeightAssoc="1", PriorityFlags="NO_NORMAL_ASSOC"), assocs=assocs
    ).rows
    assert [r.weighted["assoc"] for r in raw] == [50, 20]


def test_fairshare_factor_comes_from_the_job_association():
    assocs = {1: Assoc(1, None, "root"), 2: Assoc(2, 1, "a"), 3: Assoc(3, 2, "a", user="u")}
    job = Job(id=1, user="u", account="a", partitions=("p",), submit=NOW)
    (row,) = _run([job], _config(PriorityWeightFairshare="10000"), assocs=assocs, fs={3: 0.25}).rows
    assert row.weighted["fairshare"] == 2500 and row.priority == 2500


def test_tres_factor_per_partition_of_a_multi_partition_job():
    parts = {
        "small": Partition("small", nodes=1, cpus=8, tres={"gres/gpu": 2}),
        "big": Partition("big", nodes=4, cpus=32, tres={"gres/gpu": 8}),
    }
    config = _config(PriorityWeightTRES="cpu=1000,gres/gpu=4000")
    job = Job(id=1, user="u", partitions=("small", "big"), submit=NOW, cpus=4, tres={"gres/gpu": 2})
    rows = _run([job], config, parts=parts).rows
    assert [r.partition for r in rows] == ["small", "big"]
    assert [r.tres_weighted for r in rows] == [
        {"cpu": 500, "gres/gpu": 4000},
        {"cpu": 125, "gres/gpu": 1000},
    ]
    assert [r.priority for r in rows] == [4500, 1125]
    no_gpus = {"p": Partition("p", nodes=1, cpus=8)}
    (row,) = _run(
        [Job(id=2, user="u", partitions=("p",), submit=NOW, cpus=8, tres={"gres/gpu": 1})],
        config,
        parts=no_gpus,
    ).rows
    assert row.tres_weighted == {"cpu": 1000, "gres/gpu": 0}


def test_nice_truncation_and_32_bit_cap():
    qos = {"top": Qos("top", priority=1)}
    config = _config(
        PriorityWeightQOS="4294967295", PriorityWeightAge="4294967295", PriorityMaxAge="1"
    )
    assert config_warnings(config) == [OVERFLOW_WARNING]
    job = Job(id=1, user="u", partitions=("p",), qos="top", submit=NOW - 60)
    result = _run([job], config, qos=qos)
    assert result.rows[0].priority == 4294967295
    assert result.rows[0].exact == 2 * 4294967295
    assert "exceeds 32 bits. Reducing it to 4294967295 (2^32 - 1)" in result.warnings[-1]
    nice = Job(id=2, user="u", partitions=("p",), submit=NOW - 30, nice=100)
    (row,) = _run(
        [nice],
        _config(PriorityWeightAge="1000", PriorityMaxAge="1"),
    ).rows
    assert (row.exact, row.priority) == (400.0, 400)
    assert config_warnings(_config(PriorityWeightAge="4294967295")) == []


def test_bad_input_raises_one_line_errors():
    with pytest.raises(NotFound, match="partition 'nope' does not exist"):
        _run([Job(id=1, user="u", partitions=("nope",), submit=NOW)], _config())
    with pytest.raises(NotFound, match="QOS 'gold' does not exist"):
        _run([Job(id=1, user="u", partitions=("p",), qos="gold", submit=NOW)], _config())
    with pytest.raises(InvalidValue, match="job 1 has no partition"):
        _run([Job(id=1, user="u", submit=NOW)], _config())
    with pytest.raises(InvalidValue, match="invalid nice value"):
        check_nice(2147483646)
    assert check_nice(-5) == -5


def test_explain_names_every_input():
    assocs = {1: Assoc(1, None, "root"), 2: Assoc(2, 1, "a"), 3: Assoc(3, 2, "a", user="u")}
    config = _config(
        PriorityWeightAge="1000",
        PriorityMaxAge="7-0",
        PriorityWeightFairshare="10000",
        PriorityWeightJobSize="100",
        PriorityWeightTRES="cpu=2000",
    )
    job = Job(id=9, user="u", account="a", partitions=("p",), submit=NOW - 183600, cpus=2, nice=10)
    (row,) = _run(
        [job], config, assocs=assocs, fs={3: 0.5}, cluster=ClusterInfo("c", nodes=4, cpus=32)
    ).rows
    lines = explain(row)
    assert lines[1] == (
        "age: waited 2-03:00:00 (since eligible, to the last pass) of PriorityMaxAge "
        "7-00:00:00 -> 0.303571 x 1000 = 303.57"
    )
    assert lines[2] == "fair-share: association 3 (u/a) -> 0.5 x 10000 = 5000.00"
    assert lines[3] == "job size: (1/4 nodes + 2/32 CPUs) / 2 -> 0.15625 x 100 = 15.62"
    assert lines[4] == "tres cpu: 2 of 8 in p -> 0.25 x 2000 = 500.00"
    assert lines[5] == "nice: -10"
    # 303.571428... + 5000 + 15.625 + 500 - 10
    assert lines[-1] == "priority: 5809.20 -> 5809"
    assert row.priority == int(303.5714285 + 5000 + 15.625 + 500 - 10)


def test_admin_set_priority_zeroes_factors():
    job = Job(id=5, user="u", partitions=("p",), submit=NOW, admin_priority=999, nice=50)
    (row,) = _run([job], _config(PriorityWeightAge="1000")).rows
    assert (row.priority, row.admin_set, set(row.weighted.values())) == (999, True, {0.0})
    assert row.normalized_priority == 999.0  # sprio's %y shows an admin-set value as it is
    assert explain(row)[-1] == "priority 999 set by an administrator: factors are not used"


def test_jobs_of_one_shape_keep_their_own_factors():
    """Jobs with the same partitions, size, time limit and TRES share the size, partition
    and TRES factors; age, association, fair-share, QOS and nice stay the job's own."""
    assocs = {
        1: Assoc(1, None, "root"),
        2: Assoc(2, 1, "a"),
        3: Assoc(3, 2, "a", user="u"),
        4: Assoc(4, 2, "a", user="v"),
    }
    qos = {"hi": Qos("hi", priority=10), "lo": Qos("lo", priority=5)}
    parts = {"p": Partition("p", nodes=2, cpus=16, priority_job_factor=1)}
    config = _config(
        PriorityWeightAge="700",
        PriorityMaxAge="7",
        PriorityWeightFairshare="1000",
        PriorityWeightQOS="100",
        PriorityWeightJobSize="80",
        PriorityWeightPartition="10",
        PriorityWeightTRES="cpu=160",
    )
    shape = {"partitions": ("p",), "cpus": 4, "nodes": 1, "time_limit": 30}
    jobs = [
        Job(id=1, user="u", account="a", qos="hi", submit=NOW - 7 * 60, **shape),
        Job(id=2, user="v", account="a", qos="lo", submit=NOW - 60, nice=3, **shape),
        Job(id=3, user="u", account="a", submit=NOW, admin_priority=42, **shape),
    ]
    rows = _run(jobs, config, assocs=assocs, qos=qos, parts=parts, fs={3: 0.5, 4: 0.25}).rows
    # size (1/2 + 4/16) / 2 = 0.375 -> 30, partition 10, cpu 4/16 x 160 = 40: 80 for both
    assert [(r.assoc_id, r.weighted, r.tres_weighted, r.nice, r.priority) for r in rows] == [
        (
            3,
            {"age": 700, "assoc": 0, "fairshare": 500, "jobsize": 30, "partition": 10, "qos": 100},
            {"cpu": 40},
            0,
            1380,
        ),
        (
            4,
            {"age": 100, "assoc": 0, "fairshare": 250, "jobsize": 30, "partition": 10, "qos": 50},
            {"cpu": 40},
            3,
            477,
        ),
        (3, dict.fromkeys(FACTORS, 0.0), {}, 0, 42),
    ]
    ghost = Job(id=4, user="u", account="a", qos="ghost", submit=NOW, **shape)
    with pytest.raises(NotFound, match="job 4: QOS 'ghost' does not exist"):
        _run([*jobs, ghost], config, assocs=assocs, qos=qos, parts=parts)
