"""Shell completion: committed scripts are current; names complete from the store."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from fscli.cli.main import cli
from tests.conftest import build_science

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


def build_site(fscli) -> None:
    build_science(fscli)
    fscli.ok("qos", "add", "high")
    fscli.ok("partition", "add", "batch")
    fscli.ok("user", "add", "charlie", "account=physics")
    fscli.ok("job", "submit", "user=alice", "id=41")


@pytest.fixture
def site(fscli, template):
    """The store :func:`build_site` leaves, copied from its template."""
    return template(fscli, build_site)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # issue 35: the TABs a new admin tried, that completed nothing
        ("limits set qos=h", ["qos=high"]),
        ("limits show ", None),  # keys: checked below
        ("tree ph", ["physics"]),
        ("usage add user=ch", ["user=charlie"]),
        ("plot u", ["usage"]),
        ("config set PriorityW", None),
        ("sshare --explain ch", ["charlie/physics", "chem"]),
        ("sshare -A ", ["chem", "physics", "root", "science"]),
        ("sshare -A chem,ph", ["chem,physics"]),
        ("sprio --explain ", ["41"]),
        ("sacctmgr show a", ["account", "association"]),
        # more of the same kinds
        ("sshare -u al", ["alice"]),
        ("sshare --algorithm c", ["classic"]),
        ("sprio -p b", ["batch"]),
        ("plot usage -A sc", ["science"]),
        ("limits check user=b", ["user=bob"]),
        ("limits set account = ch", ["chem"]),
        ("config set PriorityType=priority/m", ["PriorityType=priority/multifactor"]),
        ("config set PriorityFlags=NO_FAIR_TREE,MAX", ["PriorityFlags=NO_FAIR_TREE,MAX_TRES"]),
        ("cluster delete c", ["c1", "cpus="]),
        ("job list user=a", ["user=alice"]),
        ("sacctmgr ", ["add", "create", "modify", "update", "delete", "remove"]),
        ("sacctmgr -i add ", ["account", "cluster", "coordinator", "qos", "user"]),
        ("sacctmgr show account ph", ["physics"]),
        ("sacctmgr -i add user dana account=ph", ["account=physics"]),
        ("sacctmgr -i modify user where name=al", ["name=alice"]),
        ("sacctmgr -i modify user where name=alice set qos+=h", ["qos+=high"]),
        ("sacctmgr -i modify account physics set pa", ["Parent=", "Partition="]),
        ("sacctmgr show assoc tr", ["tree"]),
        ("sacctmgr -i dump ", ["c1"]),
        ("sacctmgr -M ", ["c1"]),
        ("sacctmgr -i delete qos h", ["high"]),
        ("sacctmgr -i modify qos high set MaxJobsPerU", ["MaxJobsPerUser="]),
    ],
)
def test_every_name_and_fixed_value_completes(site, db_path, line, expected):
    got = complete(db_path, line)
    if expected is None:
        return
    if line.startswith("sacctmgr ") and line.endswith(" "):
        assert got[: len(expected)] == expected or set(expected) <= set(got), got
    else:
        assert got == expected


def test_keys_complete_where_a_command_takes_key_words(site, db_path):
    assert {"account=", "user=", "qos=", "partition=", "GrpTRES="} <= set(
        complete(db_path, "limits show ")
    )
    assert complete(db_path, "config set PriorityW") == [
        "PriorityWeightAge=",
        "PriorityWeightAssoc=",
        "PriorityWeightFairshare=",
        "PriorityWeightJobSize=",
        "PriorityWeightPartition=",
        "PriorityWeightQOS=",
        "PriorityWeightTRES=",
    ]
    assert complete(db_path, "sacctmgr -i add account bio f") == ["FairShare=", "Format="]


def test_the_algorithm_names_are_the_engines():
    from fscli.cli.complete import ALGORITHM_NAMES
    from fscli.engine.config import ALGORITHMS

    assert ALGORITHM_NAMES == ALGORITHMS


def test_the_plot_kinds_are_the_charts():
    from fscli.api.charts import KINDS
    from fscli.cli.fast.words import nodes

    assert nodes()["plot"]["arguments"][0]["complete"] == ["fixed", list(KINDS), False]


def _bash_reply(db_path: str, words: list[str]) -> list[str]:
    """COMPREPLY of completions/fscli.bash for ``fscli WORDS`` (the last word under the
    cursor), with the installed fscli: bash's own protocol, end to end."""
    script = ROOT / "completions" / "fscli.bash"
    array = " ".join(f"'{w}'" for w in ["fscli", *words])
    cmd = (
        f"source {script}; COMP_WORDS=({array}); COMP_CWORD={len(words)}; "
        "_fscli_completion fscli; printf '%s\\n' \"${COMPREPLY[@]}\""
    )
    out = subprocess.run(
        ["bash", "-c", cmd],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "FSCLI_DB": db_path},
    )
    assert out.stderr == ""
    return out.stdout.split()


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("fscli") is None or shutil.which("bash") is None,
    reason="needs the installed fscli and bash",
)
def test_real_bash_completes_names_keys_and_sacctmgr_words(site, db_path):
    assert _bash_reply(db_path, ["limits", "set", "qos", "=", "h"]) == ["high"]
    assert _bash_reply(db_path, ["sshare", "--explain", "ch"]) == ["charlie/physics", "chem"]
    assert _bash_reply(db_path, ["sprio", "--explain", ""]) == ["41"]
    assert _bash_reply(db_path, ["sacctmgr", "show", "a"]) == ["account", "association"]
    assert _bash_reply(db_path, ["sacctmgr", "-i", "add", "user", "x", "account", "=", "ph"]) == [
        "physics"
    ]


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("fscli") is None or shutil.which("bash") is None,
    reason="needs the installed fscli and bash",
)
def test_a_tab_in_an_interactive_bash_completes(site, db_path, tmp_path):
    """A real interactive bash in a pty, the completion script sourced as installed:
    ``fscli tree ph<TAB>`` becomes ``fscli tree physics``."""
    import pty
    import select
    import time

    rc = tmp_path / "rc"
    rc.write_text(f"PS1='$ '\nsource {ROOT / 'completions' / 'fscli.bash'}\n")
    env = {**os.environ, "FSCLI_DB": db_path, "TERM": "dumb", "HOME": str(tmp_path)}
    pid, fd = pty.fork()
    if pid == 0:  # the child: an interactive bash
        os.execvpe("bash", ["bash", "--noprofile", "--rcfile", str(rc), "-i"], env)
    seen = b""

    def read_until(marker: bytes, timeout: float = 20) -> bytes:
        nonlocal seen
        end = time.monotonic() + timeout
        while marker not in seen and time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(fd, 4096)
                except OSError:
                    break
        return seen

    try:
        read_until(b"$ ")
        os.write(fd, b"fscli tree ph\t")
        assert b"fscli tree physics" in read_until(b"physics"), seen
        os.write(fd, b"\x15fscli sshare -A chem,ph\t")  # ^U: a new line
        assert b"chem,physics" in read_until(b"chem,physics"), seen
    finally:
        os.write(fd, b"\x15exit\n")
        os.close(fd)
        os.waitpid(pid, 0)
