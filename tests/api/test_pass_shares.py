"""sshare's rows through the pass cache (``fscli.api.pass_shares``): every view of a pass
(sshare in any form, tree, ``Store.shares()``) prints what it printed computed, to the
byte; a kept entry is read only for its store state, cluster, algorithm and pass, on the
same side of every moment the state changes at; what-ifs and read-only reads never
touch it."""

from __future__ import annotations

import marshal
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from fscli.api import answers, pass_shares
from fscli.api.store import Store
from fscli.errors import StoreError
from fscli.store import pass_cache, read_states
from tests.api.test_pass_cache import MOMENTS, cache_folder, computed

PASS = "2026-05-01T12:00:00"  # a pass boundary: 5-minute passes from the epoch
ALGORITHMS = ("fair_tree", "classic", "depth_oblivious", "linear")
VIEWS = [
    ["sshare", "-a", "-P"],
    ["sshare", "-a", "-l", "-P"],
    ["sshare", "-a", "-l"],
    ["sshare", "-a", "-p", "-n"],
    ["sshare", "-A", "chem", "-l", "-P"],
    ["sshare", "-u", "bob", "-P"],
    ["sshare", "-a", "-P", "-o", "Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins,LevelFS"],
    ["sshare", "-a", "--json"],
    ["sshare", "-a", "-P", "--sort", "fairshare"],
    ["tree"],
    ["tree", "chem"],
    ["tree", "--json"],
]


@pytest.fixture
def site(science):
    """In the pass from 12:00: a job starts at 12:01, a charge falls at 12:02, a job ends
    at 12:03 and another reaches its time limit at 12:04; limits enforced (TRESRunMins),
    chem with a GrpTRESMins (the one column the associations' settings give)."""
    science.ok("cluster", "modify", "c1", "set", "nodes=4", "cpus=64")
    science.ok("partition", "add", "p1", "nodes=4", "cpus=64")
    science.ok("config", "set", "AccountingStorageEnforce=limits")
    science.ok("limits", "set", "account=chem", "GrpTRESMins=cpu=5000")
    science.ok("usage", "add", "user=alice", "account=physics", "raw=3600", at="2026-04-30")
    science.ok("usage", "add", "user=bob", "account=chem", "raw=7200", "at=2026-05-01T12:02:00")
    for user, words in (
        ("carol", ("state=completed", "start=2026-05-01T10:00:00", "end=2026-05-01T12:03:00")),
        ("alice", ("state=running", "start=2026-05-01T11:00:00", "time=64")),
        ("bob", ("state=running", "start=2026-05-01T12:01:00", "time=600")),
        ("bob", ("state=completed", "start=2026-04-30T10:00:00", "end=2026-04-30T18:00:00")),
    ):
        science.ok("job", "submit", f"user={user}", "partition=p1", "cpus=8", *words, at=PASS)
    return science


def entry_file(db_path: str) -> Path:
    return cache_folder(db_path) / pass_shares.SHARES_ENTRY


def cold(site, db_path: str, words: list[str], at: str) -> str:
    """``words``' output computed: no cache entry before it."""
    shutil.rmtree(cache_folder(db_path), ignore_errors=True)
    return site.ok(*words, at=at).stdout


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_view_of_a_pass_prints_what_it_computes(site, db_path, monkeypatch, algorithm):
    """The views one after the other, the first computing and keeping the rows: each
    prints what it prints computed, and only the first computes."""
    at = "2026-05-01T12:01:30"
    views = [[*words, "--algorithm", algorithm] for words in VIEWS]
    expected = [cold(site, db_path, words, at) for words in views]
    shutil.rmtree(cache_folder(db_path))
    calls = computed(monkeypatch)
    warm = [site.ok(*words, at=at).stdout for words in views]
    assert calls == [1]
    assert warm == expected


def test_the_clusters_own_algorithm_is_the_one_kept(site, db_path, monkeypatch):
    """Without --algorithm, PriorityFlags says: the rows kept for classic are not read
    once the flags say Fair Tree."""
    at = "2026-05-01T12:01:30"
    site.ok("config", "set", "PriorityFlags=NO_FAIR_TREE")
    classic = cold(site, db_path, ["sshare", "-a", "-l", "-P"], at)
    site.ok("sshare", "-a", "-l", "-P", "--algorithm", "classic", at=at)  # keeps classic's
    site.ok("config", "set", "PriorityFlags=")
    fair_tree = cold(site, db_path, ["sshare", "-a", "-l", "-P"], at)
    assert classic != fair_tree
    site.ok("sshare", "-a", "-l", "-P", "--algorithm", "classic", at=at)
    calls = computed(monkeypatch)
    assert site.ok("sshare", "-a", "-l", "-P", at=at).stdout == fair_tree
    assert calls == [1]


