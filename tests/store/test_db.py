"""Opening the store: which file systems get SQLite's WAL journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from fscli.store import db

MOUNTS = "/dev/sda1 / ext4 rw 0 0\nserver:/export /home nfs4 rw 0 0\n"


@pytest.mark.parametrize(
    "store, network",
    [
        ("/home/alice/fscli.db", True),
        ("/home/fscli.db", True),
        ("/homes/alice/fscli.db", False),  # a longer name is not inside /home
        ("/tmp/fscli.db", False),
    ],
)
def test_network_file_system_is_found_by_mount_point(monkeypatch, store, network):
    real = Path.read_text
    monkeypatch.setattr(
        Path,
        "read_text",
        lambda self, *a, **kw: MOUNTS if str(self) == "/proc/mounts" else real(self, *a, **kw),
    )
    monkeypatch.setattr(Path, "resolve", lambda self, strict=False: self)  # no host symlinks
    assert db._on_network_fs(Path(store)) is network


def test_known_revisions_are_the_migration_scripts_in_order():
    """A new migration must be listed in KNOWN_REVISIONS (else its stores are refused as
    "newer than this fscli"), and HEAD is the newest."""
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory(str(db.migrations_dir()))
    chain = [s.revision for s in scripts.walk_revisions()][::-1]
    assert chain == list(db.KNOWN_REVISIONS)
    assert db.HEAD == scripts.get_current_head() == chain[-1]


@pytest.mark.parametrize("name", ["a#b.db", "a%20b.db", "q?x.db", "sp ace+@.db"])
def test_a_file_name_with_url_characters_is_the_store_itself(tmp_path, name):
    """'#', '?' and '%' mean something in URLs: the store must still be that very file, found
    at its schema on the next open (no second file, no backup, no migration)."""
    store = tmp_path / name
    for read_only in (False, False, True):
        engine = db.open_engine(str(store), read_only=read_only)
        try:
            assert db.current_revision(engine) == db.HEAD
        finally:
            engine.dispose()
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [
        name
    ]


def test_a_migration_the_database_refuses_is_one_line_and_changes_nothing(fscli, db_path):
    """A failing migration (here: 0002's column is already there) is a store error naming
    the store and the database's reason, not an internal error; the store stays as it was."""
    engine = db.create_engine_for(db.resolve_url(db_path))
    db.upgrade(engine, "0001")
    with engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE job ADD COLUMN admin_priority BIGINT")
    engine.dispose()
    for command in (["db", "upgrade"], ["account", "list"]):
        failed = fscli.fails(*command, code=1)
        assert failed.stderr == (
            f"fscli: error: cannot migrate store {db_path} to schema "
            f"{db.HEAD}: duplicate column name: admin_priority\n"
        )
    assert db._sqlite_revision(Path(db_path)) == "0001"


PATHS = [
    "x.db",
    "./x.db",
    "a//b/./c.db",
    "../up/x.db",
    "/abs/../x.db",
    "//host/x.db",
    "///three/x.db",
    "dir/",
    "~/x.db",
    "a#b %c?d.db",
    "caf\u00e9.db",
]


@pytest.mark.parametrize("text", PATHS)
def test_a_plain_path_resolves_as_pathlib_spells_it(monkeypatch, tmp_path, text):
    """resolve_url works on strings (no pathlib or urllib import on the read path) but
    must name the same file, spelt the same, as ``Path(text).expanduser().absolute()``
    (and the URL SQLAlchemy is given must decode to it)."""
    from urllib.parse import quote, unquote

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", "/home/someone")
    url = db.resolve_url(text)
    expected = Path(text).expanduser().absolute()
    assert url.file == str(expected) and url.sqlite_path == expected
    assert url.url == f"sqlite:///{quote(str(expected), safe='/')}"
    assert unquote(url.url[len("sqlite:///") :]) == url.file


@pytest.mark.parametrize(
    "path", ["x.db", "./a//b.db", "/abs/x.db", "a%23b.db", "//host/x.db", "caf%C3%A9.db", ""]
)
def test_a_sqlite_url_names_the_file_sqlalchemy_opens(path):
    from urllib.parse import unquote

    url = db.resolve_url(f"sqlite:///{path}?timeout=5")
    assert url.file == str(Path(unquote(path)))
    assert url.url == f"sqlite:///{path}?timeout=5"


def test_an_unknown_users_home_is_one_clear_error():
    with pytest.raises(db.StoreError, match="no such user's home directory"):
        db.resolve_url("~nosuchuser-fscli/x.db")


def test_the_default_store_is_under_xdg_data_home(monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", "/data/me")
    monkeypatch.delenv("FSCLI_DB", raising=False)
    url = db.resolve_url(None)
    assert (url.url, url.file) == ("sqlite:////data/me/fscli/fscli.db", "/data/me/fscli/fscli.db")


def test_a_backup_to_an_unknown_users_home_is_one_clear_error(tmp_path):
    """Not an internal error (Path.expanduser raises RuntimeError), and no store is made."""
    from fscli.api import open_store

    store = tmp_path / "fscli.db"
    store.write_bytes(b"")
    with open_store(str(store)) as api, pytest.raises(db.StoreError) as caught:
        api.backup("~nosuchuser-fscli/b.db")
    assert caught.value.message == (
        f"cannot back up {store} to ~nosuchuser-fscli/b.db: no such user's home directory"
    )
    assert store.read_bytes() == b""


def test_the_plain_writer_holds_the_write_lock_on_a_current_store_only(fscli, db_path, tmp_path):
    """open_writer (job import's write path): a connection under BEGIN IMMEDIATE on an
    SQLite file at the current schema that may be written, else None (open_engine opens
    those, with its errors)."""
    import os

    fscli.ok("cluster", "add", "c1")
    conn = db.open_writer(db_path)
    assert conn is not None and conn.in_transaction
    assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
    assert db.open_locked(db_path) is None  # a second writer waits
    conn.close()
    other = db.open_locked(db_path)
    assert other is not None
    other.close()
    assert db.open_writer(str(tmp_path / "missing.db")) is None
    assert not (tmp_path / "missing.db").exists()
    assert db.open_writer("postgresql+psycopg://u@localhost/x") is None
    os.chmod(db_path, 0o400)
    try:
        assert os.access(db_path, os.W_OK) or db.open_writer(db_path) is None
    finally:
        os.chmod(db_path, 0o600)
