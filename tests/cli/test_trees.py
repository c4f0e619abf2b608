"""fscli apply / export / dump / load through the CLI (issue 6)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DATA

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "tree.yaml"
GOLDEN = DATA / "golden" / "slurm-22.05"
SMALL = """\
cluster: {name: c1, qos: [normal]}
qos: {normal: {}}
accounts:
  science:
    fairshare: 40
    children:
      physics: {fairshare: 30}
      chem: {fairshare: 10, limits: {GrpTRES: cpu=128}}
users:
  alice: {associations: [physics]}
  bob: {associations: [chem]}
"""


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_apply_prints_plan_then_second_apply_is_empty(fscli, tmp_path):
    path = write(tmp_path, "t.yaml", SMALL)
    first = fscli.ok("apply", path)
    assert first.stdout.splitlines() == [
        "+ qos normal: priority=0 usage_factor=1.0",
        "+ cluster c1: fairshare=1 qos=normal",
        "+ account science: parent=root description=science organization=science fairshare=40",
        "+ account chem: parent=science description=chem organization=science fairshare=10 "
        "GrpTRES=cpu=128",
        "+ account physics: parent=science description=physics organization=science fairshare=30",
        "+ user alice: default_account=physics admin_level=None",
        "+ assoc alice/physics: fairshare=1",
        "+ user bob: default_account=chem admin_level=None",
        "+ assoc bob/chem: fairshare=1",
    ]
    assert first.stderr == (
        "applied 9 change(s) to cluster c1: 9 to add, 0 to change, 0 to remove\n"
    )
    second = fscli.ok("apply", path)
    assert second.stdout == ""
    assert "no changes" in second.stderr
    tree = fscli.ok("assoc", "list", "-P", "format=Account,User,Share,GrpTRES").stdout
    assert tree.splitlines() == [
        "Account|User|Share|GrpTRES",
        "root||1|",
        "science||40|",
        "chem||10|cpu=128",
        "chem|bob|1|",
        "physics||30|",
        "physics|alice|1|",
    ]


def test_an_apply_dry_run_that_changes_things_keeps_the_store_as_it_was(fscli, tmp_path):
    """On an SQLite file the plan is read on a plain ``sqlite3`` connection and written
    by an ORM session inside its transaction: a dry run rolls all of it back."""
    path = write(tmp_path, "t.yaml", SMALL)
    fscli.ok("-Q", "apply", path)
    before = (fscli.ok("export").stdout, fscli.ok("history").stdout)
    changed = SMALL.replace("fairshare: 30", "fairshare: 35") + "  carol: {associations: [chem]}\n"
    dry = fscli.ok("apply", "--dry-run", write(tmp_path, "c.yaml", changed))
    assert (
        dry.stderr == "would apply 3 change(s) to cluster c1: 2 to add, 1 to change, 0 to remove\n"
    )
    assert (fscli.ok("export").stdout, fscli.ok("history").stdout) == before
    applied = fscli.ok("apply", str(tmp_path / "c.yaml"))
    assert applied.stdout == dry.stdout
    assert (
        applied.stderr == "applied 3 change(s) to cluster c1: 2 to add, 1 to change, 0 to remove\n"
    )
    assert fscli.ok("export").stdout != before[0]


@pytest.mark.slow  # a process that imports afresh
def test_an_apply_that_changes_nothing_loads_no_sqlalchemy(fscli, tmp_path):
    """The plan of an SQLite file is read on a plain ``sqlite3`` connection: SQLAlchemy
    (0.25 s to import) only writes, when the plan has changes."""
    from fscli.store import db

    if db.resolve_url(fscli.db).file is None:
        pytest.skip("a server store is read through SQLAlchemy")
    path = write(tmp_path, "t.yaml", SMALL)
    program = (
        "import sys; from fscli.cli.main import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit as exc:\n    assert not exc.code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic')))"
    )
    loaded = []
    for dry in (["--dry-run"], [], [], ["--dry-run"]):
        done = subprocess.run(
            [sys.executable, "-c", program, "--db", fscli.db, "-Q", "apply", *dry, path],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
        )
        loaded.append(done.stdout != "[]\n")
        shutil.rmtree(tmp_path / "cache", ignore_errors=True)  # no note: the plan is read
    assert loaded == [True, True, False, False]


def test_apply_changes_and_prune(fscli, tmp_path):
    fscli.ok("apply", write(tmp_path, "t.yaml", SMALL))
    changed = SMALL.replace("fairshare: 30", "fairshare: 35").replace(
        "  bob: {associations: [chem]}\n", ""
    )
    path = write(tmp_path, "t2.yaml", changed)
    keep = fscli.ok("apply", path)
    assert keep.stdout == "~ account physics: fairshare: 30 -> 35\n"
    dry = fscli.ok("apply", path, "--prune", "--dry-run")
    assert dry.stdout == "- assoc bob/chem\n- user bob\n"
    assert dry.stderr.startswith("would apply 2 change(s)")
    assert "bob" in fscli.ok("user", "list", "-P").stdout
    fscli.ok("apply", path, "--prune")
    assert "bob" not in fscli.ok("user", "list", "-P").stdout
    history = fscli.ok("history", "-P").stdout.splitlines()
    assert any("|modify account|physics@c1|fairshare=30 -> 35" in h for h in history)
    assert any("|delete association|bob/chem@c1|" in h for h in history)


def test_prune_removes_accounts_subtree_and_moves(fscli, tmp_path):
    fscli.ok("apply", write(tmp_path, "t.yaml", SMALL))
    moved = """\
