"""Trees known to change nothing (fscli.store.unchanged): the note covers everything the
plan reads, every write that changes any of it makes the tree be read again, and a known
tree prints what reading it prints."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from fscli.api import open_store
from fscli.store import unchanged
from tests.backends import BACKEND

pytestmark = pytest.mark.skipif(BACKEND != "sqlite", reason="notes are for SQLite files")

ROOT = Path(__file__).resolve().parents[2]
AT = "2026-05-01T00:00:00"
TREE = """\
cluster:
  name: c1
  qos: [normal]
priority:
  PriorityWeightFairshare: 1000
qos:
  normal: {}
  high:
    priority: 10
partitions:
  batch: {}
accounts:
  science:
    fairshare: 40
    children:
      physics: {}
users:
  alice:
    coordinator_of: [science]
    associations:
    - account: physics
      qos: [high, normal]
      default_qos: normal
    - account: science
      partition: batch
      limits:
        MaxJobs: 4
"""


def _other_cluster(fscli) -> None:
    fscli.ok("cluster", "add", "c2")
    fscli.ok("account", "add", "other", "cluster=c2")


@pytest.fixture
def applied(fscli, tmp_path):
    """c1 applied from TREE, another cluster beside it (made after: the apply's note is
    of another content); TREE's path."""
    path = tmp_path / "c1.yaml"
    path.write_text(TREE)
    fscli.ok("-Q", "apply", str(path), at=AT)
    _other_cluster(fscli)
    return path


@pytest.fixture(params=["unchanged", "changed"])
def noted(request, fscli, tmp_path):
    """TREE's path, c1 and c2 as :func:`applied` makes them, TREE noted by its last
    apply: one that found nothing to change, or the one that wrote c1."""
    path = tmp_path / "c1.yaml"
    path.write_text(TREE)
    if request.param == "changed":
        _other_cluster(fscli)
    fscli.ok("-Q", "apply", str(path), at=AT)
    if request.param == "unchanged":
        _other_cluster(fscli)
        fscli.ok("-Q", "apply", str(path), at=AT)
    assert known(fscli, path) == "c1"
    return path


def test_the_notes_cover_every_table_the_plan_reads(applied, fscli):
    """Every table a plan without pruning reads is in TABLES, and every table a pruning
    plan that finds nothing to change reads: a write to any other table cannot change
    those plans."""
    from sqlalchemy import event

    from fscli.io import yamltree
    from fscli.store.db import open_engine
    from fscli.store.tree_plan import make_plan

    engine = open_engine(fscli.db)
    read: set[str] = set()

    @event.listens_for(engine, "before_cursor_execute")
    def _seen(conn, cursor, statement, *args):
        read.update(re.findall(r'(?:FROM|JOIN|INTO|UPDATE)\s+"?(\w+)"?', statement, re.I))

    texts = [
        TREE,
        TREE.replace("fairshare: 40", "fairshare: 4").replace("[science]", "[physics]"),
        TREE.replace("name: c1", "name: c9"),
        "cluster:\n  name: c2\n",
    ]
    with engine.connect() as conn:
        for text in texts:
            for loading in (False, True):
                make_plan(conn, yamltree.load(text), create_missing=loading)
            read_before = set(read)
            plan = make_plan(conn, yamltree.load(text), prune=True)
            if plan.changes or plan.kept:  # a pruning plan's removals may look further
                read.intersection_update(read_before)
    engine.dispose()
    assert read and read <= set(unchanged.TABLES), read - set(unchanged.TABLES)


def known(fscli, path, prune: bool = False) -> str | None:
    return unchanged.unchanged(fscli.db, path.read_text(), prune)


def test_an_apply_that_changes_nothing_is_noted(applied, fscli):
    assert known(fscli, applied) is None  # c2 was made after the apply that made c1
    fscli.ok("-Q", "apply", "--dry-run", str(applied))
    assert known(fscli, applied) == "c1"
    applied.write_text(TREE + "\n# a comment\n")
    assert known(fscli, applied) is None  # another text


