"""``fscli job import``'s bulk path: each job is checked as ``job submit`` checks it, the
first bad one fails the whole file, and every stored job gets its history line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fscli.store import db, sql
from tests.conftest import build_science

AT = "2026-05-01T12:00:00"
HEADER = (
    "JOBID|USER|ACCOUNT|PARTITION|QOS|STATE|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|"
    "CPUS|MIN_MEMORY|TRES_PER_NODE|NICE"
)
# id, user, account, partition(s), qos, state, start (running only), nodes, cpus, mem per
# node, gres per node, nice: every way a job finds its association and its QOS
JOBS = [
    (1, "alice", "physics", "p1", "", "pending", "", 1, 8, "4G", "", 0),
    (2, "alice", "", "p2", "high", "running", "2026-05-01T11:30:00", 2, 16, "", "gpu:2", 5),
    (3, "bob", "chem", "p1", "", "pending", "", 1, 1, "", "", 0),
    (4, "bob", "chem", "p2", "", "running", "2026-05-01T11:00:00", 1, 4, "2000M", "", 0),
    (5, "bob", "", "p1,p2", "normal", "pending", "", 4, 64, "", "gpu:a100:1", -3),
    (6, "carol", "", "p2,p1", "", "pending", "", 1, 2, "", "", 0),
    (7, "dave", "", "p1", "", "pending", "", 1, 1, "1G", "", 0),
    (8, "dave", "chem", "p1", "low", "running", "2026-05-01T10:00:00", 1, 1, "", "", 0),
]
# what each gets: (user, account, partition, qos) and the association it runs under
STORED = [
    ("alice", "physics", "p1", "normal"),  # user's QOS list normal,high: two, no default
    ("alice", "physics", "p2", "high"),  # default account
    ("bob", "chem", "p1", "low"),  # chem's default QOS, inherited
    ("bob", "chem", "p2", "normal"),  # bob's own p2 association's default QOS
    ("bob", "chem", "p1,p2", "normal"),  # the first partition's association
    ("carol", "chem", "p2,p1", "low"),  # bob's p2 association is not carol's
    ("dave", "physics", "p1", "normal"),  # root's only QOS
    ("dave", "chem", "p1", "low"),
]


def build_site(fscli) -> None:
    """Two partitions, three QOS, QOS lists and defaults at user, account and partition
    association level, a user with two accounts."""
    build_science(fscli)
    fscli.ok("partition", "add", "p1", "nodes=4", "cpus=64")
    fscli.ok("partition", "add", "p2", "nodes=2", "cpus=32")
    fscli.ok("qos", "add", "high", "priority=100")
    fscli.ok("qos", "add", "low", "priority=10")
    fscli.ok("user", "modify", "alice", "set", "qos=normal,high")
    fscli.ok("account", "modify", "chem", "set", "qos=normal,low", "defaultqos=low")
    fscli.ok("user", "add", "bob", "account=chem", "partition=p2", "defaultqos=normal")
    fscli.ok("user", "add", "dave", "account=physics")
    fscli.ok("user", "add", "dave", "account=chem")


@pytest.fixture
def site(fscli, template):
    """The store :func:`build_site` leaves, copied from its template."""
    return template(fscli, build_site)


def squeue(jobs) -> str:
    lines = [HEADER]
    for job_id, user, account, parts, qos, state, start, nodes, cpus, mem, gres, nice in jobs:
        lines.append(
            "|".join(
                map(
                    str,
                    (
                        job_id,
                        user,
                        account,
                        parts,
                        qos,
                        state.upper(),
                        "2026-05-01T09:00:00",
                        start or "N/A",
                        "1-00:00:00",
                        nodes,
                        cpus,
                        mem or "0",
                        f"gres/{gres}" if gres else "N/A",
                        nice,
                    ),
                )
            )
        )
    return "\n".join(lines) + "\n"


def submit_words(job) -> list[str]:
    """The ``job submit`` words of the same job (mem per node, GRES as job totals)."""
    job_id, user, account, parts, qos, state, start, nodes, cpus, mem, gres, nice = job
    words = [
        f"id={job_id}",
        f"user={user}",
        f"partition={parts}",
        f"state={state}",
        "submit=2026-05-01T09:00:00",
        "time=1-00:00:00",
        f"nodes={nodes}",
        f"cpus={cpus}",
        f"nice={nice}",
    ]
    words += [f"account={account}"] * bool(account) + [f"qos={qos}"] * bool(qos)
    words += [f"start={start}"] * bool(start) + [f"mem={mem}"] * bool(mem)
    if gres:
        name, _, count = gres.rpartition(":")
        gpu = name.split(":")[0]
        totals = {f"gres/{gpu}": int(count) * nodes}
        if ":" in name:
            totals[f"gres/{name}"] = int(count) * nodes
        words.append("tres=" + ",".join(f"{k}={v}" for k, v in totals.items()))
    return words


def stored_jobs(fscli) -> dict[int, dict]:
    """Every column of every job row, by id."""
    from sqlalchemy import select

    from fscli.store import tables
    from fscli.store.db import create_engine_for, resolve_url

    engine = create_engine_for(resolve_url(fscli.db))
    try:
        with engine.connect() as conn:
            return {
                row.id: dict(row._mapping)
                for row in conn.execute(select(tables.job).order_by(tables.job.c.id))
            }
    finally:
        engine.dispose()


def history(fscli) -> list[str]:
    rows = fscli.ok("history", "-P", "-n").stdout.splitlines()
    return ["|".join(row.split("|")[2:]) for row in rows if "|submit job|" in row]


@pytest.fixture(params=[sql.IN_LIST, 1], ids=["in-lists", "in-lists-of-1"])
def in_list(request, monkeypatch):
    """The store is asked in IN lists of IN_LIST names; lists of 1 split every query."""
    monkeypatch.setattr(sql, "IN_LIST", request.param)


@pytest.fixture(params=["plain", "session"])
def write_path(request, monkeypatch):
    """An import into an SQLite file at the current schema is written through a plain
    sqlite3 connection, any other through the ORM session (servers: the one path their
    run takes); ``session`` makes the file take the session's path too, so that both
    are held to the same answers."""
    if request.param == "session":
        monkeypatch.setattr(db, "open_writer", lambda _db: None)


@pytest.mark.usefixtures("in_list", "write_path")
def test_import_stores_what_submit_stores(site, tmp_path):
    path = tmp_path / "jobs.txt"
    path.write_text(squeue(JOBS))
    out = site.ok("job", "import", str(path), at=AT)
    assert out.stderr == "imported 8 jobs (5 pending, 3 running)\n"
    imported = stored_jobs(site)
    assert [(r["user"], r["account"], r["partition"], r["qos"]) for r in imported.values()] == (
        STORED
    )
    for job in JOBS:
        site.ok("job", "submit", *submit_words((job[0] + 100, *job[1:])), at=AT)
    submitted = stored_jobs(site)
    for job_id, row in imported.items():
        assert submitted[job_id + 100] == dict(row, id=job_id + 100)
    assoc = {(r["user"], r["account"], r["partition"]): r["assoc_id"] for r in imported.values()}
    assert assoc[("bob", "chem", "p2")] != assoc[("bob", "chem", "p1")]
    assert assoc[("bob", "chem", "p1,p2")] == assoc[("bob", "chem", "p1")]
    assert assoc[("carol", "chem", "p2,p1")] != assoc[("bob", "chem", "p2")]
    assert assoc[("dave", "physics", "p1")] != assoc[("dave", "chem", "p1")]


@pytest.mark.usefixtures("write_path")
def test_every_imported_job_has_its_history_line(site, tmp_path):
    path = tmp_path / "jobs.txt"
    path.write_text(squeue(JOBS[:3]))
    site.ok("job", "import", str(path), at=AT)
    assert history(site) == [
        (
            "submit job|1|user=alice account=physics partition=p1 qos=normal state=pending "
            "cpus=8 nodes=1 tres=mem=4096"
        ),
        (
            "submit job|2|user=alice account=physics partition=p2 qos=high state=running "
            "cpus=16 nodes=2 tres=gres/gpu=4"
        ),
        "submit job|3|user=bob account=chem partition=p1 qos=low state=pending cpus=1 nodes=1",
    ]
    path.write_text(squeue(JOBS))
    site.ok("job", "import", "--replace", str(path), at=AT)
    assert [line.split("|")[1] for line in history(site)] == [
        "1",
        "2",
        "3",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
    ]


@pytest.mark.usefixtures("in_list", "write_path")
@pytest.mark.parametrize(
    "last, message",
    [
        (
            (9, "carol", "physics", "p1", "", "pending", "", 1, 1, "", "", 0),
            (
                "Invalid account or account/partition combination specified (user 'carol' has no "
                "association with account 'physics' and partition 'p1' on cluster c1)"
            ),
        ),
        (
            (9, "erin", "", "p1", "", "pending", "", 1, 1, "", "", 0),
            (
                "Invalid account or account/partition combination specified (user 'erin' does not "
                "exist)"
            ),
        ),
        (
            (9, "carol", "chem", "p3", "", "pending", "", 1, 1, "", "", 0),
            "Invalid partition name specified ('p3' is not a partition of cluster c1)",
        ),
        (
            (9, "carol", "chem", "p1", "top", "pending", "", 1, 1, "", "", 0),
            "Invalid qos specification (QOS 'top' does not exist)",
        ),
        (
            (9, "carol", "chem", "p1", "high", "pending", "", 1, 1, "", "", 0),
            "Invalid qos specification (QOS 'high' is not allowed (allowed: low,normal))",
        ),
        (
            (9, "carol", "chem", "p1", "", "running", "2026-05-01T08:00:00", 1, 1, "", "", 0),
            "start= is before the job's submit time",
        ),
    ],
)
def test_a_bad_last_job_leaves_the_store_as_it_was(site, tmp_path, last, message):
    path = tmp_path / "jobs.txt"
    path.write_text(squeue(JOBS[:2]))
    site.ok("job", "import", str(path), at=AT)
    before, logged = stored_jobs(site), history(site)
    path.write_text(squeue([*JOBS, last]))
    err = site.fails("job", "import", "--replace", str(path), at=AT, code=1).stderr
    assert err == f"fscli: error: {message}\n"
    assert stored_jobs(site) == before
    assert history(site) == logged


@pytest.mark.usefixtures("write_path")
@pytest.mark.parametrize(
    "words, text, message",
    [
        ((), JOBS[:2] + JOBS[:1], "the file holds the same job id twice"),
        ((), JOBS[:3], "2 job id(s) already in the store (1, 2): use --replace to overwrite them"),
        (
            ("--cluster", "c9"),
            JOBS[:1],
            "cluster 'c9' does not exist: add it with 'fscli cluster add c9'",
        ),
    ],
)
def test_refused_imports_change_nothing(site, tmp_path, words, text, message):
    path = tmp_path / "jobs.txt"
    path.write_text(squeue(JOBS[:2]))
    site.ok("job", "import", str(path), at=AT)
    before, logged = stored_jobs(site), history(site)
    path.write_text(squeue(text))
    err = site.fails(*words, "job", "import", str(path), at=AT, code=1).stderr
    assert err == f"fscli: error: {message}\n"
    assert stored_jobs(site) == before
    assert history(site) == logged


@pytest.mark.usefixtures("write_path")
def test_a_dry_run_checks_everything_and_stores_nothing(site, tmp_path):
    path = tmp_path / "jobs.txt"
    path.write_text(squeue(JOBS))
    out = site.ok("job", "import", "--dry-run", str(path), at=AT)
    assert out.stderr.startswith("would have imported 8 jobs (5 pending, 3 running)")
    assert stored_jobs(site) == {}
    assert history(site) == []
    path.write_text(squeue([*JOBS, (9, "erin", "", "p1", "", "pending", "", 1, 1, "", "", 0)]))
    err = site.fails("job", "import", "--dry-run", str(path), at=AT, code=1).stderr
    assert "user 'erin' does not exist" in err


def test_an_import_into_an_sqlite_file_loads_no_sqlalchemy(site, tmp_path):
    """The plain path: SQLAlchemy's import alone is a seventh of an import of 100,000 jobs."""
    if db.resolve_url(site.db).file is None:
        pytest.skip("a server store is written through SQLAlchemy")
    path = tmp_path / "jobs.txt"
    path.write_text(squeue(JOBS))
    program = (
        "import sys; from fscli.cli.main import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit as exc:\n    assert not exc.code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic')))"
    )
    argv = ["--db", site.db, "--at", AT, "job", "import", str(path)]
    done = subprocess.run(
        [sys.executable, "-c", program, *argv], capture_output=True, text=True, check=True
    )
    assert done.stdout == "[]\n"
    assert done.stderr == "imported 8 jobs (5 pending, 3 running)\n"
    assert len(stored_jobs(site)) == 8


