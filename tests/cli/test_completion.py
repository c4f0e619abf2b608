"""Shell completion: committed scripts are current; names complete from the store."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from fscli.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_committed_completion_scripts_are_current(shell):
    result = CliRunner().invoke(
        cli, [], prog_name="fscli", env={"_FSCLI_COMPLETE": f"{shell}_source"}
    )
    assert result.exit_code == 0
    # Click versions differ in one trailing newline; the script itself must be identical.
    committed = (ROOT / "completions" / f"fscli.{shell}").read_text()
    assert result.stdout.rstrip("\n") == committed.rstrip("\n"), (
        f"completions/fscli.{shell} is stale: regenerate with _FSCLI_COMPLETE={shell}_source fscli"
    )


def complete(db: str, line: str) -> list[str]:
    """Click's bash protocol: COMP_WORDS is the line, COMP_CWORD the last word's index."""
    words = line.split(" ")
    env = {
        "_FSCLI_COMPLETE": "bash_complete",
        "COMP_WORDS": f"fscli --db {db} {line}",
        "COMP_CWORD": str(len(words) + 2),
    }
    result = CliRunner().invoke(cli, [], prog_name="fscli", env=env)
    assert result.exit_code == 0, result.output
    return [item.split(",", 1)[1] for item in result.stdout.splitlines() if item]


def test_value_after_key_completes_from_store(science, db_path):
    assert complete(db_path, "user add bob account=ph") == ["account=physics"]
    assert complete(db_path, "user add bob account=chem,ph") == ["account=chem,physics"]
    # bash splits at '=' (COMP_WORDBREAKS): then only the value is replaced
    assert complete(db_path, "user add bob account = ph") == ["physics"]
    assert complete(db_path, "account add x parent = sc") == ["science"]


def test_names_and_keys_complete(science, db_path):
    got = complete(db_path, "account modify ch")
    assert got[0] == "chem"
    assert complete(db_path, "user modify a") == ["alice", "account=", "adminlevel="]
    assert complete(db_path, "assoc list format=Acc") == []  # not a name-valued key


def test_no_store_means_no_names_and_no_error(tmp_path):
    assert complete(str(tmp_path / "missing.db"), "account modify x") == []
    # a home directory that cannot be expanded: no names either, not a traceback
    assert complete("~no-such-user-fscli/x.db", "account modify x") == []


def test_store_names_with_url_characters_complete_from_that_store(science, db_path, tmp_path):
    """The file fscli opens for --db, also named by a %-escaped sqlite:/// URL (an SQLite
    URI made of the raw name opened another file: no names)."""
    odd = tmp_path / "a#b?c%d.db"
    shutil.copy(db_path, odd)
    assert complete(str(odd), "account modify ch") == ["chem"]
    url = "sqlite:///" + str(odd).replace("%", "%25").replace("#", "%23").replace("?", "%3F")
    assert complete(url, "account modify ch") == ["chem"]
    assert complete("postgresql+psycopg://nobody@127.0.0.1:1/none", "account modify ch") == []


@pytest.mark.skipif(
    shutil.which("fscli") is None or shutil.which("bash") is None,
    reason="needs the installed fscli and bash",
)
def test_real_bash_completion_sees_account_names(science, db_path):
    script = ROOT / "completions" / "fscli.bash"
    cmd = (
        f"source {script}; COMP_WORDS=(fscli --db {db_path} user add bob account = ph); "
        "COMP_CWORD=8; _fscli_completion fscli; printf '%s\\n' \"${COMPREPLY[@]}\""
    )
    out = subprocess.run(
        ["bash", "-c", cmd],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "FSCLI_DB": db_path},
    )
    assert out.stdout.split() == ["physics"], out.stderr


def test_job_ids_and_the_cluster_option_complete(science, db_path):
    science.ok("cluster", "add", "c2")
    for n in (41, 42, 57):
        science.ok("--cluster", "c1", "job", "submit", "user=alice", f"id={n}")
    assert complete(db_path, "job cancel 4") == ["41", "42"]
    assert complete(db_path, "job modify 5") == ["57"]
    assert complete(db_path, "job modify 41 pri") == ["priority="]
    assert complete(db_path, "--cluster c") == ["c1", "c2"]


def test_a_tab_after_sshare_e_completes_instead_of_printing_the_fields(science, db_path):
    """``-e`` prints sshare's field list and exits, but not while a TAB parses the words."""
    assert complete(db_path, "sshare -e --al") == ["--all", "--algorithm"]
