"""Shared fixtures: a temporary store and a CLI runner bound to it.

Time zone is pinned to UTC so that moments without an offset read the same everywhere.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from tests.backends import BACKEND, empty_server_store

os.environ["TZ"] = "UTC"
time.tzset()
os.environ.pop("FSCLI_DB", None)
os.environ.pop("FSCLI_CLUSTER", None)
os.environ["USER"] = "tester"  # not the history's actor: that is the uid's user
os.environ.pop("SUDO_USER", None)
# The caller's terminal, colour and locale settings must not shape the output the tests
# compare (pytest-xdist workers get COLUMNS=80 from their spawner; a plain run gets none,
# and tables then take 160 columns). Tests that need one set it themselves; the product's
# answers to them are tested there. tests/test_environment.py runs the suite under hostile
# values of each.
for _name in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE"):
    os.environ.pop(_name, None)
for _name in ("LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LC_TIME", "LANGUAGE"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
os.environ["TERM"] = "xterm"  # a terminal with colours, where a test pretends to be one

# PYTHONDONTWRITEBYTECODE=1 (set in some shells and CI images) makes every process of the
# run compile every module it imports: each pytest-xdist worker its test modules (pytest
# rewrites their asserts again, 4-5 s of CPU a worker), and every `fscli` or `python`
# the tests start the package. The run keeps its bytecode instead, outside the checkout
# (the caller asked for no __pycache__ there), for itself and the processes it starts.
if sys.dont_write_bytecode:
    _PYCACHE = Path(__file__).resolve().parents[1] / ".pytest_cache" / "pycache"
    sys.dont_write_bytecode = False
    sys.pycache_prefix = sys.pycache_prefix or str(_PYCACHE)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ.setdefault("PYTHONPYCACHEPREFIX", sys.pycache_prefix)


def _memory_temproot(folder: str = "/dev/shm", room: int = 2**30) -> None:
    """Test folders (each test's stores) in memory when the system has a RAM file system
    with room to spare (a gigabyte: a run writes about 100 MB; a container's /dev/shm of
    64 MB is left alone): SQLite's writes, WAL checkpoints and closes then cost no disk
    I/O, about a fifth of a CLI test's time on the development machine's disk. pytest
    reads ``PYTEST_DEBUG_TEMPROOT`` when it first needs a test folder; the caller's own
    choice (that variable, or ``--basetemp``) wins."""
    if "PYTEST_DEBUG_TEMPROOT" in os.environ or not os.access(folder, os.W_OK | os.X_OK):
        return
    stat = os.statvfs(folder)
    if stat.f_bavail * stat.f_frsize >= room:
        os.environ["PYTEST_DEBUG_TEMPROOT"] = folder


_memory_temproot()

# Examples are bounded per test; their generation must not fail a test because the
# machine is busy (HealthCheck.too_slow, the per-example deadline): what a property
# test checks is its property, not the speed of the machine it runs on.
settings.register_profile(
    "fscli", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("fscli")

DATA = Path(__file__).parent / "data"


class Fscli:
    """Runs ``fscli --db <tmp store> ...`` through CliRunner; stdout and stderr apart."""

    def __init__(self, db: str):
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None, at: str | None = None):
        from fscli.cli.main import cli

        argv = ["--db", self.db]
        if at:
            argv += ["--at", at]
        return self.runner.invoke(cli, [*argv, *args], input=input, catch_exceptions=False)

    def ok(self, *args: str, **kw):
        result = self(*args, **kw)
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
        return result

    def sacctmgr_i(self, *lines: str) -> None:
        """Each line run as ``sacctmgr -i LINE`` (words split on spaces); each must succeed."""
        for line in lines:
            self.ok("sacctmgr", "-i", *line.split())

    def fails(self, *args: str, code: int | None = None, **kw):
        result = self(*args, **kw)
        assert result.exit_code != 0, (args, result.stdout)
        if code is not None:
            assert result.exit_code == code, (args, result.exit_code, result.stderr)
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        return result


@pytest.fixture(autouse=True)
def _own_home(tmp_path_factory, monkeypatch):
    """Each test its own home and cache directories (``fscli apply`` notes the trees it
    found unchanged in the cache; the default store lives in the home): nothing from the
    user's, nothing left in them, whether the caller's HOME is unset or unwritable."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def _one_test_per_server(request):
    """Tests of the SQLite pass that reach a database server (``backend`` parameter) share
    its one test database: under pytest-xdist, one such test at a time holds it (a file
    lock that every worker process takes)."""
    backend = getattr(getattr(request.node, "callspec", None), "params", {}).get("backend")
    if backend not in ("postgresql", "mysql"):
        yield
        return
    import fcntl
    import tempfile

    with open(Path(tempfile.gettempdir()) / f"fscli-tests-{backend}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture
def store(tmp_path) -> str:
    """The test's empty store: an SQLite file, or a server database (``tests/backends.py``)."""
    if BACKEND == "sqlite":
        return str(tmp_path / "store.db")
    return empty_server_store(BACKEND)


@pytest.fixture
def db_path(store) -> str:
    """The store as an SQLite file path, for tests of the file itself."""
    if BACKEND != "sqlite":
        pytest.skip(f"tests the SQLite store file; the {BACKEND} run covers the rest")
    return store


@pytest.fixture
def fscli(store) -> Fscli:
    return Fscli(store)


class Templates:
    """Stores built once per test process and copied into each test that asks for one.

    ``template(fscli, build)`` leaves in ``fscli``'s store what ``build(fscli)`` would:
    on SQLite the first call builds it in a template file and every call copies that file
    (a command costs 20-30 ms, and a fixture such as ``fscli demo`` a second); on a
    database server ``build`` runs each time. ``build`` must not depend on the test (its
    tmp_path, the clock) and is known by its qualified name.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self.built: dict[str, Path] = {}

    def __call__(self, fscli: Fscli, build) -> Fscli:
        if BACKEND != "sqlite":
            build(fscli)
            return fscli
        key = f"{build.__module__}.{build.__qualname__}"
        if key not in self.built:
            path = self.folder / f"{len(self.built)}.db"
            build(Fscli(str(path)))
            _checkpoint(path)
            self.built[key] = path
        shutil.copyfile(self.built[key], fscli.db)
        return fscli


def _checkpoint(path: Path) -> None:
    """Everything of the WAL in the file itself, so that the file alone is the store."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


@pytest.fixture(scope="session")
def template(tmp_path_factory) -> Templates:
    return Templates(tmp_path_factory.mktemp("templates"))


def build_science(fscli: Fscli) -> None:
    """The issue's example tree."""
    fscli.ok("cluster", "add", "c1")
    fscli.ok("account", "add", "science", "fairshare=40")
    fscli.ok("account", "add", "physics", "parent=science", "fairshare=30")
    fscli.ok("account", "add", "chem", "parent=science", "fairshare=10", "GrpTRES=cpu=128")
    fscli.ok("user", "add", "alice", "account=physics")
    fscli.ok("user", "add", "bob,carol", "account=chem", "fairshare=1")


@pytest.fixture
def science(fscli, template) -> Fscli:
    """The issue's example tree (:func:`build_science`)."""
    return template(fscli, build_science)


def slow_list(path: Path = Path(__file__).parent / "slow.txt") -> set[str]:
    """The test functions ``tests/slow.txt`` marks slow by their measured cost."""
    lines = (line.strip() for line in path.read_text().splitlines())
    return {line for line in lines if line and not line.startswith("#")}


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the marks
def pytest_collection_modifyitems(items):
    """The tests of ``tests/slow.txt`` get the ``slow`` mark. Then the tests marked slow
    run first: under pytest-xdist their files then start at once instead of last, where
    one worker would finish them alone while the other waits."""
    slow = slow_list()
    for item in items:
        if item.nodeid.split("[", 1)[0] in slow:
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _one_engine_per_store():
    """One SQLAlchemy engine per store and kind for the whole test, as one process would
    have for one command: each CliRunner call used to build a new engine, whose empty
    statement cache compiled every query again (a third of a write command's 25 ms). The
    engines are the product's own, disposed of after each command as before (so the
    connections of a file replaced meanwhile are not kept), and dropped with the test."""
    import fscli.store.db as db
    import fscli.store.new_file  # noqa: F401 - imports it by name: patched below too

    real = db.create_engine_for
    engines: dict = {}

    def create_engine_for(url, read_only=False, wal=True, **options):
        key = (url.url, read_only, wal, tuple(sorted(options.items())))
        if key not in engines:
            engines[key] = real(url, read_only, wal, **options)
        return engines[key]

    holders = [
        module
        for name, module in list(sys.modules.items())
        if name.startswith("fscli.") and getattr(module, "create_engine_for", None) is real
    ]
    for module in holders:
        module.create_engine_for = create_engine_for
    try:
        yield
    finally:
        for module in holders:
            module.create_engine_for = real
        for engine in engines.values():
            engine.dispose()
