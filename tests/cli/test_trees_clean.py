"""``fscli load FILE clean``: wipe the cluster's accounts, users and associations, then load."""

from __future__ import annotations

from tests.cli.test_trees import GOLDEN, SMALL, write

FLAT = """\
Cluster - 'c1':Fairshare=1:QOS='normal'
Parent - 'root'
Account - 'physics':Description='physics':Organization='physics':Fairshare=7
Parent - 'physics'
User - 'alice':DefaultAccount='physics':Fairshare=2
User - 'carol':DefaultAccount='physics':Fairshare=1
"""


def test_load_clean_wipes_then_loads(fscli, tmp_path):
    fscli.ok("apply", write(tmp_path, "t.yaml", SMALL))
    fscli.ok("usage", "add", "user=bob", "account=chem", "raw=100", "at=2026-01-01T00:00:00")
    result = fscli.ok("load", write(tmp_path, "c1.cfg", FLAT), "clean")
    assert result.stdout.splitlines() == [
        "- assoc alice/physics",
        "- user alice",
        "- assoc bob/chem",
        "- user bob",
        "- account physics",
        "- account chem",
        "- account science",
        "+ account physics: parent=root description=physics organization=physics fairshare=7",
        "+ user alice: default_account=physics admin_level=None",
        "+ assoc alice/physics: fairshare=2",
        "+ user carol: default_account=physics admin_level=None",
        "+ assoc carol/physics: fairshare=1",
    ]
    assert result.stderr == (
        "applied 12 change(s) to cluster c1: 5 to add, 0 to change, 7 to remove\n"
    )
    assert fscli.ok("assoc", "list", "-P", "format=Account,User,Share").stdout.splitlines() == [
        "Account|User|Share",
        "root||1",
        "physics||7",
        "physics|alice|2",
        "physics|carol|1",
    ]
    assert "bob" not in fscli.ok("user", "list", "-P").stdout
    assert "science" not in fscli.ok("account", "list", "-P").stdout
    history = fscli.ok("history", "-P").stdout
    assert "|delete account|science@c1|" in history
    assert "|add association|carol/physics@c1|fairshare=1" in history
    out = tmp_path / "again.cfg"
    fscli.ok("dump", f"file={out}")
    assert out.read_text().endswith(FLAT)


def test_load_clean_dry_run_and_file_word(fscli, tmp_path):
    fscli.ok("apply", write(tmp_path, "t.yaml", SMALL))
    before = fscli.ok("assoc", "list", "-P").stdout
    path = write(tmp_path, "c1.cfg", FLAT)
    dry = fscli.ok("load", f"file={path}", "CLEAN", "--dry-run")
    assert dry.stdout.startswith("- assoc alice/physics\n")
    assert dry.stderr.startswith("would apply 12 change(s)")
    assert fscli.ok("assoc", "list", "-P").stdout == before
    assert "load needs one file" in fscli.fails("load", "clean", code=2).stderr


def test_load_clean_into_empty_store_is_a_plain_load(fscli, tmp_path):
    src = str(GOLDEN / "classic_doc" / "fairtree" / "sacctmgr_dump.cfg")
    plain = fscli.ok("load", src, "--dry-run").stdout
    assert fscli.ok("load", src, "clean").stdout == plain
    again = fscli.ok("load", src, "clean")
    removed = [line for line in again.stdout.splitlines() if line.startswith("-")]
    added = [line for line in again.stdout.splitlines() if line.startswith("+")]
    assert len(removed) == len(added) > 0
    out = tmp_path / "o.cfg"
    fscli.ok("dump", "oracle", f"file={out}")
    assert (
        out.read_text() == (GOLDEN / "classic_doc" / "fairtree" / "sacctmgr_dump.cfg").read_text()
    )


def test_load_clean_refuses_active_jobs_and_changes_nothing(fscli, tmp_path):
    fscli.ok("apply", write(tmp_path, "t.yaml", SMALL))
    fscli.ok(
        "job",
        "submit",
        "user=bob",
        "account=chem",
        "state=running",
        "submit=2026-01-01T00:00:00",
        "start=2026-01-01T00:00:00",
    )
    before = fscli.ok("assoc", "list", "-P").stdout
    result = fscli.fails("load", write(tmp_path, "c1.cfg", FLAT), "clean", code=1)
    assert "Job(s) active" in result.stderr
    assert fscli.ok("assoc", "list", "-P").stdout == before


def test_config_show_hides_internal_keys(fscli):
    fscli.ok("load", str(GOLDEN / "sacctmgr_messages" / "roundtrip_dump.cfg"))
    fscli.ok("config", "set", "PriorityWeightAge=10")
    shown = fscli.ok("config", "show", "-P", "--all").stdout
    assert "fscli:" not in shown
    assert "PriorityWeightAge|10|set" in shown