def test_an_apply_that_changes_things_is_noted(fscli, tmp_path, monkeypatch):
    """Applying a tree again right after the apply that wrote it does not read it; a dry
    run that would change things notes nothing."""
    from fscli.io import yamltree

    path = tmp_path / "c1.yaml"
    path.write_text(TREE)
    _other_cluster(fscli)
    fscli.ok("-Q", "apply", "--dry-run", str(path), at=AT)
    assert known(fscli, path) is None
    fscli.ok("-Q", "apply", str(path), at=AT)
    assert known(fscli, path) == "c1"
    path.write_text(TREE.replace("fairshare: 40", "fairshare: 41"))
    assert "~ account science: fairshare: 40 -> 41" in fscli.ok("apply", str(path)).stdout
    assert known(fscli, path) == "c1"
    monkeypatch.setattr(yamltree, "load", _unread)
    again = fscli.ok("apply", str(path))
    assert (again.stdout, again.stderr) == ("", f"no changes: cluster c1 already matches {path}\n")


def _unread(*args, **kwargs):
    raise AssertionError("a known tree is read again")


def _dumped() -> str:
    """A real sacctmgr dump (limits, QOS deltas, coordinators, partitions) as a tree, with
    the QOS and partition it uses defined."""
    from fscli.engine.model import Partition
    from fscli.engine.treespec import QosSpec
    from fscli.io import flatfile, yamltree

    dump = ROOT / "tests/data/golden/slurm-22.05/sacctmgr_messages/roundtrip_dump.cfg"
    spec = flatfile.parse(dump.read_text())
    spec.qos = {name: QosSpec(name=name, priority=i) for i, name in enumerate(QOS)}
    spec.partitions["high"] = Partition(name="high", max_time=600, priority_tier=2)
    return yamltree.dump(spec)


QOS = ("normal", "qhigh", "qlow")
EXAMPLE = (ROOT / "examples" / "tree.yaml").read_text()
DUMPED = _dumped()
TREES = {  # trees and a change of each
    "TREE": (TREE, TREE.replace("fairshare: 40", "fairshare: parent").replace("[high, ", "[")),
    "example": (EXAMPLE, EXAMPLE.replace("fairshare: 10", "fairshare: 11")),
    "dump": (
        DUMPED,
        DUMPED.replace("fairshare: 20", "fairshare: 21").replace("Jobs: 2", "Jobs: 5"),
    ),
}


@pytest.mark.parametrize("tree", TREES)
def test_a_tree_applied_plans_nothing_more(fscli, tmp_path, tree):
    """What a note after an apply that changed things stands on: planning the tree again
    finds nothing to change, onto a new cluster and onto one that held another tree."""
    path = tmp_path / "tree.yaml"
    for text in TREES[tree]:
        path.write_text(text)
        assert "no changes" not in fscli.ok("apply", str(path), at=AT).stderr
        with open_store(fscli.db) as store:
            plan = store.plan_tree(text)
        assert plan.changes == [] and plan.kept == []
        assert known(fscli, path) == plan.spec.cluster.name


def _raw_sql(statement: str):
    def write(fscli):
        with sqlite3.connect(fscli.db) as conn:
            conn.execute(statement)

    return write


def _api(fscli):
    with open_store(fscli.db) as store, store.transaction(at=AT) as tx:
        tx.modify_user("alice", account="physics", fairshare=3, cluster="c1")


