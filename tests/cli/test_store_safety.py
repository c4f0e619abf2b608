"""Safety of the store: read-only viewers, online backups, clear errors for bad URLs."""

from __future__ import annotations

import os
import sqlite3

import pytest

from tests.backends import once, wiped_server_store
from tests.conftest import Fscli


def history_lines(fscli) -> list[str]:
    return fscli.ok("history", "-P", "-n").stdout.splitlines()


@pytest.mark.parametrize("how", ["option", "env"])
def test_read_only_refuses_every_change_and_changes_nothing(science, how, monkeypatch):
    before = (history_lines(science), science.ok("assoc", "list", "-P").stdout)
    if how == "env":
        monkeypatch.setenv("FSCLI_READ_ONLY", "1")
        flag = []
    else:
        flag = ["--read-only"]
    for words in (
        ["account", "add", "math"],
        ["user", "modify", "alice", "set", "fairshare=9"],
        ["usage", "add", "user=alice", "account=physics", "raw=10"],
        ["config", "set", "PriorityWeightAge=10"],
        ["account", "add", "x", "--dry-run"],
    ):
        err = science.fails(*flag, *words, code=1).stderr
        assert err == (
            "fscli: error: this command changes the store, and fscli is read-only "
            "here (--read-only or FSCLI_READ_ONLY); run it without that to change it\n"
        )
    monkeypatch.delenv("FSCLI_READ_ONLY", raising=False)
    assert (history_lines(science), science.ok("assoc", "list", "-P").stdout) == before


def test_read_only_views_work(science):
    assert "physics" in science.ok("--read-only", "sshare", "-a", "-P").stdout
    assert "physics" in science.ok("--read-only", "assoc", "list", "-P").stdout


def test_read_only_never_creates_a_store(tmp_path):
    missing = tmp_path / "none.db"
    err = Fscli(str(missing)).fails("--read-only", "assoc", "list", code=1).stderr
    assert err == f"fscli: error: no store at {missing}: read-only mode does not create one\n"
    assert not missing.exists()


def test_read_only_connection_refuses_writes_even_past_the_cli(science, db_path):
    """The second lock: the SQLite connection itself is query_only."""
    from sqlalchemy import text

    from fscli.store.db import open_engine

    engine = open_engine(db_path, read_only=True)
    try:
        with engine.connect() as conn, pytest.raises(Exception, match="readonly|read-only"):
            conn.execute(text("DELETE FROM account"))
    finally:
        engine.dispose()
    assert "physics" in science.ok("assoc", "list", "-P").stdout


def test_backup_is_a_private_consistent_copy(science, db_path, tmp_path):
    target = tmp_path / "backup.db"
    result = science.ok("db", "backup", str(target))
    assert result.stderr == f"backed up {db_path} to {target}\n"
    assert (target.stat().st_mode & 0o777) == 0o600
    conn = sqlite3.connect(target)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
    copy = Fscli(str(target))
    assert copy.ok("assoc", "list", "-P").stdout == science.ok("assoc", "list", "-P").stdout
    assert history_lines(copy) == history_lines(science)


def test_backup_refuses_to_overwrite_and_leaves_the_file(science, db_path, tmp_path):
    target = tmp_path / "exists.db"
    target.write_text("keep me")
    err = science.fails("db", "backup", str(target), code=1).stderr
    assert err == f"fscli: error: {target} exists; choose a new file name for the backup\n"
    assert target.read_text() == "keep me"


def test_backup_of_a_missing_store_or_a_server(tmp_path):
    missing = tmp_path / "none.db"
    err = Fscli(str(missing)).fails("db", "backup", str(tmp_path / "b.db"), code=1).stderr
    assert err == f"fscli: error: no store at {missing}; nothing to back up\n"
    assert not missing.exists()
    server = Fscli("postgresql+psycopg://admin:secret@127.0.0.1:1/fscli")
    err = server.fails("db", "backup", str(tmp_path / "b.db"), code=2).stderr
    assert err == (
        "fscli: error: db backup copies SQLite stores; for PostgreSQL use pg_dump, "
        "for MariaDB mariadb-dump\n"
    )


def test_unknown_url_scheme_is_one_clear_line():
    err = Fscli("nosuchdb://host/x").fails("assoc", "list", code=1).stderr
    assert err.startswith("fscli: error: unknown database URL scheme in nosuchdb://host/x; use ")


def test_a_home_directory_of_no_such_user_is_one_clear_line():
    err = Fscli("~no-such-user-fscli/x.db").fails("assoc", "list", code=1).stderr
    assert err == (
        "fscli: error: cannot open store ~no-such-user-fscli/x.db: no such user's home directory\n"
    )


