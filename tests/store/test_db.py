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