C1 = ("--cluster", "c1")
WRITES = {  # a write, and whether the tree then has something to change back
    "account modify": (
        lambda f: f.ok(*C1, "account", "modify", "physics", "set", "fairshare=2"),
        True,
    ),
    "sacctmgr": (
        lambda f: f.ok("sacctmgr", "-i", "modify", "qos", "high", "set", "priority=5"),
        True,
    ),
    "partition": (lambda f: f.ok(*C1, "partition", "modify", "batch", "set", "maxtime=60"), True),
    "coordinator": (
        lambda f: f.ok(
            *C1, "sacctmgr", "-i", "add", "coordinator", "user=alice", "account=physics"
        ),
        True,
    ),
    "api": (_api, True),
    "raw sql": (_raw_sql("UPDATE qos SET description = 'by hand' WHERE name = 'high'"), True),
    "raw sql, a limit set": (
        _raw_sql("UPDATE association SET max_jobs = 7 WHERE account = 'physics'"),
        True,
    ),
    "raw sql, a limit unset": (
        _raw_sql("UPDATE association SET max_jobs = NULL WHERE partition = 'batch'"),
        True,
    ),
    "a setting the tree leaves out": (
        lambda f: f.ok(*C1, "config", "set", "PriorityWeightAge=5"),
        False,
    ),
    "another cluster": (lambda f: f.ok("account", "add", "more", "cluster=c2"), False),
}


@pytest.mark.parametrize("write", WRITES)
def test_every_write_makes_the_tree_be_read_again(noted, fscli, write):
    """Whether or not the tree has something to change back after it."""
    change, undone = WRITES[write]
    change(fscli)
    assert known(fscli, noted) is None
    again = fscli.ok("apply", str(noted))
    assert ("no changes" not in again.stderr) == undone, again.stderr


def test_a_load_makes_the_tree_be_read_again(applied, fscli, tmp_path):
    fscli.ok("-Q", "apply", str(applied))
    dump = tmp_path / "c1.cfg"
    fscli.ok("-Q", "dump", "c1", f"file={dump}")
    dump.write_text(dump.read_text().replace("Fairshare=40", "Fairshare=41"))
    fscli.ok("-Q", "load", str(dump))
    assert known(fscli, applied) is None


def test_a_known_tree_prints_what_reading_it_prints(applied, fscli, monkeypatch):
    from fscli.io import yamltree

    runs = [
        ("apply", str(applied)),
        ("apply", "--dry-run", str(applied)),
        ("-Q", "apply", str(applied)),
    ]
    first = [fscli.ok(*args) for args in runs]  # read: the first notes it
    assert known(fscli, applied) == "c1"

    monkeypatch.setattr(yamltree, "load", _unread)
    again = [fscli.ok(*args) for args in runs]
    assert [(r.stdout, r.stderr) for r in again] == [(r.stdout, r.stderr) for r in first]
    assert first[0].stderr == f"no changes: cluster c1 already matches {applied}\n"
    monkeypatch.undo()
    # refusals stay what they were: another cluster named, a read-only store
    failed = fscli.fails("--cluster", "c2", "apply", str(applied), code=1)
    assert failed.stderr == f"fscli: error: {applied} is for cluster 'c1', not 'c2'\n"
    refused = fscli.fails("--read-only", "apply", str(applied), code=1)
    assert "read-only" in refused.stderr


def test_a_note_is_for_the_fscli_that_wrote_it(applied, fscli, monkeypatch):
    fscli.ok("-Q", "apply", str(applied))
    assert known(fscli, applied) == "c1"
    monkeypatch.setattr(unchanged, "_code", lambda: b"another fscli")
    assert known(fscli, applied) is None
    monkeypatch.setattr(unchanged, "_code", lambda: None)  # its source files unreadable
    fscli.ok("-Q", "apply", str(applied))
    assert known(fscli, applied) is None


def test_a_pruning_apply_that_changes_nothing_is_noted_for_both(applied, fscli, monkeypatch):
    """A pruning plan that finds nothing to change reads only TABLES: noted, it answers
    pruning applies, and applies without pruning (which it implies)."""
    from fscli.io import yamltree

    first = fscli.ok("apply", "--prune", str(applied))
    assert first.stderr == f"no changes: cluster c1 already matches {applied}\n"
    assert "- account other" not in first.stdout  # c2's own: not c1's tree
    assert known(fscli, applied) == known(fscli, applied, prune=True) == "c1"
    monkeypatch.setattr(yamltree, "load", _unread)
    for prune in (["--prune"], []):
        again = fscli.ok("apply", *prune, str(applied))
        assert (again.stdout, again.stderr) == (first.stdout, first.stderr)


