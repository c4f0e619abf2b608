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


def heavy_imports(db: str, *words: str) -> list[str]:
    code = (
        "import sys\n"
        "from fscli.cli.main import main\n"
        "try:\n"
        f"    main({['--db', db, '--at', '2026-11-01T00:00:00', *words]!r})\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        f"print('HEAVY:' + ','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return done.stdout.splitlines()[-1].removeprefix("HEAVY:").split(",")


@pytest.mark.parametrize(
    "words",
    [
        ["sshare", "-a", "-P"],
        ["sprio", "-l"],
        ["sshare", "-a", "-l"],
        ["assoc", "list", "-P"],
        ["tree"],
    ],
)
def test_a_read_view_imports_nothing_heavy(words, science, db_path):
    assert heavy_imports(db_path, *words) == [""]


def test_the_what_if_engine_comes_with_with(science, db_path):
    found = heavy_imports(db_path, "sshare", "-a", "-P", "--with", "account=physics fairshare=2")
    assert found == ["fscli.engine.whatif", "fscli.cli.qos"]