def test_an_algorithm_asked_for_is_an_entry_of_its_own(site, db_path, monkeypatch):
    at = "2026-05-01T12:01:30"
    words = [["sshare", "-a", "-l", "-P", "--algorithm", a] for a in ALGORITHMS]
    expected = [cold(site, db_path, w, at) for w in words]
    assert len(set(expected)) == len(ALGORITHMS)
    calls = computed(monkeypatch)
    assert [site.ok(*w, at=at).stdout for w in words] == expected  # each replaces the last
    assert [site.ok(*w, at=at).stdout for w in words[-1:]] == expected[-1:]
    assert len(calls) == len(ALGORITHMS)


def test_grp_tres_mins_comes_from_the_limits_of_the_moment(site, db_path):
    """Rows kept by a view that reads no settings serve one that shows GrpTRESMins, and
    the other way round: the column is the associations' own."""
    at = "2026-05-01T12:01:30"
    long, short = ["sshare", "-a", "-l", "-P"], ["sshare", "-a", "-P"]
    expected = (cold(site, db_path, long, at), cold(site, db_path, short, at))
    assert "|cpu=5000|" in expected[0]
    site.ok(*short, at=at)
    assert site.ok(*long, at=at).stdout == expected[0]
    shutil.rmtree(cache_folder(db_path))
    site.ok(*long, at=at)
    assert site.ok(*short, at=at).stdout == expected[1]


def test_store_shares_from_the_cache_is_the_computed_answer(site, db_path):
    """``Store.shares()`` read back: the same rows, TRES and extras; its ``result`` and
    ``state`` computed when asked for, equal to the computed answer's."""
    at = 1777636890  # 2026-05-01T12:01:30
    with Store(db_path) as store:
        fresh = store.shares(at=at)  # computed, kept
        kept = store.shares(at=at)
        assert kept._result is None  # read back: nothing computed yet
        assert kept.rows == fresh.rows and list(kept) == list(fresh)
        assert kept.row("chem").grp_tres_mins == {"cpu": 5000}
        assert kept.tres_names == fresh.tres_names
        assert kept.run_minutes == fresh.run_minutes != {}
        assert kept.tres_usage == fresh.tres_usage != {}
        assert kept.subtree("chem") == fresh.subtree("chem")
        assert kept.row("bob/chem") == fresh.row("bob/chem")
        assert kept.result.fs_factor == fresh.result.fs_factor
        assert [a.id for a in kept.state.assocs] == [a.id for a in fresh.state.assocs]
        plain = store.shares(at=at, settings=False)
        assert [r.grp_tres_mins for r in plain] == [None] * len(fresh.rows)
        assert [r[:-1] for r in plain] == [r[:-1] for r in fresh.rows]


def test_a_kept_answer_computes_its_result_only_from_its_own_store_state(site, db_path):
    at = 1777636890
    with Store(db_path) as store:
        fresh = store.shares(at=at)
        kept = store.shares(at=at)
        site.ok("usage", "add", "user=alice", "account=physics", "raw=10", at="2026-04-30")
        with pytest.raises(StoreError, match="store changed since these shares were read"):
            kept.result  # noqa: B018
        assert kept.rows == fresh.rows != store.shares(at=at).rows  # still what they were


@pytest.mark.parametrize(
    "write",
    [
        lambda site, db: site.ok("usage", "add", "user=bob", "account=chem", "raw=1", at=PASS),
        lambda site, db: site.ok("limits", "set", "account=chem", "GrpTRESMins=cpu=7000"),
        lambda site, db: raw_write(db, "UPDATE association SET shares_raw = 90 WHERE user = 'bob'"),
        lambda site, db: raw_write(db, "DELETE FROM job WHERE user = 'carol'"),
    ],
    ids=["fscli usage", "fscli limits", "sqlite3 shares", "sqlite3 job"],
)
def test_every_write_makes_the_kept_rows_stale(site, db_path, monkeypatch, write):
    at = "2026-05-01T12:01:30"
    words = ["sshare", "-a", "-l", "-P"]
    before = site.ok(*words, at=at).stdout
    site.ok("tree", at=at)  # read back
    write(site, db_path)
    calls = computed(monkeypatch)
    after = site.ok(*words, at=at).stdout
    assert calls == [1] and after != before
    assert cold(site, db_path, words, at) == after


def raw_write(db_path: str, sql: str) -> None:
    """A write by another program: no fscli in it."""
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute(sql)
    conn.close()


def test_moments_on_both_sides_of_pass_boundaries_and_state_changes(site, db_path, monkeypatch):
    """Each moment asked right after the one before it: the same bytes as computed, and
    the kept rows answer exactly the moments of the same pass with no charge, job start,
    end or time limit between the two (either end included)."""
    calls = computed(monkeypatch)
    words = ["sshare", "-a", "-l", "-P"]
    steps = [*MOMENTS[:3], "2026-05-01T12:00:59", "2026-05-01T12:01:00", *MOMENTS[3:9]]
    steps += ["2026-05-01T12:03:59", "2026-05-01T12:04:00", "2026-05-01T12:04:01", *MOMENTS[9:]]
    read_back = []
    for moment in steps:
        before = len(calls)
        warm = site.ok(*words, at=moment).stdout
        read_back.append(len(calls) == before)
        assert warm == cold(site, db_path, words, moment), moment  # keeps it for the next
    # 12:01 bob's start, 12:02 the charge, 12:03 carol's end, 12:04 alice's time limit
    assert [m[11:] for m, hit in zip(steps, read_back) if hit] == [
        "12:00:01",
        "12:00:59",
        "12:02:59",
        "12:03:59",
        "12:04:59",
    ]


