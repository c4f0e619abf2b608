"""``fscli job submit|list|cancel|import``: jobs go in checked like sbatch, come out as listed."""

from __future__ import annotations

import json

import pytest

from fscli.store.db import HEAD
from tests.conftest import DATA, build_science

AT = "2026-05-01T12:00:00"
SQUEUE = DATA / "golden/slurm-22.05/limits_cr_core_memory/raw/squeue.txt"


def build_cluster(fscli) -> None:
    build_science(fscli)
    fscli.ok("cluster", "modify", "c1", "set", "nodes=4", "cpus=64")
    fscli.ok("partition", "add", "p1", "nodes=4", "cpus=64")
    fscli.ok("partition", "add", "p2", "nodes=2", "cpus=32", "priorityjobfactor=5")
    fscli.ok("qos", "add", "high", "priority=100")
    fscli.ok("user", "modify", "alice", "set", "qos=normal,high")


@pytest.fixture
def cluster(fscli, template):
    """The store :func:`build_cluster` leaves, copied from its template."""
    return template(fscli, build_cluster)


def _jobs(fscli, *words):
    return json.loads(fscli.ok("job", "list", "--json", *words).stdout)["jobs"]


def test_submit_prints_the_id_and_stores_the_request(cluster):
    result = cluster.ok(
        "job",
        "submit",
        "user=alice",
        "partition=p1",
        "cpus=8",
        "nodes=2",
        "mem=4G",
        "tres=gres/gpu=2",
        "time=2:00:00",
        "nice=10",
        at=AT,
    )
    assert result.stdout == "Submitted batch job 1\n"
    assert "submitted job 1: user=alice account=physics partition=p1 qos=normal" in result.stderr
    [job] = _jobs(cluster)
    assert job == {
        "JobID": 1,
        "User": "alice",
        "Account": "physics",
        "Partition": "p1",
        "QOS": "normal",
        "Queue": None,
        "State": "pending",
        "Submit": AT,
        "Start": None,
        "End": None,
        "CPUs": 8,
        "Nodes": 2,
        "Slots": 1,
        "TRES": {"mem": 8192, "gres/gpu": 2},  # memory in MB (docs/json.md)
        "TimeLimit": 120,  # minutes
        "Nice": 10,
        "CPUTime": None,
        "Priority": None,
        "Reason": "None",  # nothing runs: the next pass starts it
    }


def test_submit_states_times_ids_and_count(cluster):
    cluster.ok("job", "submit", "user=alice", "partition=p1,p2", "qos=high", "id=100", at=AT)
    out = cluster.ok(
        "job",
        "submit",
        "user=bob",
        "account=chem",
        "partition=p2",
        "state=running",
        "start=now-1hour",
        "submit=now-2hours",
        "count=2",
        at=AT,
    )
    assert out.stdout == "Submitted batch job 101\nSubmitted batch job 102\n"
    cluster.ok(
        "job",
        "submit",
        "user=carol",
        "partition=p1",
        "state=completed",
        "submit=2026-05-01T08:00:00",
        "end=2026-05-01T09:00:00",
        "cputime=3600",
        at=AT,
    )
    text = cluster.ok("job", "list", "-P", at=AT).stdout.splitlines()
    assert text == [
        "JobID|User|Account|Partition|QOS|Queue|State|Submit|Start|End|CPUs|Nodes|Slots|TRES|"
        "TimeLimit|Nice|CPUTime|Priority|Reason",
        "100|alice|physics|p1,p2|high||pending|2026-05-01T12:00:00|||1|1|1||UNLIMITED|0|||None",
        "101|bob|chem|p2|normal||running|2026-05-01T10:00:00|2026-05-01T11:00:00||1|1|1||"
        "UNLIMITED|0|||None",
        "102|bob|chem|p2|normal||running|2026-05-01T10:00:00|2026-05-01T11:00:00||1|1|1||"
        "UNLIMITED|0|||None",
        "103|carol|chem|p1|normal||completed|2026-05-01T08:00:00|2026-05-01T08:00:00|"
        "2026-05-01T09:00:00|1|1|1||UNLIMITED|0|3600.000000||",
    ]
    assert [j["JobID"] for j in _jobs(cluster, "state=running", "user=bob")] == [101, 102]
    assert [j["JobID"] for j in _jobs(cluster, "partition=p2")] == [100, 101, 102]


