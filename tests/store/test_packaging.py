"""The installed package: lazy imports, migrations inside the wheel, store creation."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

from fscli.store.db import HEAD
from tests.backends import once

pytestmark = once

ROOT = Path(__file__).resolve().parents[2]


def test_cli_module_imports_no_heavy_libraries():
    code = (
        "import sys, fscli.cli.main; "
        "print(','.join(m for m in ('sqlalchemy', 'alembic', 'yaml', 'rich') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == ""


def test_help_imports_no_heavy_libraries():
    code = (
        "import sys\nfrom fscli.cli.main import main\nsys.argv=['fscli','--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('HEAVY:' + ','.join(m for m in ('sqlalchemy','alembic','yaml','rich') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip().splitlines()[-1] == "HEAVY:"
    commands = {line.split()[0] for line in out.stdout.splitlines() if line.startswith("  ")}
    assert {"account", "sshare", "db"} <= commands, out.stdout


@pytest.mark.slow
def test_wheel_install_creates_and_upgrades_a_store(tmp_path):
    """A non-editable install (wheel) carries the migrations: no network needed."""
    pytest.importorskip("hatchling")
    wheel_dir = tmp_path / "wheel"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheel_dir),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next(wheel_dir.glob("fscli-*.whl"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "-q",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    # after the install: pip would otherwise find the test run's own fscli and skip the wheel
    _borrow_dependencies(python)
    assert (env_dir / "bin" / "fscli").exists()
    store = tmp_path / "new.db"

    def run(*a):
        return subprocess.run(
            [str(env_dir / "bin" / "fscli"), "--db", str(store), *a],
            check=False,
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )

    first = run("db", "upgrade")
    assert first.returncode == 0, first.stderr
    assert run("db", "current").stdout.strip() == HEAD
    assert run("account", "add", "a1").returncode == 0
    assert (store.stat().st_mode & 0o777) == 0o600
    located = subprocess.run(
        [str(python), "-c", "import fscli.store.db as d; print(d.migrations_dir())"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=True,
    ).stdout
    assert str(env_dir) in located and located.strip().endswith("fscli/migrations")


def _borrow_dependencies(python: Path) -> None:
    """Let the new venv import the test run's own dependencies (SQLAlchemy, Alembic, ...).

    A ``.pth`` file appends this interpreter's site-packages after the venv's own, so the
    wheel installed in the venv is the fscli that runs, whatever the system Python holds.
    """
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site_dir = subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    ours = [p for p in sys.path if p.endswith("site-packages")]
    Path(site_dir, "zz_test_deps.pth").write_text("".join(f"{p}\n" for p in ours))


@pytest.mark.slow  # seven processes
def test_console_exits_at_once_with_the_status_and_all_output(tmp_path):
    """``console`` skips interpreter teardown: the exit status and every line must survive."""
    store = str(tmp_path / "s.db")

    def run(*a):
        return subprocess.run(
            [sys.executable, "-m", "fscli", "--db", store, *a],
            check=False,
            capture_output=True,
            text=True,
        )

    added = run("cluster", "add", "c1")
    assert (added.returncode, added.stderr) == (0, "added cluster c1\n")
    for n in range(3):
        assert run("-Q", "account", "add", f"a{n}").returncode == 0
    listed = run("assoc", "list", "-P", "format=Account")
    assert (listed.returncode, listed.stdout) == (0, "Account\nroot\na0\na1\na2\n")
    again = run("cluster", "add", "c1")
    assert (again.returncode, again.stderr) == (1, "fscli: error: cluster 'c1' already exists\n")
    assert run("nosuch").returncode == 2