def test_a_file_of_finished_jobs_imports_none(site, tmp_path):
    path = tmp_path / "jobs.txt"
    path.write_text(
        squeue([(4, "bob", "chem", "p1", "", "completed", "2026-05-01T10:00:00", 1, 1, "", "", 0)])
    )
    out = site.ok("job", "import", str(path), at=AT)
    assert out.stderr == "imported 0 jobs (none, 1 finished skipped)\n"
    assert stored_jobs(site) == {}
    assert history(site) == []


def test_pending_n1_c4_job_imports_with_one_node_and_its_job_size(site, tmp_path):
    """squeue's NumNodes says 2 for a pending ``-n1 -c4`` job; its TRES say node=1. With
    PriorityWeightJobSize=1000 and partition p1 (4 nodes, 64 CPUs, the cluster's sizes):
    JOBSIZE = 1000 x (1/4 + 4/64) / 2 = 156.25 -> 156 (with NumNodes: (2/4 + 4/64)/2 ->
    281)."""
    site.ok("-Q", "config", "set", "PriorityWeightJobSize=1000")
    path = tmp_path / "jobs.txt"
    path.write_text(
        "41|bob|chem|p1|normal|PENDING|2026-05-01T09:00:00|N/A|1:00:00|2|4|0|N/A|0|"
        "cpu=4,mem=400M,node=1,billing=4\n"
    )
    site.ok("job", "import", str(path), at=AT)
    assert site.ok("job", "list", "-P", at=AT).stdout.splitlines()[1].split("|")[10:12] == [
        "4",
        "1",
    ]
    assert site.ok("sprio", "-o", "%.6i %.10J", at=AT).stdout.splitlines() == [
        " JOBID    JOBSIZE",
        "    41        156",
    ]