def test_lsf_job_needs_a_queue_not_an_association(fscli):
    fscli.ok("lsf", "queue", "add", "normal", "priority=30")
    result = fscli.ok(
        "job",
        "submit",
        "user=zed",
        "queue=normal",
        "slots=4",
        "state=running",
        "start=now-1hour",
        "cputime=7200",
        "time=10:00",
        at=AT,
    )
    assert result.stdout == "Submitted batch job 1\n"
    [job] = _jobs(fscli)
    assert (
        job["User"],
        job["Queue"],
        job["Slots"],
        job["State"],
        job["CPUTime"],
        job["Start"],
        job["TimeLimit"],
    ) == ("zed", "normal", 4, "running", 7200.0, "2026-05-01T11:00:00", 10)
    fscli.fails("job", "submit", "user=zed", "queue=nosuch", code=1)
    fscli.fails("job", "submit", "user=zed", "queue=normal", "account=physics", code=2)


def test_cancel(cluster):
    cluster.ok("job", "submit", "user=alice", "partition=p1", "count=2", at=AT)
    cluster.ok("job", "submit", "user=alice", "partition=p1", "state=running", at=AT)
    out = cluster.ok("job", "cancel", "1", "3", at="2026-05-01T13:00:00")
    assert out.stderr == "cancelled job 1 (was pending)\ncancelled job 3 (was running)\n"
    jobs = {j["JobID"]: j for j in _jobs(cluster)}
    assert (jobs[3]["State"], jobs[3]["End"]) == ("cancelled", "2026-05-01T13:00:00")
    assert jobs[2]["State"] == "pending"
    err = cluster.fails("job", "cancel", "1", code=1).stderr
    assert err == (
        "fscli: error: Kill job error on job id 1: Job/step already completing or completed\n"
    )
    err = cluster.fails("job", "cancel", "2", "77", code=1).stderr
    assert err == "fscli: error: Kill job error on job id 77: Invalid job id specified\n"
    assert _jobs(cluster)[1]["State"] == "pending"  # all or nothing


@pytest.mark.parametrize(
    "words, code, message",
    [
        (
            ["user=alice", "account=nosuch", "partition=p1"],
            1,
            "Invalid account or account/partition combination specified (user 'alice' has no "
            "association with account 'nosuch' and partition 'p1' on cluster c1)",
        ),
        (
            ["user=nobody", "partition=p1"],
            1,
            "Invalid account or account/partition combination specified (user 'nobody' does not exist)",
        ),
        (
            ["user=alice", "partition=p9"],
            1,
            "Invalid partition name specified ('p9' is not a partition of cluster c1)",
        ),
        (
            ["user=alice", "partition=p1", "qos=nosuch"],
            1,
            "Invalid qos specification (QOS 'nosuch' does not exist)",
        ),
        (
            ["user=bob", "partition=p1", "qos=high"],
            1,
            "Invalid qos specification (QOS 'high' is not allowed (allowed: normal))",
        ),
        (
            ["user=alice", "partition=p1", "tres=cpu=4,gpu=2"],
            1,
            "unknown TRES 'gpu': GPUs are named gres/gpu",
        ),
        (
            ["user=alice", "partition=p1", "tres=cpu=x"],
            1,
            "invalid value 'x' for TRES cpu: expected a number like 8, 64G or -1",
        ),
        (
            ["user=alice", "partition=p1", "time=1:xx"],
            1,
            "invalid time limit '1:xx': expected minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS",
        ),
        (["user=alice"], 2, "name the job's partition(s) with partition=: cluster c1 has p1, p2"),
        (["account=physics", "partition=p1"], 2, "need user=NAME: whose job it is"),
        (
            ["user=alice", "partition=p1", "state=done"],
            1,
            "invalid state 'done': expected pending, running, completed",
        ),
        (["user=alice", "partition=p1", "state=completed"], 1, "a completed job needs end=TIME"),
        (
            ["user=alice", "partition=p1", "start=now"],
            1,
            "a pending job has no start= or end= (use state=running)",
        ),
        (
            ["user=alice", "partition=p1", "nice=9999999999"],
            1,
            "invalid nice value 9999999999: expected -2147483645 to 2147483645",
        ),
        (
            ["user=alice", "partition=p1", "sitefactor=9999999999"],
            1,
            "SiteFactor value out of range",
        ),
        (
            ["user=alice", "partition=p1", "slots=2"],
            2,
            "slots= does not apply to a Slurm job (no queue=)",
        ),
        (
            ["user=alice", "partition=p1", "cpus=0"],
            1,
            "invalid cpus '0': expected a whole number >= 1",
        ),
        (
            ["user=alice", "partition=p1", "count=100001"],
            1,
            "invalid count '100001': at most 100,000 jobs per submit",
        ),
        (
            ["user=alice", "partition=p1", "colour=red"],
            2,
            "unknown key 'colour' for job submit (did you mean 'cluster'?)",
        ),
    ],
)
def test_submit_rejects_bad_input(cluster, words, code, message):
    err = cluster.fails("job", "submit", *words, code=code).stderr
    assert err == f"fscli: error: {message}\n"
    assert _jobs(cluster) == []