def noted_window(db_path: str, at: int, monkeypatch) -> tuple | None:
    monkeypatch.setattr(read_states, "_reads", None)
    monkeypatch.setattr(answers, "_window", None)
    answers.listen()
    with Store(db_path) as store:
        store.shares(at=at)
    window = answers.noted_window()
    monkeypatch.setattr(answers, "_window", None)
    return window


@pytest.mark.parametrize("at", [1777636800, 1777636860, 1777636890, 1777637040, 1777637099])
def test_the_answer_caches_window_is_the_same_read_back(site, db_path, monkeypatch, at):
    """The window the answer cache keeps an sshare answer for, noted computed and noted
    read back from the kept rows (the charge after ``at`` included)."""
    shutil.rmtree(cache_folder(db_path), ignore_errors=True)
    first = noted_window(db_path, at, monkeypatch)
    calls = computed(monkeypatch)
    assert noted_window(db_path, at, monkeypatch) == first is not None
    assert calls == []


def test_a_broken_or_foreign_entry_is_not_read(site, db_path, monkeypatch):
    at = "2026-05-01T12:01:30"
    words = ["sshare", "-a", "-l", "-P"]
    expected = site.ok(*words, at=at).stdout
    path = entry_file(db_path)
    size = int.from_bytes(path.read_bytes()[:4], "little")
    head = path.read_bytes()[4 : 4 + size]
    for payload in (
        b"\x00garbage",
        marshal.dumps({"columns": [[1]], "extras": None}),
        marshal.dumps({"columns": "x", "extras": None}),
        marshal.dumps([1, 2, 3]),
    ):
        path.write_bytes(len(head).to_bytes(4, "little") + head + payload)
        calls = computed(monkeypatch)
        assert site.ok(*words, at=at).stdout == expected
        assert site.ok(*words, at=at).stdout == expected  # the entry made again, read
        assert calls == [1]
    path.write_bytes(b"\xff" * 64)
    assert site.ok(*words, at=at).stdout == expected
    uid = os.getuid()
    monkeypatch.setattr(pass_cache.os, "getuid", lambda: uid + 1)  # another's file
    calls = computed(monkeypatch)
    assert site.ok(*words, at=at).stdout == expected
    assert calls == [1]


def test_a_read_only_read_writes_no_entry_but_reads_one(site, db_path, monkeypatch):
    at = "2026-05-01T12:01:30"
    for words in VIEWS:
        site.ok("--read-only", *words, at=at)
    assert not entry_file(db_path).exists()
    expected = [site.ok(*words, at=at).stdout for words in VIEWS]
    kept = entry_file(db_path).read_bytes()
    calls = computed(monkeypatch)
    assert [site.ok("--read-only", *words, at=at).stdout for words in VIEWS] == expected
    assert calls == [] and entry_file(db_path).read_bytes() == kept


def test_a_what_if_never_reads_or_writes_the_stores_entry(site, db_path, monkeypatch, tmp_path):
    """``--with`` (changes, a tree) computes both sides: the real store's kept rows are
    neither read (they would be the side before, but a tree changes the state) nor
    written."""
    at = "2026-05-01T12:01:30"
    tree = tmp_path / "tree.yaml"
    tree.write_text(site.ok("export", at=at).stdout.replace("fairshare: 10", "fairshare: 70"))
    what_ifs = [
        ["sshare", "-a", "-l", "-P", "--with", "account=physics fairshare=+50"],
        ["sshare", "-a", "-P", "--with", str(tree)],
        ["tree", "--with", str(tree)],
    ]
    expected = [cold(site, db_path, words, at) for words in what_ifs]
    assert not entry_file(db_path).exists()
    site.ok("sshare", "-a", "-l", "-P", at=at)
    kept = entry_file(db_path).read_bytes()
    asked: list[str] = []
    real = pass_cache.PassCache.entry

    def spied(self, name, key, when):
        asked.append(name)
        return real(self, name, key, when)

    monkeypatch.setattr(pass_cache.PassCache, "entry", spied)
    assert [site.ok(*words, at=at).stdout for words in what_ifs] == expected
    assert pass_shares.SHARES_ENTRY not in asked
    assert entry_file(db_path).read_bytes() == kept


def test_a_store_without_its_stamp_keeps_no_rows(site, db_path, monkeypatch):
    """As a server (no stamp): every view computes, and prints as before."""
    at = "2026-05-01T12:01:30"
    expected = [site.ok(*words, at=at).stdout for words in VIEWS[:3]]
    raw_write(db_path, 'DROP TRIGGER "fscli_stamp_usage_insert"')
    shutil.rmtree(cache_folder(db_path))
    calls = computed(monkeypatch)
    assert [site.ok(*words, at=at).stdout for words in VIEWS[:3]] == expected
    assert len(calls) == 3
    assert not entry_file(db_path).exists()
