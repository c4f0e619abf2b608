"""sprio's ``-j`` and ``-u`` are the store's query: only the jobs asked about are read and
scored, and their rows are those of the whole queue."""

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