def test_duplicate_id_is_a_conflict(cluster):
    cluster.ok("job", "submit", "user=alice", "partition=p1", "id=5")
    err = cluster.fails("job", "submit", "user=alice", "partition=p1", "id=4", "count=3").stderr
    assert err == "fscli: error: job 5 already exists (cancel it or choose another id=)\n"


IMPORTED = "2026-11-21T15:40:00"  # job 3 runs (to 16:08), 7 and 12 wait
SQUEUE_TEXT = """\
JOBID|USER|ACCOUNT|PARTITION|QOS|STATE|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|CPUS|MIN_MEMORY|TRES_PER_NODE|NICE
7|alice|physics|p2|high|PENDING|2026-11-21T15:38:05|2027-11-21T15:38:00|UNLIMITED|1|8|4G|N/A|0
12|alice|physics|p1,p2|normal|PD|2026-11-21T15:38:05|N/A|1-00:00:00|2|32|2000M|gres/gpu:a100:2|-10
3|bob|chem|p1|normal|RUNNING|2026-11-21T15:38:00|2026-11-21T15:38:00|30:00|1|64|0|N/A|100
4|bob|chem|p1|normal|COMPLETED|2026-11-21T15:30:00|2026-11-21T15:31:00|30:00|1|64|0|N/A|0
"""


def test_import_squeue_output(cluster, tmp_path):
    path = tmp_path / "jobs.txt"
    path.write_text(SQUEUE_TEXT)
    out = cluster.ok("job", "import", str(path))
    assert out.stderr == "imported 3 jobs (2 pending, 1 running, 1 finished skipped)\n"
    text = cluster.ok("job", "list", "-P", at=IMPORTED).stdout.splitlines()[1:]
    assert text == [
        "3|bob|chem|p1|normal||running|2026-11-21T15:38:00|2026-11-21T15:38:00||64|1|1||"
        "00:30:00|100|||None",
        "7|alice|physics|p2|high||pending|2026-11-21T15:38:05|||8|1|1|mem=4G|UNLIMITED|0|||"
        "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority "
        "partitions",
        "12|alice|physics|p1,p2|normal||pending|2026-11-21T15:38:05|||32|2|1|"
        "mem=4000M,gres/gpu=4,gres/gpu:a100=4|1-00:00:00|-10|||Resources",
    ]
    again = cluster.fails("job", "import", str(path), code=1).stderr
    assert again == (
        "fscli: error: 3 job id(s) already in the store (3, 7, 12): "
        "use --replace to overwrite them\n"
    )
    cluster.ok("job", "import", "--replace", str(path))
    assert cluster.ok("job", "list", "-P", at=IMPORTED).stdout.splitlines()[1:] == text


def test_import_checks_every_job_and_stores_nothing_on_error(cluster, tmp_path):
    path = tmp_path / "jobs.txt"
    path.write_text(SQUEUE_TEXT.replace("3|bob|chem", "3|bob|physics"))
    err = cluster.fails("job", "import", str(path), code=1).stderr
    assert err.startswith("fscli: error: Invalid account or account/partition combination")
    assert _jobs(cluster) == []


def test_import_rejects_other_formats(cluster):
    err = cluster.fails("job", "import", str(SQUEUE), code=1).stderr
    assert err.startswith(
        "fscli: error: not squeue -O 'JobID:0|,UserName:0|,Account:0|,"
        "Partition:0|,QOS:0|,State:0|,SubmitTime:0|,StartTime:0|,"
        "TimeLimit:0|,NumNodes:0|,NumCPUs:0|,MinMemory:0|,"
        "tres-per-node:0|,Nice:0|,tres-alloc:0' output ("
    )


def test_dry_run_stores_nothing(cluster):
    out = cluster.ok("job", "submit", "user=alice", "partition=p1", "--dry-run")
    assert out.stdout == ""
    assert out.stderr.startswith("would have submitted job 1: ")
    assert _jobs(cluster) == []


