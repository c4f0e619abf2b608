"""sprio's ``-j``, ``-u`` and ``-p`` are the store's query: only the jobs asked about are
read and scored, and their rows are those of the whole queue."""

from __future__ import annotations

from fscli.api.store import open_store

AT = "2026-05-01T12:00:00"


def build(science) -> None:
    science.ok("cluster", "modify", "c1", "set", "nodes=4", "cpus=64")
    science.ok("partition", "add", "p1", "nodes=4", "cpus=64")
    science.ok("config", "set", "PriorityWeightFairshare=10000", "PriorityWeightAge=1000")
    for user, cpus in (("alice", 4), ("bob", 8), ("carol", 2), ("alice", 1)):
        science.ok(
            "job", "submit", f"user={user}", "partition=p1", f"cpus={cpus}",
            "submit=now-3hours", at=AT,
        )  # fmt: skip


def rows(columns) -> list[tuple]:
    return list(zip(columns.job_id, columns.user, columns.priority, *columns.factors))


def test_only_the_jobs_asked_about_are_scored(science):
    build(science)
    with open_store(science.db) as store:
        every = rows(store.priorities(at=AT).columns)
        assert [r[0] for r in every] == [1, 2, 3, 4]
        assert rows(store.priorities(at=AT, jobs=[2, 4]).columns) == [every[1], every[3]]
        assert rows(store.priorities(at=AT, users=["alice"]).columns) == [every[0], every[3]]
        assert rows(store.priorities(at=AT, jobs=[1, 3], users=["carol"]).columns) == [every[2]]
        assert rows(store.priorities(at=AT, jobs=[9]).columns) == []


def test_the_command_prints_the_rows_of_the_whole_queue(science):
    build(science)
    whole = science.ok("sprio", "-l", at=AT).stdout.splitlines()
    picked = science.ok("sprio", "-l", "-j", "3,1", at=AT).stdout.splitlines()
    assert picked == [whole[0], whole[1], whole[3]]
    assert (
        science.fails("sprio", "-j", "9", at=AT)
        .stderr.strip()
        .endswith("Unable to find jobs matching user/id(s) specified")
    )


def mixed_queue(science) -> list[str]:
    """60 pending jobs over three partitions, each asking for one or several of them
    (the job table's partition is the comma list asked for)."""
    science.ok("cluster", "modify", "c1", "set", "nodes=12", "cpus=192")
    for name, factor in (("p1", 10), ("p2", 20), ("p10", 30)):
        science.ok("partition", "add", name, "nodes=4", "cpus=64", f"priorityjobfactor={factor}")
    science.ok(
        "config", "set", "PriorityWeightFairshare=10000", "PriorityWeightAge=1000",
        "PriorityWeightPartition=1000", "PriorityWeightJobSize=100",
    )  # fmt: skip
    asked = ["p1", "p2", "p10", "p1,p2", "p2,p10", "p10,p1,p2"]
    for k in range(60):
        science.ok(
            "job", "submit", f"user={('alice', 'bob', 'carol')[k % 3]}",
            f"partition={asked[k % len(asked)]}", f"cpus={1 + k % 16}",
            f"submit=now-{1 + k % 7}hours", at=AT,
        )  # fmt: skip
    return asked


def test_partitions_are_the_stores_query_and_print_the_same_bytes(science):
    """``-p``: only the jobs asking for one of the partitions are read (a job of several
    with all its rows, which the view then picks from), and the command prints exactly
    the rows of the whole queue in those partitions."""
    asked = mixed_queue(science)
    with open_store(science.db) as store:
        every = rows(store.priorities(at=AT).columns)
        assert len(every) == 10 * sum(len(a.split(",")) for a in asked)
        read = store.priorities(at=AT, partitions=["p1"]).columns
        assert {asked[(j - 1) % 6] for j in read.job_id} == {"p1", "p1,p2", "p2,p10", "p10,p1,p2"}
        assert rows(read) == [r for r in every if r[0] in set(read.job_id)]
    whole = science.ok("sprio", "-l", at=AT).stdout.splitlines()
    for selection in ("p1", "p10", "p2,p10", "p1,p1", "nosuch"):
        picked = science.ok("sprio", "-l", "-p", selection, at=AT).stdout.splitlines()
        wanted = set(selection.split(","))
        assert picked == [whole[0]] + [line for line in whole[1:] if line.split()[1] in wanted]
        assert len(picked) > 1 or selection == "nosuch"