def test_unreachable_server_hides_the_password():
    pytest.importorskip("psycopg")
    err = (
        Fscli("postgresql+psycopg://admin:secret@127.0.0.1:1/fscli")
        .fails("assoc", "list", code=1)
        .stderr
    )
    assert err.startswith(
        "fscli: error: cannot open store postgresql+psycopg://admin:***@127.0.0.1:1/fscli: "
    )
    assert "secret" not in err


def test_new_store_file_is_private(tmp_path):
    store = tmp_path / "new.db"
    old = os.umask(0)
    try:
        Fscli(str(store)).ok("cluster", "add", "c1")
    finally:
        os.umask(old)
    assert (store.stat().st_mode & 0o777) == 0o600


def test_names_longer_than_the_columns_are_refused(science):
    err = science.fails("account", "add", "a" * 65, code=1).stderr
    assert err == f"fscli: error: invalid account name '{'a' * 24}...': at most 64 characters\n"
    science.ok("account", "add", "b" * 64)


def test_no_sql_text_is_built_from_strings_at_run_time():
    """Queries are SQLAlchemy constructs or text made of constants (``fscli.store.sql``:
    column lists and generated parameter names; values are always parameters): no SQL is
    formatted at the call that runs it."""
    import re
    from pathlib import Path

    import fscli

    pattern = re.compile(
        r"(?:\btext|exec_driver_sql|\.execute)\(\s*(?:f[\"']|[\"'][^\"']*[\"']\s*[%+])"
    )
    found = [
        f"{p.name}:{n}"
        for p in Path(fscli.__file__).parent.rglob("*.py")
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("words", [("account", "add", "math"), ("sshare",)])
def test_a_database_error_while_opening_the_store_is_one_line(fscli, monkeypatch, words):
    """Opening may migrate the store, and a lock held elsewhere fails that as a DBAPI
    error: a write command reports it like any store error, as a view does (a view of an
    SQLite file opens it with sqlite3, whose error is the same line)."""
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from fscli.store import db

    def locked(*args, **kw):
        raise OperationalError("UPDATE alembic_version", {}, Exception("database is locked"))

    def locked_reader(*args, **kw):
        raise sqlite3.OperationalError("database is locked")

    fscli.ok("db", "upgrade")
    monkeypatch.setattr(db, "open_engine", locked)
    monkeypatch.setattr(db, "open_reader", locked_reader)
    err = fscli.fails(*words, code=1).stderr
    assert err == "fscli: error: the store is busy (database is locked); try again\n"


TREE = "cluster:\n  name: c1\naccounts:\n  chem:\n    fairshare: 10\n"
FLAT = "Cluster - 'c1'\nParent - 'root'\nAccount - 'chem':FairShare=10\n"
PLAN = (
    "+ cluster c1: fairshare=1\n"
    "+ account chem: parent=root description=chem organization=chem fairshare=10\n"
)
APPLIED = "would apply 2 change(s) to cluster c1: 2 to add, 0 to change, 0 to remove\n"


@pytest.mark.parametrize(
    ("words", "code", "stdout", "stderr"),
    [
        (
            ["account", "add", "chem"],
            0,
            "",
            "would have added cluster default\nwould have added account chem on default: "
            "parent=root\n",
        ),
        (["cluster", "add", "c1"], 0, "", "would have added cluster c1\n"),
        (["qos", "add", "high", "priority=10"], 0, "", "would have added QOS high: priority=10\n"),
        (
            ["config", "set", "PriorityWeightAge=10"],
            0,
            "",
            "would have added cluster default\nwould have set PriorityWeightAge=10 on default\n",
        ),
        (
            ["lsf", "queue", "add", "normal", "priority=30"],
            0,
            "",
            "would have added LSF queue normal: priority=30\n",
        ),
        (["apply", "{dir}/tree.yaml"], 0, PLAN, APPLIED),
        (["load", "{dir}/c1.cfg"], 0, PLAN, APPLIED),
        (
            ["user", "add", "alice", "account=chem"],
            1,
            "",
            "fscli: error: account 'chem' does not exist on cluster default\n",
        ),
    ],
    ids=["account", "cluster", "qos", "config", "lsf-queue", "apply", "load", "refused"],
)
def test_a_dry_run_on_a_new_store_runs_its_checks_and_leaves_no_file(
    tmp_path, words, code, stdout, stderr
):
    """A dry run on a store file that does not exist yet works on an empty store in memory:
    the same answer as before, and neither the file nor its directory is left behind."""
    (tmp_path / "tree.yaml").write_text(TREE)
    (tmp_path / "c1.cfg").write_text(FLAT)
    new = tmp_path / "sub" / "new.db"
    result = Fscli(str(new))(*[w.format(dir=tmp_path) for w in words], "--dry-run")
    assert (result.exit_code, result.stdout, result.stderr) == (code, stdout, stderr)
    assert not new.parent.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c1.cfg", "tree.yaml"]


def test_a_dry_run_leaves_an_empty_store_file_empty(tmp_path):
    empty = tmp_path / "empty.db"
    empty.touch()
    Fscli(str(empty)).ok("cluster", "add", "c1", "--dry-run")
    assert empty.stat().st_size == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]


