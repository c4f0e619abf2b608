"""The small-store floor (issue 36): a read view imports what it uses, and no more.

Each command runs in a fresh interpreter, as the installed program runs it, and reports
which of the modules that cost start-up time it imported.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("sqlalchemy", "alembic", "yaml", "rich", "fscli.engine.whatif", "fscli.cli.qos")
"""What a read of an SQLite store piped elsewhere never needs: the ORM and migrations
(servers and writes), YAML (trees), rich (a terminal), the what-if engine (``--with``)
and the key tables of the write commands."""


SLOW_STDLIB = ("hashlib", "_hashlib", "shutil", "bz2", "lzma")
"""What no read needs: ``hashlib`` loads OpenSSL (2.5-3 ms; the pass cache names its
folder with the built-in ``_blake2``), ``shutil`` brings the compressors (1-3 ms)."""
TREE_ENGINE = ("fscli.engine.fairshare", "fscli.engine.tree", "fscli.engine.treespec")
"""The fair-share algorithms and the tree: ``sprio`` with a warm pass cache reads the
factors and computes no tree."""


def imported(db: str, names: tuple[str, ...], *words: str) -> list[str]:
    """Which of ``names`` the command ``words`` imports, in a fresh interpreter."""
    code = (
        "import sys\n"
        "from fscli.cli.main import main\n"
        "try:\n"
        f"    main({['--db', db, '--at', '2026-11-01T00:00:00', *words]!r})\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        f"print('HEAVY:' + ','.join(m for m in {names!r} if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return done.stdout.splitlines()[-1].removeprefix("HEAVY:").split(",")


def heavy_imports(db: str, *words: str) -> list[str]:
    return imported(db, HEAVY + SLOW_STDLIB, *words)


@pytest.mark.parametrize(
    "words",
    [
        ["sshare", "-a", "-P"],
        ["sprio", "-l"],
        ["sshare", "-a", "-l"],
        ["assoc", "list", "-P"],
        ["tree"],
        ["sacctmgr", "show", "assoc", "-P"],
        ["limits", "check", "user=alice", "cpus=4"],
    ],
)
def test_a_read_view_imports_nothing_heavy(words, science, db_path):
    assert heavy_imports(db_path, *words) == [""]


def test_the_what_if_engine_comes_with_with(science, db_path):
    found = heavy_imports(db_path, "sshare", "-a", "-P", "--with", "account=physics fairshare=2")
    assert found == ["fscli.engine.whatif", "fscli.cli.qos"]


@pytest.mark.parametrize("words", [["sprio"], ["sprio", "-l"], ["sprio", "-j", "1"]])
def test_sprio_with_a_warm_pass_cache_computes_no_tree(words, science, db_path):
    """The first sprio computes the tree (and fills the cache); the next reads the
    factors, and imports neither the fair-share algorithms nor the tree."""
    science.ok("partition", "add", "p1", "nodes=4", "cpus=64")
    science.ok("job", "submit", "user=alice", "partition=p1", "cpus=4", at="2026-10-31T22:00:00")
    assert imported(db_path, TREE_ENGINE, *words) == ["fscli.engine.fairshare"]
    assert imported(db_path, HEAVY + SLOW_STDLIB + TREE_ENGINE, *words) == [""]
    assert imported(db_path, TREE_ENGINE, "--read-only", *words) == [""]


def test_limits_show_imports_nothing_heavy_but_the_qos_keys(science, db_path):
    words = ["limits", "show", "user=alice", "account=physics", "--effective"]
    assert heavy_imports(db_path, *words) == ["fscli.cli.qos"]  # its key table has QOS's


def test_limits_check_imports_the_what_if_engine_only_with_with(science, db_path):
    found = imported(
        db_path,
        ("fscli.engine.whatif", "fscli.engine.treespec"),
        "limits", "check", "user=alice", "cpus=4", "--with", "account=physics GrpTRES=cpu=8",
    )  # fmt: skip
    assert found == ["fscli.engine.whatif", "fscli.engine.treespec"]