def test_modify_priority_like_scontrol_update(cluster):
    cluster.ok("job", "submit", "user=alice", "partition=p1", "id=7", at=AT)
    result = cluster.ok("job", "modify", "7", "priority=999", at=AT)
    assert result.stderr == "modified job 7: priority=999\n"
    assert cluster.ok("job", "modify", "jobid=7", "set", "priority=999").stderr == (
        "job 7: nothing to change\n"
    )
    assert cluster.ok("job", "modify", "7", "priority=0").stderr == (
        "modified job 7: priority=0 (held)\n"
    )
    assert cluster.ok("job", "modify", "7", "set", "priority=-1", "nice=5").stderr == (
        "modified job 7: priority=released nice=5\n"
    )
    assert cluster.ok("job", "modify", "7", "prio=clear", "sitefactor=-3").stderr == (
        "modified job 7: sitefactor=-3\n"
    )
    history = cluster.ok("history", "-P").stdout.splitlines()
    assert [line.split("|")[2:] for line in history if "modify job" in line] == [
        ["modify job", "7", "priority=999"],
        ["modify job", "7", "priority=0 (held)"],
        ["modify job", "7", "priority=released nice=5"],
        ["modify job", "7", "sitefactor=-3"],
    ]


def test_modify_dry_run_changes_nothing(cluster):
    cluster.ok("job", "submit", "user=alice", "partition=p1", "id=7", at=AT)
    result = cluster.ok("job", "modify", "7", "priority=5", "--dry-run", at=AT)
    assert result.stderr == "would have modified job 7: priority=5\n"
    assert cluster.ok("job", "modify", "7", "priority=5").stderr == ("modified job 7: priority=5\n")


@pytest.mark.parametrize(
    "words, code, message",
    [
        (["priority=5"], 2, "name the job(s): fscli job modify JOBID priority=N"),
        (["7"], 2, "nothing to change: give priority=, nice= or sitefactor="),
        (["7", "priority=high"], 1, "invalid priority 'high': expected a whole number"),
        (
            ["7", "priority=4294967295"],
            1,
            (
                "invalid priority 4294967295: expected 0 to "
                "4294967294, or -1 to give the job back to the "
                "priority plugin"
            ),
        ),
        (["7", "sitefactor=2147483646"], 1, "SiteFactor value out of range"),
        (["7", "qos=high"], 2, "unknown key 'qos' for job modify"),
        (["7,99", "priority=5"], 1, "job 99 does not exist"),
        (
            ["8", "priority=5"],
            1,
            ("job 8 is cancelled: only pending or running jobs can be modified"),
        ),
    ],
)
def test_modify_rejects_bad_input(cluster, words, code, message):
    cluster.ok("job", "submit", "user=alice", "partition=p1", "id=7", at=AT)
    cluster.ok("job", "submit", "user=alice", "partition=p1", "id=8", at=AT)
    cluster.ok("job", "cancel", "8", at=AT)
    err = cluster.fails("job", "modify", *words, code=code).stderr
    assert err == f"fscli: error: {message}\n"
    assert "modify job" not in cluster.ok("history", "-P").stdout


def test_a_0001_store_with_jobs_is_upgraded(fscli, db_path):
    """The admin priority column (revision 0002) arrives by itself on a 0001 store."""
    import sqlite3

    from fscli.store.db import create_engine_for, resolve_url, upgrade

    engine = create_engine_for(resolve_url(db_path))
    upgrade(engine, "0001")
    engine.dispose()
    con = sqlite3.connect(db_path)
    with con:
        con.execute("INSERT INTO cluster (id, name) VALUES (1, 'old')")
        con.execute(
            "INSERT INTO job (id, cluster_id, user, account, partition, state, submit, "
            "cpus, nodes, slots, nice, site_factor) "
            "VALUES (42, 1, 'ann', 'acct', 'p', 'pending', 0, 2, 1, 1, 0, 0)"
        )
    con.close()
    listed = fscli.ok("job", "list", "-P")
    assert listed.stdout.splitlines()[1] == (
        "42|ann|acct|p|||pending|1970-01-01T00:00:00|||2|1|1||UNLIMITED|0|||"
    )
    assert listed.stderr == (
        "fscli: warning: no Reason column: expected exactly one root association, found 0\n"
    )
    assert fscli.ok("db", "current").stdout.strip() == HEAD
    fscli.ok("job", "modify", "42", "priority=12")
    assert fscli.ok("job", "list", "-P", "-n").stdout.endswith("|UNLIMITED|0||12|\n")
    con = sqlite3.connect(db_path)
    assert con.execute("SELECT admin_priority FROM job WHERE id = 42").fetchone() == (12,)
    con.close()
