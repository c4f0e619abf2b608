"""The ``fscli`` program's answer cache (``fscli.cli.answers``): a repeated read command is
answered from its kept answer, byte for byte what the command prints, before click is
imported; never a write, a terminal's answer, a ``--read-only`` one, a relative ``--at``,
a failure, or a stale answer. (The windows and the entries' checks: tests/api.)"""

from __future__ import annotations

import os
import pty
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from fscli.cli.main import cli
from tests.conftest import build_science

AT = "2026-05-01T12:02:30"
ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("click", "sqlalchemy", "fscli.engine", "fscli.render", "fscli.api.views")
PROGRAM = (
    "import os, sys\n"
    "leave = os._exit\n"
    "def _exit(code):\n"  # what the process imported, said as it leaves
    f"    heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
    "    os.write(int(os.environ['TEST_SAID_FD']), ' '.join(heavy).encode())\n"
    "    leave(code)\n"
    "os._exit = _exit\n"
    "sys.argv[0] = 'fscli'\n"
    "from fscli.cli.main import console\n"
    "console()\n"
)


def build_site(fscli) -> None:
    """The science tree, a charge, a running job (limits enforced: TRESRunMins)."""
    build_science(fscli)
    fscli.ok("cluster", "modify", "c1", "set", "nodes=4", "cpus=64")
    fscli.ok("partition", "add", "p1", "nodes=4", "cpus=64")
    fscli.ok("config", "set", "AccountingStorageEnforce=limits")
    fscli.ok("usage", "add", "user=bob", "account=chem", "raw=7200", "at=2026-05-01T12:02:00")
    fscli.ok(
        "job", "submit", "user=alice", "partition=p1", "cpus=8", "state=running",
        "start=2026-05-01T11:00:00", "time=600", at=AT,
    )  # fmt: skip
    fscli.ok("config", "set", "PriorityWeightAge=1000", "PriorityWeightFairshare=10000")
    for user in ("bob", "carol"):
        fscli.ok("job", "submit", f"user={user}", "partition=p1", "cpus=4", at="2026-05-01T11:30")


@pytest.fixture
def site(fscli, template):
    return template(fscli, build_site)


class Run:
    def __init__(self, done: subprocess.CompletedProcess, heavy: str):
        self.code = done.returncode
        self.out = done.stdout
        self.err = done.stderr
        self.heavy = heavy.split()

    @property
    def replayed(self) -> bool:
        return not self.heavy


def run(*argv: str, env: dict | None = None, stdin: str = "", stdout=None) -> Run:
    """The installed program (its ``console``) on ``argv``, in the test's environment."""
    read, write = os.pipe()
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, *argv],
        capture_output=stdout is None,
        stdout=stdout,
        input=stdin.encode(),
        env={**os.environ, **(env or {}), "TEST_SAID_FD": str(write)},
        cwd=ROOT,
        pass_fds=(write,),
    )
    os.close(write)
    with os.fdopen(read) as said:
        heavy = said.read()
    return Run(done, heavy)


def folder() -> Path:
    return Path(os.environ["XDG_CACHE_HOME"], "fscli", "answers")


def entries() -> list[str]:
    return sorted(os.listdir(folder())) if folder().exists() else []


FORMS = [
    ("sshare", "-a", "-P"),
    ("sshare", "-a", "-l", "-P"),
    ("sshare", "-a", "-p", "-n"),
    ("sshare", "-A", "chem", "-P"),
    ("sshare", "-u", "alice", "-o", "Account,User%15,FairShare"),
    ("sshare", "-a", "--json"),
    ("sshare", "-a"),  # the table for pipes
    ("sshare", "-a", "--over", "--sort", "-RawUsage", "-P"),
    ("sshare", "--explain", "alice/physics"),
    ("sprio",),
    ("sprio", "-l"),
    ("sprio", "-l", "-n", "-u", "bob"),
    ("sprio", "-o", "%i|%u|%Y|%a|%f", "-h"),
    ("sprio", "--json"),
    ("sprio", "--explain", "3"),
    ("sacctmgr", "-P", "show", "assoc"),
    ("sacctmgr", "-p", "-n", "list", "associations", "format=Account,User,Share", "tree"),
    ("sacctmgr", "show", "user", "withassoc"),
    ("sacctmgr", "-P", "show", "account"),
    ("sacctmgr", "list", "cluster"),
    ("sacctmgr", "-P", "show", "tres"),
]


@pytest.mark.parametrize("words", FORMS, ids=" ".join)
def test_a_kept_answer_is_what_the_command_prints(site, db_path, words):
    argv = ("--db", db_path, "--at", AT, *words)
    first = run(*argv)
    assert (first.code, first.err) == (0, b""), first.err
    assert "click" in first.heavy
    assert len(entries()) == 1
    again = run(*argv)
    assert (again.code, again.out, again.err) == (0, first.out, b"")
    assert again.replayed, again.heavy
    result = site.ok("--at", AT, *words)  # the command itself, in this process
    assert first.out == result.stdout_bytes


HOSTILE = [
    {"COLUMNS": "20"},
    {"COLUMNS": "300", "LINES": "5"},
    {"NO_COLOR": "1", "FORCE_COLOR": "1"},
    {"TZ": "Asia/Kolkata"},
    {"LANG": "C", "LC_ALL": "C"},
    {"FSCLI_CLUSTER": "c1"},
    {"TERM": "dumb"},
]