@pytest.mark.parametrize(
    ("where", "reason"), [("afile/new.db", "File exists"), ("afile/sub/new.db", "Not a directory")]
)
def test_a_dry_run_fails_where_creating_the_store_would(tmp_path, where, reason):
    (tmp_path / "afile").touch()
    new = tmp_path / where
    for dry in (["--dry-run"], []):
        err = Fscli(str(new)).fails("cluster", "add", "c1", *dry, code=1).stderr
        assert err == f"fscli: error: cannot create store {new}: {reason}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_a_real_change_after_a_dry_run_creates_the_store(tmp_path):
    """The dry run's store in memory is not the store: the API's next transaction writes
    the file."""
    from fscli.api.store import open_store

    new = tmp_path / "new.db"
    with open_store(str(new)) as store:
        with store.transaction(dry_run=True) as tx:
            tx.add_cluster("c1")
        assert not new.exists()
        with store.transaction() as tx:
            tx.add_cluster("c1")
        assert store.clusters() == ["c1"]
    assert new.exists()


def _store_at_0003(db: str) -> None:
    """A store at schema 0003 with one cluster (``default``, as 0001's cluster add made)."""
    from sqlalchemy import text

    from fscli.store.db import create_engine_for, resolve_url, upgrade

    engine = create_engine_for(resolve_url(db))
    upgrade(engine, "0003")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO cluster (id, name) VALUES (1, 'c1')"))
        conn.execute(
            text(
                "INSERT INTO account (name, description, organization) "
                "VALUES ('root', 'root', 'root')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO association (id, cluster_id, account, shares_raw, shares_parent) "
                "VALUES (1, 1, 'root', 1, 0)"
            )
        )
    engine.dispose()


@pytest.mark.parametrize(
    "words",
    [
        ["account", "add", "chem", "fairshare=10"],
        ["apply", "{dir}/tree.yaml"],
        ["user", "add", "x"],
    ],
    ids=["account", "apply", "refused"],
)
def test_a_dry_run_on_an_old_store_checks_a_migrated_copy_and_leaves_the_store(tmp_path, words):
    """The real run backs the store up and migrates it; the dry run gives the same answer
    from a migrated copy in memory, and the file stays as it was, at its schema."""
    from fscli.store.db import HEAD, _sqlite_revision

    (tmp_path / "tree.yaml").write_text(TREE)
    words = [w.format(dir=tmp_path) for w in words]
    old, real = tmp_path / "old.db", tmp_path / "real" / "old.db"
    _store_at_0003(str(old))
    real.parent.mkdir()
    real.write_bytes(old.read_bytes())

    def files() -> list[str]:  # (SQLite's -wal and -shm files come with any reader)
        return sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm")))

    before, listed = old.read_bytes(), files()
    dry = Fscli(str(old))(*words, "--dry-run")
    assert old.read_bytes() == before and _sqlite_revision(old) == "0003"
    assert files() == listed == ["old.db", "real", "tree.yaml"]
    done = Fscli(str(real))(*words)
    assert _sqlite_revision(real) == HEAD and (real.parent / "old.db.bak-0003").exists()

    def real_words(text: str) -> str:
        return text.replace("would apply", "applied").replace("would have added", "added")

    assert (dry.exit_code, real_words(dry.stdout), real_words(dry.stderr)) == (
        done.exit_code,
        done.stdout,
        done.stderr,
    )
    assert "would" in dry.stdout + dry.stderr or dry.exit_code


def test_a_dry_run_on_an_old_store_it_could_not_back_up_fails_as_the_real_run(tmp_path):
    old = tmp_path / "ro" / "old.db"
    old.parent.mkdir()
    _store_at_0003(str(old))
    old.parent.chmod(0o500)
    try:
        if os.access(old.parent, os.W_OK):
            pytest.skip("running as root: the directory stays writable")
        for dry in (["--dry-run"], []):
            err = Fscli(str(old)).fails("account", "add", "chem", *dry, code=1).stderr
            assert err.startswith(f"fscli: error: cannot back up {old} to {old}.bak-0003: ")
    finally:
        old.parent.chmod(0o700)
    assert not list(old.parent.glob("*.bak-*"))


