"""``fscli sprio``: Slurm's testsuite cases through the CLI, table/JSON output, bad input."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import build_science

AT = "2026-05-01T12:00:00"
FMT = "%.15i %10B %10P %10Q %10T"


def _setup(fscli, config, partitions, qos, accounts):
    fscli.ok("cluster", "add", "c1")
    fscli.ok("config", "set", *config)
    for name, factor in partitions:
        fscli.ok("partition", "add", name, "nodes=1", "cpus=64", f"priorityjobfactor={factor}")
    for name, prio in qos:
        fscli.ok("qos", "add", name, f"priority={prio}")
    for name, prio, allowed in accounts:
        fscli.ok("account", "add", name, f"priority={prio}", f"qos={allowed}")
    fscli.ok("user", "add", "tu", f"account={','.join(a[0] for a in accounts)}")


def _job(fscli, account, partition, qos, cpus, state="pending"):
    words = [f"account={account}", f"partition={partition}", f"qos={qos}", f"cpus={cpus}"]
    out = fscli.ok("job", "submit", "user=tu", *words, f"state={state}", at=AT).stdout
    return out.split()[-1]


def _line(fscli, *args):
    return " ".join(fscli.ok("sprio", "-h", *args, at=AT).stdout.split())


def test24_6_raw_factors_with_no_normal_all(fscli):
    _setup(
        fscli,
        [
            "PriorityWeightAssoc=1",
            "PriorityWeightJobSize=1",
            "PriorityWeightPartition=1",
            "PriorityWeightQOS=1",
            "PriorityWeightTRES=cpu=1",
            "PriorityFlags=NO_NORMAL_ALL",
        ],
        [("p1", 10), ("p2", 20)],
        [("tq1", 200)],
        [("ta1", 100, "tq1")],
    )
    _job(fscli, "ta1", "p1", "tq1", 64, state="running")
    job2, job3, job4 = (_job(fscli, "ta1", p, "tq1", 64) for p in ("p1", "p2", "p1,p2"))
    assert _line(fscli, "-j", job2, "-o", FMT) == f"{job2} 100 10 200 cpu=64"
    assert _line(fscli, "-j", job3, "-o", FMT) == f"{job3} 100 20 200 cpu=64"
    assert _line(fscli, "-j", job4, "-p", "p1", "-o", FMT) == f"{job4} 100 10 200 cpu=64"
    assert _line(fscli, "-j", job4, "-p", "p2", "-o", FMT) == f"{job4} 100 20 200 cpu=64"


def test24_7_normalized_factors(fscli):
    weighted, normalized = "%.15i %10B %10P %10Q %12T", "%.15i %10b %10p %10q %12t"
    _setup(
        fscli,
        [
            "PriorityWeightAssoc=4000000",
            "PriorityWeightJobSize=1",
            "PriorityWeightPartition=60000",
            "PriorityWeightQOS=4000000",
            "PriorityWeightTRES=cpu=4000000",
        ],
        [("p1", 60000), ("p2", 30000)],
        [("tq1", 4000000), ("tq2", 2000000)],
        [("ta1", 4000000, "tq1,tq2"), ("ta2", 2000000, "tq1,tq2")],
    )
    _job(fscli, "ta1", "p1", "tq1", 64, state="running")
    job2 = _job(fscli, "ta1", "p1", "tq1", 64)
    job3 = _job(fscli, "ta2", "p2", "tq2", 32)
    assert _line(fscli, "-j", job2, "-o", weighted) == f"{job2} 4000000 60000 4000000 cpu=4000000"
    assert _line(fscli, "-n", "-j", job2, "-o", normalized) == (
        f"{job2} 1.0000000 1.0000000 1.0000000 cpu=1.00"
    )
    assert _line(fscli, "-j", job3, "-o", weighted) == f"{job3} 2000000 30000 2000000 cpu=2000000"
    assert _line(fscli, "-n", "-j", job3, "-o", normalized) == (
        f"{job3} 0.5000000 0.5000000 0.5000000 cpu=0.50"
    )

    def set_ta1_tq1_p1(priority: int, factor: int) -> None:
        fscli.ok("account", "modify", "ta1", "set", f"priority={priority}")
        fscli.ok("qos", "modify", "tq1", "set", f"priority={priority}")
        fscli.ok("partition", "modify", "p1", "set", f"priorityjobfactor={factor}")

    # test2: ta2/tq2/p2 now hold the maximum together with ta1/tq1/p1
    set_ta1_tq1_p1(2000000, 30000)
    job_a = _job(fscli, "ta2", "p2", "tq2", 64)
    assert _line(fscli, "-j", job_a, "-o", weighted) == (
        f"{job_a} 4000000 60000 4000000 cpu=4000000"
    )
    # test3: the maxima go back to ta1/tq1/p1
    set_ta1_tq1_p1(4000000, 60000)
    job_b = _job(fscli, "ta2", "p2", "tq2", 32)
    assert _line(fscli, "-j", job_b, "-o", weighted) == (
        f"{job_b} 2000000 30000 2000000 cpu=2000000"
    )
    assert _line(fscli, "-n", "-j", job_b, "-o", normalized) == (
        f"{job_b} 0.5000000 0.5000000 0.5000000 cpu=0.50"
    )


def test24_7_admin_set_priority(fscli):
    """test4: `scontrol update jobid=<jobC> priority=999` is `fscli job modify`."""
    _setup(
        fscli,
        [
            "PriorityWeightAssoc=4000000",
            "PriorityWeightJobSize=1",
            "PriorityWeightPartition=60000",
            "PriorityWeightQOS=4000000",
            "PriorityWeightTRES=cpu=4000000",
        ],
        [("p1", 60000), ("p2", 30000)],
        [("tq1", 4000000), ("tq2", 2000000)],
        [("ta1", 4000000, "tq1,tq2"), ("ta2", 2000000, "tq1,tq2")],
    )
    job_c = _job(fscli, "ta1", "p1", "tq1", 64)
    fscli.ok("job", "modify", job_c, "priority=999")
    fmt = "%.15i %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T"
    expected = f"{job_c} 999 0 0 0 0 0 0 0 0"
    assert _line(fscli, "-j", job_c, "-o", fmt) == expected
    assert _line(fscli, "-n", "-j", job_c, "-o", fmt) == expected
    assert fscli.ok("sprio", "--explain", job_c, at=AT).stdout.splitlines()[1] == (
        "priority 999 set by an administrator: factors are not used"
    )
    assert _line(fscli, "-j", job_c, "-o", "%.15i %y") == f"{job_c} 999.00000000000000"
    [row] = [
        r
        for r in json.loads(fscli.ok("sprio", "--json", at=AT).stdout)["jobs"]
        if str(r["job_id"]) == job_c
    ]
    assert (row["priority"], row["priority_normalized"], row["admin_set"]) == (999, 999.0, True)
    fscli.ok("job", "modify", job_c, "priority=0")  # held: sprio leaves it out
    err = fscli.fails("sprio", "-j", job_c, at=AT, code=1).stderr
    assert err == "fscli: error: Unable to find jobs matching user/id(s) specified\n"
    err = fscli.fails("sprio", "--explain", job_c, at=AT, code=1).stderr
    assert err == (
        f"fscli: error: job {job_c} is not listed: held (priority 0) or not eligible yet\n"
    )
    fscli.ok("job", "modify", job_c, "priority=-1")  # back to the multifactor plugin
    assert _line(fscli, "-j", job_c, "-o", "%.15i %.10Y") == f"{job_c} 12060001"


def build_queue(fscli) -> None:
    build_science(fscli)
    fscli.ok("cluster", "modify", "c1", "set", "nodes=4", "cpus=64")
    fscli.ok("partition", "add", "p1", "nodes=4", "cpus=64", "priorityjobfactor=10")
    fscli.ok(
        "config",
        "set",
        "PriorityWeightAge=1000",
        "PriorityWeightFairshare=10000",
        "PriorityWeightJobSize=1000",
        "PriorityMaxAge=1-0",
    )
    fscli.ok("job", "submit", "user=alice", "partition=p1", "cpus=16", "submit=now-6hours", at=AT)
    fscli.ok("job", "submit", "user=bob", "partition=p1", "cpus=4", "submit=now-12hours", at=AT)


@pytest.fixture
def queue(fscli, template):
    """The store :func:`build_queue` leaves, copied from its template."""
    return template(fscli, build_queue)


def test_rich_table_on_a_terminal(queue, monkeypatch):
    monkeypatch.setattr("fscli.render.tables.is_terminal", lambda stream: True)
    out = re.sub(r"\x1b\[[0-9;]*m", "", queue.ok("sprio", at=AT).stdout)
    lines = [line.rstrip() for line in out.splitlines() if line.strip()]
    assert lines[0].split() == [
        "JOBID",
        "PARTITION",
        "PRIORITY",
        "SITE",
        "AGE",
        "FAIRSHARE",
        "JOBSIZE",
    ]
    assert lines[2].split() == ["1", "p1", "10500", "0", "250", "10000", "250"]
    assert lines[3].split() == ["2", "p1", "10656", "0", "500", "10000", "156"]


def test_text_when_piped_and_sort(queue):
    out = queue.ok("sprio", "-S", "-y", at=AT).stdout
    assert out.splitlines() == [
        "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE",
        "              2 p1             10656          0        500      10000        156",
        "              1 p1             10500          0        250      10000        250",
    ]


def test_json(queue):
    doc = json.loads(queue.ok("sprio", "--json", "-u", "alice", at=AT).stdout)
    assert doc["weights"] == {
        "age": 1000,
        "assoc": 0,
        "fairshare": 10000,
        "jobsize": 1000,
        "partition": 0,
        "qos": 0,
        "tres": {},
    }
    [row] = doc["jobs"]
    assert (row["job_id"], row["user"], row["account"], row["priority"]) == (
        1,
        "alice",
        "physics",
        10500,
    )
    assert row["factors"]["age"] == 0.25 and row["factors"]["jobsize"] == 0.25
    assert doc["warnings"] == []


def test_sprio_format_env(queue, monkeypatch):
    monkeypatch.setenv("SPRIO_FORMAT", "%i:%Y")
    assert queue.ok("sprio", "-h", at=AT).stdout == "1:10500\n2:10656\n"


def test_overflowing_weights_warn_on_stderr(queue):
    queue.ok("config", "set", "PriorityWeightQOS=4294967295")
    result = queue.ok("sprio", "-h", "-o", "%i", at=AT)
    assert result.stdout == "1\n2\n"
    assert result.stderr == (
        "fscli: warning: PriorityWeight values too high, job priority value may overflow\n"
    )


@pytest.mark.parametrize(
    "args, code, message",
    [
        (
            ["-l", "-o", "%i"],
            1,
            "Options -o(--format) and -l(--long) are mutually exclusive. "
            "Please remove one and retry.",
        ),
        (
            ["-o", "%i %z"],
            1,
            "Invalid job format specification: '%z' in '%i %z' "
            "(letters: A B F J N P Q S T Y a b c f i j n o p q r t u y)",
        ),
        (["-j", "99"], 1, "Unable to find jobs matching user/id(s) specified"),
        (["-j", "99999999999999999999"], 1, "Unable to find jobs matching user/id(s) specified"),
        (["-u", "nobody"], 1, "Unable to find jobs matching user/id(s) specified"),
        (["-j", "x1"], 1, "Invalid job id: x1"),
        (
            ["-S", "z"],
            1,
            "Invalid sort specification: z (use c i N r u a f j p q t y, each "
            "optionally after - for descending)",
        ),
        (["--explain", "7"], 1, "job 7 does not exist"),
        (
            ["--algorithm", "best"],
            2,
            "unknown algorithm 'best': expected one of fair_tree, classic, depth_oblivious, linear",
        ),
    ],
)
def test_bad_input(queue, args, code, message):
    err = queue.fails("sprio", *args, at=AT, code=code).stderr
    assert err == f"fscli: error: {message}\n"


def test_basic_priority_plugin_is_refused(queue):
    queue.ok("config", "set", "PriorityType=priority/basic")
    err = queue.fails("sprio", code=1).stderr
    assert err == "fscli: error: You are not running a supported priority plugin\n"


def test_demo_helpers(fscli, monkeypatch, capsys):
    """The demo's jobs (fscli.api.demo) and sprio -l for people (render.sprio.show_table)."""
    from fscli.api import open_store
    from fscli.api.demo import build_demo, demo_jobs
    from fscli.api.when import moment
    from fscli.render.sprio import default_format, show_table

    store = open_store(fscli.db)
    with store.transaction(at=AT) as tx:  # the demo's tree and jobs, no usage
        build_demo(tx)
        demo_jobs(tx, moment(AT))
    with monkeypatch.context() as terminal:  # -o is text even on a terminal
        terminal.setattr("fscli.render.tables.is_terminal", lambda stream: True)
        out = fscli.ok("--cluster", "demo", "sprio", "-h", "-o", "%u %Y", at=AT).stdout
    assert [line.split()[0] for line in out.splitlines()] == [
        "user1",
        "user2",
        "user3",
        "user4",
        "user5",
        "ana",
    ]
    capsys.readouterr()
    result = store.priorities("demo", AT)
    show_table(result.rows, result.config, default_format(result.config, long=True))
    store.close()
    shown = [line.split() for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert shown[0] == [
        "JOBID",
        "PARTITION",
        "USER",
        "PRIORITY",
        "SITE",
        "AGE",
        "ASSOC",
        "FAIRSHARE",
        "JOBSIZE",
        "PARTITION",
        "QOS",
        "NICE",
        "TRES",
    ]
    assert shown[1] == [
        "1",
        "batch",
        "user1",
        "11595",
        "0",
        "556",
        "0",
        "10000",
        "40",
        "1000",
        "0",
        "0",
    ]
    assert [row[2] for row in shown[1:]] == ["user1", "user2", "user3", "user4", "user5", "ana"]


def test_the_warnings_come_before_a_selection_that_finds_no_job(queue):
    queue.ok("config", "set", "PriorityWeightQOS=4294967295")
    result = queue("sprio", "-j", "99", at=AT)
    assert result.exit_code == 1
    assert result.stderr == (
        "fscli: warning: PriorityWeight values too high, job priority value may overflow\n"
        "fscli: error: Unable to find jobs matching user/id(s) specified\n"
    )