def test_every_variable_that_may_change_a_byte_is_part_of_the_question(site, db_path):
    argv = ("--db", db_path, "--at", AT, "sshare", "-a")
    plain = run(*argv)
    for env in HOSTILE:
        other = run(*argv, env=env)
        assert not other.replayed, env
        assert run(*argv, env=env).replayed, env
        assert run(*argv, env=env).out == other.out, env
    assert run(*argv, env={"TZ": "Asia/Kolkata"}).out != plain.out  # --at in local time
    assert len(entries()) == 1 + len(HOSTILE)


def test_a_write_makes_the_answer_stale(site, db_path):
    argv = ("--db", db_path, "--at", AT, "sacctmgr", "-P", "show", "assoc")
    before = run(*argv).out
    assert run(*argv).replayed
    site.ok("-Q", "user", "add", "dave", "account=physics")
    after = run(*argv)
    assert not after.replayed and b"|dave|" in after.out and b"|dave|" not in before
    conn = sqlite3.connect(db_path)  # another program's write
    with conn:
        conn.execute("DELETE FROM association WHERE user = 'dave'")
    conn.close()
    again = run(*argv)
    assert not again.replayed and again.out == before


def test_a_terminal_read_only_or_relative_moment_keeps_nothing(site, db_path):
    argv = ("--db", db_path, "--at", AT, "sshare", "-a", "-P")
    main, other = pty.openpty()
    try:
        assert run(*argv, stdout=other).code == 0
    finally:
        os.close(main)
        os.close(other)
    assert run("--read-only", *argv).code == 0
    assert run(*argv, env={"FSCLI_READ_ONLY": "1"}).code == 0
    for moment in ("now-1day", "today", "now"):
        assert run("--db", db_path, "--at", moment, "sshare", "-a", "-P").code == 0
    relative = run("--db", db_path, "sshare", "-a", "-P", env={"FSCLI_AT": "now-2hours"})
    assert relative.code == 0
    assert run("--db", db_path, "sshare", "-a", "--json").code == 0  # names this second
    assert not folder().exists()
    assert run("--db", db_path, "sshare", "-a", "-P").code == 0  # now: kept, in its window
    assert len(entries()) == 1


def test_failures_are_never_kept(site, db_path):
    for words, code in (
        (("sshare", "--sort", "Bogus"), 2),
        (("sshare", "--explain", "nosuch/chem"), 1),
        (("--cluster", "nope", "sshare", "-a"), 1),
        (("sacctmgr", "show", "assoc", "where", "bogus=1"), 1),
        (("sacctmgr", "show", "nosuch"), 1),
    ):
        first = run("--db", db_path, "--at", AT, *words)
        again = run("--db", db_path, "--at", AT, *words)
        assert first.code == again.code and first.err == again.err, words
        assert not again.replayed, words
        assert first.code == code and first.err, words
    assert not folder().exists()


def test_a_write_or_a_script_on_stdin_is_never_replayed(site, db_path):
    for i in (1, 2):
        added = run("--db", db_path, "sacctmgr", "-i", "add", "account", f"a{i}")
        assert added.code == 0 and not added.replayed
    script = run("--db", db_path, "sacctmgr", "-P", stdin="show assoc\n")
    assert script.code == 0 and b"|a2|" in script.out
    assert not folder().exists()


def test_a_replay_reads_only_its_entry_and_the_stamp(site, db_path):
    argv = ("--db", db_path, "--at", AT, "sshare", "-a", "-P")
    run(*argv)
    (name,) = entries()
    path = folder() / name
    whole = path.read_bytes()
    kept = run(*argv).out
    assert whole.endswith(kept)
    path.write_bytes(whole[: -len(kept)] + b"from the entry\n")  # no other source
    told = run(*argv)
    assert (told.out, told.replayed) == (b"from the entry\n", True)


@pytest.mark.parametrize(
    "argv",
    [
        ["--version"],
        ["--db", "x.db", "--at", "garbage", "-Q", "--version"],
        ["--read-only", "--cluster", "c9", "--debug", "--quiet", "--version"],
    ],
)
def test_version_is_clicks_without_click(site, argv):
    expected = site.runner.invoke(cli, argv)
    assert expected.exit_code == 0
    fast = run(*argv)
    assert (fast.code, fast.out, fast.err, fast.replayed) == (0, expected.stdout_bytes, b"", True)


@pytest.mark.parametrize(
    "argv", [["--db", "--version"], ["sshare", "--version"], ["--db=x", "--version"]]
)
def test_other_version_lines_are_clicks(site, argv):
    expected = site.runner.invoke(cli, argv)
    other = run(*argv)
    assert (other.code, other.out, other.err) == (
        expected.exit_code,
        expected.stdout_bytes,
        expected.stderr_bytes,
    )
    assert "click" in other.heavy


def test_a_reader_that_stops_early_is_no_error(site, db_path):
    argv = ("--db", db_path, "--at", AT, "sacctmgr", "show", "assoc", "format=Account%9999")
    run(*argv)
    for _ in range(2):
        pipe = subprocess.Popen(
            [sys.executable, "-c", PROGRAM, *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "TEST_SAID_FD": "2"},
            cwd=ROOT,
        )
        assert pipe.stdout is not None and pipe.stderr is not None
        pipe.stdout.read(10)
        pipe.stdout.close()
        said = pipe.stderr.read()
        assert (pipe.wait(), said) == (0, b"")  # replayed (nothing heavy), no error