cluster: {name: c1, qos: [normal]}
qos: {normal: {}}
accounts:
  physics: {fairshare: 30}
users:
  alice: {associations: [physics]}
"""
    result = fscli.ok("apply", write(tmp_path, "m.yaml", moved), "--prune")
    assert result.stdout.splitlines() == [
        "~ account physics: parent: science -> root organization: science -> physics",
        "- assoc bob/chem",
        "- user bob",
        "- account chem",
        "- account science",
    ]
    assert fscli.ok("assoc", "list", "-P", "format=Account,User").stdout.splitlines() == [
        "Account|User",
        "root|",
        "physics|",
        "physics|alice",
    ]


def test_export_apply_prune_reproduces_example(fscli, tmp_path, db_path):
    fscli.ok("apply", str(EXAMPLE))
    exported = fscli.ok("export").stdout
    from tests.conftest import Fscli

    fresh = Fscli(str(tmp_path / "fresh.db"))
    fresh.ok("apply", write(tmp_path, "e.yaml", exported), "--prune")
    assert fresh.ok("export").stdout == exported
    assert (
        fresh.ok("export", "--format", "dump").stdout
        == fscli.ok("export", "--format", "dump").stdout
    )
    assert fscli.ok("apply", write(tmp_path, "e.yaml", exported), "--prune").stdout == ""


def test_export_of_demo_store_round_trips(fscli, tmp_path):
    fscli.ok("demo")
    fscli.ok("user", "modify", "user1", "set", "adminlevel=operator")
    exported = fscli.ok("--cluster", "demo", "export").stdout
    from tests.conftest import Fscli

    fresh = Fscli(str(tmp_path / "fresh.db"))
    fresh.ok("apply", write(tmp_path, "demo.yaml", exported), "--prune")
    assert fresh.ok("export").stdout == exported
    assert (
        fresh.ok("assoc", "list", "-P").stdout
        == fscli.ok("--cluster", "demo", "assoc", "list", "-P").stdout
    )


@pytest.mark.parametrize(
    "name", ["classic_doc/fairtree", "classic_doc/classic", "sacctmgr_messages"]
)
def test_load_golden_dump_then_dump_is_byte_identical(fscli, tmp_path, name):
    src = next((GOLDEN / name).glob("*dump.cfg"))
    fscli.ok("load", str(src))
    first = tmp_path / "first.cfg"
    fscli.ok("dump", f"file={first}")
    from tests.conftest import Fscli

    again = Fscli(str(tmp_path / "again.db"))
    again.ok("load", str(first))
    second = tmp_path / "second.cfg"
    again.ok("dump", f"file={second}")
    assert first.read_text() == second.read_text()
    assert fscli.ok("load", str(first)).stdout == ""


def test_load_golden_fairtree_exact(fscli, tmp_path):
    src = GOLDEN / "classic_doc" / "fairtree" / "sacctmgr_dump.cfg"
    fscli.ok("load", str(src))
    out = tmp_path / "o.cfg"
    fscli.ok("dump", "oracle", f"file={out}")
    assert out.read_text() == src.read_text()
    shares = fscli.ok("assoc", "list", "-P", "format=Account,User,Share").stdout
    assert shares.splitlines()[:4] == ["Account|User|Share", "root||1", "a||40", "b||30"]


def test_load_creates_missing_qos_and_partitions(fscli):
    src = GOLDEN / "sacctmgr_messages" / "roundtrip_dump.cfg"
    result = fscli.ok("load", str(src))
    assert "+ qos qhigh: priority=0 usage_factor=1.0" in result.stdout
    assert "+ partition high: priority_job_factor=1 priority_tier=1" in result.stdout
    assoc = fscli.ok("assoc", "list", "-P", "format=Account,User,Partition,Share,QOS").stdout
    # as sacctmgr show assoc (golden call 67): the list in force, the delta applied
    assert "rich|ruser1||parent|normal,qlow" in assoc
    assert "rich|ruser2|high|7|normal,qhigh,qlow" in assoc
    rows = json.loads(
        fscli.ok("assoc", "list", "--json", "user=ruser1", "format=Account,User,QOS").stdout
    )["associations"]
    assert rows == [
        {
            "Account": "rich",
            "User": "ruser1",
            "QOS": "normal,qlow",
            "QOSInherited": True,
            "QOSRaw": "-qhigh",
        },
        {
            "Account": "richsub",
            "User": "ruser1",
            "QOS": "normal,qhigh,qlow",
            "QOSInherited": True,
            "QOSRaw": "",
        },
    ]


def test_load_another_cluster_is_an_error_unless_cluster_given(fscli, tmp_path):
    fscli.ok("cluster", "add", "c1")
    src = str(GOLDEN / "classic_doc" / "fairtree" / "sacctmgr_dump.cfg")
    bad = fscli.fails("load", src, code=1)
    assert "this file is for cluster 'oracle', not 'c1'" in bad.stderr
    fscli.ok("load", src, "cluster=c1")
    assert "c1|a|" in fscli.ok("assoc", "list", "-P", "format=Cluster,Account,User").stdout


def test_dump_default_file_name(fscli, tmp_path, monkeypatch):
    fscli.ok("cluster", "add", "c1")
    monkeypatch.chdir(tmp_path)
    result = fscli.ok("dump")
    assert result.stderr == ("No filename given, using ./c1.cfg.\ndumped cluster c1 to ./c1.cfg\n")
    assert (tmp_path / "c1.cfg").read_text().endswith("Cluster - 'c1':Fairshare=1:QOS='normal'\n")


def test_the_plan_is_a_tree_on_a_terminal(fscli, tmp_path, monkeypatch):
    """One switch says whether stdout is a terminal, for the plan as for the tables."""
    monkeypatch.setattr("fscli.render.tables.is_terminal", lambda stream: True)
    path = write(tmp_path, "t.yaml", "cluster: {name: c1}\naccounts:\n  chem: {fairshare: 10}\n")
    out = fscli.ok("apply", path, "--dry-run").stdout
    assert out == (
        "plan for cluster c1\n"
        "├── cluster\n"
        "│   └── \x1b[32m+ c1\x1b[0m fairshare=1\n"
        "└── accounts\n"
        "    └── \x1b[32m+ chem\x1b[0m parent=root description=chem organization=chem "
        "fairshare=10\n"
    )


def test_load_dry_run_changes_nothing(fscli):
    src = str(GOLDEN / "classic_doc" / "fairtree" / "sacctmgr_dump.cfg")
    result = fscli.ok("load", src, "--dry-run")
    assert result.stdout.startswith("+ qos normal")
    assert result.stderr.startswith("would apply")
    fscli.fails("assoc", "list", code=1)


BAD_YAML = [
    ("cluster: {name: c1\n", "bad.yaml:2: YAML syntax error"),
    ("cluster: {name: c1}\nacounts: {}\n", "bad.yaml:2: acounts"),
    (
        "cluster: {name: c1}\nusers:\n  al: {associations: [nope]}\n",
        "account 'nope' does not exist",
    ),
    (
        "cluster: {name: c1}\naccounts:\n  a: {}\n  b: {children: {a: {}}}\n",
        "account 'a' is given twice",
    ),
    ("cluster: {name: c1}\naccounts:\n  a: {parent: b}\n  b: {parent: a}\n", "parent cycle"),
    ("cluster: {name: c1}\naccounts:\n  a: {qos: [gold]}\n", "QOS 'gold' is used but not defined"),
]


@pytest.mark.parametrize("text,message", BAD_YAML)
def test_apply_bad_yaml_applies_nothing(fscli, tmp_path, text, message):
    fscli.ok("cluster", "add", "c1")
    before = fscli.ok("history", "-P").stdout
    result = fscli.fails("apply", write(tmp_path, "bad.yaml", text), code=1)
    assert message in result.stderr
    assert fscli.ok("history", "-P").stdout == before


BAD_FLAT = [
    ("Parent - 'root'\nAccount - 'a'\n", "line(1) You need to specify a cluster name first"),
    ("Cluster - 'c1'\nParent - 'x'\n", "line(2) You need to add this parent (x)"),
    ("Cluster - 'c1'\nThing - 'x'\n", "line(2)"),
    ("Cluster - 'c1'\nAccount - 'a':GrpTRES=cpu=abc\n", "line(2)"),
]


@pytest.mark.parametrize("text,message", BAD_FLAT)
def test_load_bad_flat_file_applies_nothing(fscli, tmp_path, text, message):
    fscli.ok("db", "upgrade")
    result = fscli.fails("load", write(tmp_path, "bad.cfg", text), code=1)
    assert message in result.stderr
    assert "the store holds no cluster" in fscli.fails("assoc", "list").stderr


def test_prune_refuses_active_jobs_is_atomic(fscli, tmp_path):
    fscli.ok("apply", write(tmp_path, "t.yaml", SMALL))
    from sqlalchemy import create_engine, insert

    from fscli.store import models as m
    from fscli.store.db import resolve_url

    engine = create_engine(resolve_url(fscli.db).url)
    with engine.begin() as conn:
        aid = (
            conn.execute(
                m.Association.__table__.select().where(m.Association.__table__.c.user == "bob")
            )
            .first()
            .id
        )
        conn.execute(
            insert(m.Job.__table__).values(
                id=1, assoc_id=aid, user="bob", state="running", submit=0
            )
        )
    engine.dispose()
    smaller = SMALL.replace("  bob: {associations: [chem]}\n", "").replace(
        "physics: {fairshare: 30}", "physics: {fairshare: 31}"
    )
    result = fscli.fails("apply", write(tmp_path, "s.yaml", smaller), "--prune", code=1)
    assert "Job(s) active" in result.stderr
    assert "physics||30" in fscli.ok("assoc", "list", "-P", "format=Account,User,Share").stdout


def test_export_to_a_file_is_all_or_nothing(science, tmp_path, monkeypatch):
    (tmp_path / "out").mkdir()
    path = tmp_path / "out" / "tree.yaml"
    path.write_text("keep me\n")
    path.chmod(0o640)
    exported = science.ok("export").stdout
    assert science.ok("export", "-o", str(path)).stdout == ""
    assert path.read_text() == exported
    assert path.stat().st_mode & 0o777 == 0o640  # the file keeps its mode
    path.write_text("keep me\n")

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", fail)
    err = science.fails("export", "-o", str(path), code=1).stderr
    assert err == f"fscli: error: cannot write {path}: No space left on device\n"
    assert path.read_text() == "keep me\n"
    assert [p.name for p in path.parent.iterdir()] == ["tree.yaml"]  # no temporary left


def test_a_long_plan_is_summed_up_unless_full_plan_and_quiet_prints_none(fscli, tmp_path):
    tree = tmp_path / "big.yaml"
    tree.write_text(
        "cluster:\n  name: c1\naccounts:\n"
        + "".join(f"  a{i:02d}: {{fairshare: {i + 1}}}\n" for i in range(60))
    )
    lines = fscli.ok("apply", str(tree), "--dry-run").stdout.splitlines()
    assert lines[:5] == [
        "plan for cluster c1: 61 change(s)",
        "  + 60 accounts to add",
        "  + 1 cluster to add",
        "first changes:",
        "+ cluster c1: fairshare=1",
    ]
    assert lines[5:] == [
        f"+ account a{i:02d}: parent=root description=a{i:02d} "
        f"organization=a{i:02d} fairshare={i + 1}"
        for i in range(19)
    ] + ["... and 41 more line(s): --full-plan prints every one"]
    full = fscli.ok("apply", str(tree), "--dry-run", "--full-plan").stdout.splitlines()
    assert len(full) == 61 and full[-1].startswith("+ account a59: ")
    quiet = fscli.ok("-Q", "apply", str(tree))
    assert (quiet.stdout, quiet.stderr) == ("", "")
    assert fscli.ok("assoc", "list", "-P", "-n", "format=Account").stdout.count("\n") == 61