def test_a_note_without_pruning_does_not_answer_a_pruning_apply(applied, fscli):
    """The tree leaves out an account of its cluster: applying it changes nothing, but
    pruning removes the account."""
    fscli.ok("-Q", "--cluster", "c1", "account", "add", "extra")
    fscli.ok("-Q", "apply", str(applied))
    assert known(fscli, applied) == "c1"
    assert known(fscli, applied, prune=True) is None
    pruned = fscli.ok("apply", "--prune", str(applied))
    assert pruned.stdout == "- account extra\n"
    assert known(fscli, applied) == known(fscli, applied, prune=True) == "c1"


def test_a_pruning_apply_that_keeps_a_qos_is_not_noted(applied, fscli):
    """Planned again, it keeps the QOS again: that plan is no empty plan."""
    fscli.ok("-Q", "--cluster", "c2", "account", "modify", "other", "set", "qos=high")
    text = applied.read_text().replace("      qos: [high, normal]\n", "      qos: [normal]\n")
    applied.write_text(text.replace("  high:\n    priority: 10\n", ""))
    pruned = fscli.ok("apply", "--prune", str(applied))
    assert "= qos high: kept, 1 association(s) on cluster c2 use it\n" in pruned.stdout
    assert known(fscli, applied, prune=True) is None
    assert known(fscli, applied) is None
    again = fscli.ok("apply", "--prune", str(applied))
    assert again.stdout == "= qos high: kept, 1 association(s) on cluster c2 use it\n"
    assert known(fscli, applied, prune=True) is None


def test_the_digest_reads_each_column_of_each_table_once(applied, fscli):
    conn = sqlite3.connect(fscli.db)
    try:
        for table in unchanged.TABLES:
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info('{table}')")]
            read = []
            for statement in unchanged._statements(conn, table):
                names = [d[0] for d in conn.execute(statement).description]
                read += names[1:] if statement.startswith("SELECT rowid,") else names
            assert sorted(read) == sorted(columns), table
    finally:
        conn.close()


@pytest.mark.parametrize(
    "column,value",
    [
        ("shares_raw", 9),
        ("partition", "'batch'"),
        ("priority", 3),
        ("qos", "'normal'"),
        ("default_qos", "'normal'"),
        ("max_jobs", 2),
        ("grp_tres", "'cpu=4'"),
        ("min_prio_threshold", 1),
    ],
)
def test_the_digest_changes_with_any_column_of_any_association(applied, fscli, column, value):
    """Set on an association that sets nothing else, and unset again; set on the one that
    sets the most already (alice's batch association: a partition and a limit)."""
    conn = sqlite3.connect(fscli.db)
    try:
        plan = " ".join(
            row[3]
            for statement in unchanged._statements(conn, "association")
            if "max_jobs" in statement
            for row in conn.execute(f"EXPLAIN QUERY PLAN {statement}")
        )
        assert "USING INDEX ix_association_limits" in plan
        before = unchanged.content_digest(conn)
        seen = {before}
        for where in ("account = 'physics' AND \"user\" IS NULL", "partition = 'batch'"):
            old = conn.execute(f"SELECT {column} FROM association WHERE {where}").fetchone()[0]
            conn.execute(f"UPDATE association SET {column} = {value} WHERE {where}")
            seen.add(unchanged.content_digest(conn))
            conn.execute(f"UPDATE association SET {column} = ? WHERE {where}", (old,))
            assert unchanged.content_digest(conn) == before
        assert len(seen) == 3 or (column == "partition" and len(seen) == 2)
    finally:
        conn.rollback()
        conn.close()