@once
@pytest.mark.parametrize("backend", ["postgresql", "mysql"])
def test_a_dry_run_does_not_upgrade_a_server_store(backend):
    """A server's schema cannot be migrated in a copy, nor (MariaDB) rolled back: the dry
    run says to upgrade first, and the store stays at its schema."""
    from fscli.store.db import create_engine_for, current_revision, resolve_url, upgrade

    db = wiped_server_store(backend)
    engine = create_engine_for(resolve_url(db))
    try:
        upgrade(engine, "0003")
        err = Fscli(db).fails("account", "add", "chem", "--dry-run", code=1).stderr
        assert err == (
            "fscli: error: store at schema 0003; run 'fscli db upgrade' first (a dry run does not)\n"
        )
        assert current_revision(engine) == "0003"
    finally:
        engine.dispose()
        wiped_server_store(backend)


def test_a_dry_run_meets_the_backups_refusal_as_the_real_run_does(tmp_path, monkeypatch):
    """The same as above where the directory cannot be made unwritable (root): creating
    any file beside the store is refused, for the dry run's probe and the real backup."""
    old = tmp_path / "old.db"
    _store_at_0003(str(old))
    real_open = os.open

    def refusing_open(path, flags, *args, **kwargs):
        name = os.path.basename(os.fspath(path))
        if flags & os.O_CREAT and name.startswith((".fscli-dry-run-", "old.db.bak-")):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    before = old.read_bytes()
    for dry in (["--dry-run"], []):
        err = Fscli(str(old)).fails("account", "add", "chem", *dry, code=1).stderr
        assert err == (f"fscli: error: cannot back up {old} to {old}.bak-0003: Permission denied\n")
    assert old.read_bytes() == before and not list(tmp_path.glob("*.bak-*"))


@pytest.mark.parametrize(
    "words, answer, code",
    [
        (("account", "add", "physics", "parent=nope"), None, 1),
        (("sacctmgr", "add", "account", "physics"), None, 1),  # no cluster yet
        (("sacctmgr", "add", "cluster", "c1"), "n\n", 0),  # the prompt answered no
        (("sacctmgr", "-i", "add", "account", "physics", "cluster=nope"), None, 1),
        (("load", "{dir}/bad.cfg"), None, 1),
        (("apply", "{dir}/bad.yaml"), None, 1),
    ],
)
def test_a_first_write_that_fails_leaves_no_store_behind(tmp_path, words, answer, code):
    """A write to a store file that does not exist makes it only when something commits:
    a refused or failing first command leaves neither the file, nor the directories made
    for it, nor the store it was made in."""
    (tmp_path / "bad.cfg").write_text("Cluster - 'c1'\nParent - 'x'\n")
    (tmp_path / "bad.yaml").write_text("cluster:\n  name: c1\naccounts:\n  a: {parent: x}\n")
    new = tmp_path / "sub" / "deeper" / "new.db"
    result = Fscli(str(new))(*[w.format(dir=tmp_path) for w in words], input=answer)
    assert result.exit_code == code, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.cfg", "bad.yaml"]


def test_a_first_write_that_commits_puts_the_store_in_place(tmp_path):
    new = tmp_path / "sub" / "new.db"
    fscli = Fscli(str(new))
    fscli.ok("cluster", "add", "c1")
    assert sorted(p.name for p in new.parent.iterdir()) == ["new.db"]
    assert new.stat().st_mode & 0o777 == 0o600
    fscli.ok("account", "add", "physics")  # the next write turns on WAL, as on every store
    with sqlite3.connect(new) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert "physics" in fscli.ok("assoc", "list", "-P").stdout


def test_a_store_made_meanwhile_is_kept_and_the_later_first_write_refused(tmp_path):
    """Two first writes at once: the first to commit makes the store; the other's changes
    are not written (its store is thrown away), and it says so."""
    from fscli.api.store import open_store
    from fscli.errors import StoreError

    new = tmp_path / "new.db"
    with open_store(str(new)) as late:
        with pytest.raises(StoreError) as err:
            with late.transaction() as tx:
                tx.add_cluster("late")
                Fscli(str(new)).ok("cluster", "add", "early")
        assert str(err.value) == (
            f"a store appeared at {new} while this command ran; "
            "nothing was written: run the command again"
        )
        assert late.clusters() == ["early"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.db"]


def test_a_database_error_while_making_a_new_store_is_one_line(tmp_path, monkeypatch):
    from sqlalchemy.exc import OperationalError

    from fscli.store import new_file

    def full(*args, **kw):
        raise OperationalError("CREATE TABLE", {}, Exception("database or disk is full"))

    monkeypatch.setattr(new_file, "create_at_head", full)
    err = Fscli(str(tmp_path / "new.db")).fails("cluster", "add", "c1", code=1).stderr
    assert err == "fscli: error: store error: database or disk is full\n"
    assert list(tmp_path.iterdir()) == []
