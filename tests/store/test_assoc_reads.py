"""Associations as the views read them: the tree and its settings from one query, the
limits (which most rows leave unset) from just the rows that set one, through the partial
index of migration 0006; the fair-share read's rows in order from the index of migration
0007."""

from __future__ import annotations

import sqlite3

import pytest

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import SHARES_PARENT
from fscli.store import snapshot
from fscli.store.assoc_fields import loaded_limits, qos_list
from fscli.store.db import open_reader
from tests.store.test_fresh_schema import migrated


@pytest.fixture
def mixed(db_path, fscli):
    """Two clusters; associations setting a priority, QOS, default QOS or limits, alone,
    several or none."""
    fscli.ok("qos", "add", "high")
    for cluster in ("c1", "c2"):
        fscli.ok("cluster", "add", cluster)
    c1 = ("-Q", "--cluster", "c1")
    fscli.ok(*c1, "account", "add", "chem", "fairshare=40", "GrpTRES=cpu=128")
    fscli.ok(*c1, "account", "add", "bio", "fairshare=parent", "priority=7")
    fscli.ok(*c1, "account", "add", "phys", "qos=normal,high", "defaultqos=high")
    fscli.ok(*c1, "user", "add", "ann", "account=chem", "MaxJobs=3", "MaxWall=10")
    fscli.ok(*c1, "user", "add", "bob", "account=chem", "fairshare=parent", "priority=2")
    fscli.ok(*c1, "user", "add", "cy", "account=bio,phys")
    fscli.ok(*c1, "user", "add", "dee", "account=phys", "defaultqos=normal", "GrpJobs=4")
    fscli.ok("-Q", "--cluster", "c2", "account", "add", "chem", "priority=9", "MaxJobs=1")
    fscli.ok("-Q", "--cluster", "c2", "user", "add", "ann", "account=chem", "fairshare=5")
    return db_path


def reference(conn, cid: int, settings: bool = True) -> list[tuple]:
    """Each association of cluster ``cid`` by id, from every column of its row."""
    conn.row_factory = sqlite3.Row
    try:
        found = conn.execute(
            "SELECT * FROM association WHERE cluster_id = ? ORDER BY id", (cid,)
        ).fetchall()
    finally:
        conn.row_factory = None
    out = []
    for r in found:
        limits = loaded_limits(limitdefs.ASSOC_LIMITS, [r[d.attr] for d in limitdefs.ASSOC_LIMITS])
        out.append(
            (
                r["id"],
                r["parent_id"],
                r["account"],
                r["user"],
                r["partition"],
                SHARES_PARENT
                if r["shares_parent"]
                else 1
                if r["shares_raw"] is None
                else r["shares_raw"],
                r["priority"],
                tuple(qos_list(r["qos"])) if settings else (),
                r["default_qos"] if settings else None,
                limits if settings else {},
            )
        )
    return out


def fields(assocs) -> list[tuple]:
    return [
        (
            a.id,
            a.parent_id,
            a.account,
            a.user,
            a.partition,
            a.shares,
            a.priority,
            a.qos,
            a.default_qos,
            a.limits,
        )
        for a in assocs
    ]


def test_every_setting_is_read_from_the_rows_that_set_it(mixed):
    conn = open_reader(mixed)
    try:
        for name in ("c1", "c2"):
            cid = snapshot.cluster_id_for(conn, name)
            expected = reference(conn, cid)
            assert any(a[6] is not None for a in expected)  # the fixture sets each column
            assert fields(snapshot.load_assocs(conn, cid)) == expected
            by_parent = snapshot.load_assocs(conn, cid, by_parent=True)
            assert sorted(fields(by_parent)) == expected
            assert [(a.parent_id or 0, a.id) for a in by_parent] == sorted(
                (a.parent_id or 0, a.id) for a in by_parent
            )
            assert fields(snapshot.load_assocs(conn, cid, settings=False)) == reference(
                conn, cid, settings=False
            )
            some = [a[0] for a in expected[1::2]]
            where = (f"id IN ({', '.join(map(str, some))})", {})
            assert fields(snapshot.load_assocs(conn, cid, where)) == expected[1::2]
    finally:
        conn.close()
    plain = sqlite3.connect(mixed)
    c1 = {(a[2], a[3]): a for a in reference(plain, snapshot.cluster_id_for(plain, "c1"))}
    assert c1[("chem", "bob")][5:7] == (SHARES_PARENT, 2)
    assert c1[("phys", "dee")][8:] == ("normal", {"GrpJobs": 4})
    assert c1[("phys", None)][7:9] == (("high", "normal"), "high")


def read_plans(path: str, **options) -> dict[str, str]:
    """How each statement of :func:`snapshot.load_assocs` (with ``options``) finds its
    rows: ``{"limits" or "rows": its query plan}``."""
    conn = open_reader(path)
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        snapshot.load_assocs(conn, 1, **options)  # its queries, whichever cluster it reads
        return {
            "limits" if "IS NOT NULL" in sql else "rows": " ".join(
                row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}")
            )
            for sql in statements
        }
    finally:
        conn.close()


def limits_plan(path: str) -> str:
    """How the read of the limits finds its rows: its query plan."""
    return read_plans(path)["limits"]


def test_the_limits_are_read_through_the_partial_index(mixed, tmp_path):
    replayed = str(tmp_path / "replayed.db")
    migrated(replayed)  # an old store brought up to date, not made from the schema
    for path in (mixed, replayed):
        assert "USING INDEX ix_association_limits" in limits_plan(path), path


def test_the_fair_share_read_walks_the_tree_index(mixed, tmp_path):
    """sshare's and sprio's read (by parent, without settings) takes its rows in order
    from ix_association_tree, which holds every column it reads: no sort, no visit to the
    table. The other reads, which take columns the index lacks, scan and sort once."""
    replayed = str(tmp_path / "replayed.db")
    migrated(replayed)
    # (the plans' wording varies with SQLite's version: "SCAN TABLE" before 3.36)
    for path in (mixed, replayed):
        plan = read_plans(path, by_parent=True, settings=False)["rows"]
        assert "USING COVERING INDEX ix_association_tree" in plan, path
        assert "TEMP B-TREE" not in plan and "SEARCH" not in plan, path
    plan = read_plans(mixed, by_parent=True)["rows"]
    assert "TEMP B-TREE FOR ORDER BY" in plan and "INDEX" not in plan
