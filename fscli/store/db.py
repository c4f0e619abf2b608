"""Opening the store: URL resolution, SQLite pragmas, schema version check, migration.

The schema version is read with the plain ``sqlite3`` module first; Alembic is imported
only when the store is new or older than the code (``HEAD``). A store whose version the
code does not know (made by a newer fscli) is refused, and so is a file that is not an
fscli store. A backup copy is taken before an existing SQLite store is migrated.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from fscli.errors import StoreError

HEAD = "0002"
KNOWN_REVISIONS = ("0001", "0002")
NETWORK_FILESYSTEMS = ("nfs", "nfs4", "lustre", "gpfs", "cifs", "smb3", "beegfs", "fuse.glusterfs")


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "fscli" / "fscli.db"


@dataclass(frozen=True)
class StoreUrl:
    url: str
    sqlite_path: Path | None  # None for server databases and in-memory SQLite


def resolve_url(db: str | None) -> StoreUrl:
    """``--db``/``FSCLI_DB`` value (URL or plain path) → SQLAlchemy URL."""
    text = db or os.environ.get("FSCLI_DB") or ""
    if not text:
        path = default_path()
        return StoreUrl(f"sqlite:///{path}", path)
    if "://" in text:
        if text.startswith("sqlite:///") and text != "sqlite:///:memory:":
            return StoreUrl(text, Path(text[len("sqlite:///"):]))
        return StoreUrl(text, None)
    path = Path(text).expanduser().absolute()
    return StoreUrl(f"sqlite:///{path}", path)


def _sqlite_revision(path: Path) -> str | None:
    """The store's Alembic revision; ``None`` for an empty file. Raises for non-stores."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open store {path}: {exc}") from None
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return None
        if "alembic_version" not in tables:
            raise StoreError(f"{path} is not an fscli store (it holds other tables)")
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        return row[0] if row else None
    except sqlite3.DatabaseError:
        raise StoreError(f"{path} is not an fscli store (not an SQLite database)") from None
    finally:
        conn.close()


def _on_network_fs(path: Path) -> bool:
    """WAL needs shared memory that NFS/Lustre do not give; detect them via /proc/mounts."""
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return False
    target = str(path.parent.resolve())
    best, fstype = "", ""
    for line in mounts:
        parts = line.split()
        if len(parts) >= 3 and target.startswith(parts[1]) and len(parts[1]) > len(best):
            best, fstype = parts[1], parts[2]
    return fstype in NETWORK_FILESYSTEMS


def _check_revision(revision: str | None, where: str) -> None:
    if revision is not None and revision not in KNOWN_REVISIONS:
        raise StoreError(
            f"store {where} has schema version {revision}, newer than this fscli knows ({HEAD}); "
            "upgrade fscli to use it"
        )


def create_engine_for(url: StoreUrl):
    from sqlalchemy import create_engine, event

    if url.sqlite_path is None and url.url.startswith("sqlite"):
        engine = create_engine(url.url)
    else:
        engine = create_engine(url.url, future=True)
    if url.url.startswith("sqlite"):
        wal = url.sqlite_path is not None and not _on_network_fs(url.sqlite_path)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # pragma: no cover - exercised by every test
            dbapi_conn.isolation_level = None  # we emit BEGIN ourselves (below)
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            if wal:
                try:
                    cur.execute("PRAGMA journal_mode=WAL")
                except sqlite3.OperationalError:
                    pass  # read-only file: keep its journal mode
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin_immediate(conn):  # pragma: no cover
            # Take the write lock at BEGIN so concurrent writers queue on busy_timeout
            # instead of failing with "database is locked" on lock upgrade.
            if conn.get_execution_options().get("fscli_write"):
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                conn.exec_driver_sql("BEGIN")
    return engine


def migrations_dir() -> Path:
    """``fscli/migrations`` inside a wheel, else the repository's top-level ``migrations``."""
    packaged = Path(__file__).resolve().parent.parent / "migrations"
    if (packaged / "env.py").exists():
        return packaged
    return Path(__file__).resolve().parents[2] / "migrations"


def upgrade(engine, to: str = "head") -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, to)


def current_revision(engine) -> str | None:
    from sqlalchemy import inspect, text

    with engine.connect() as conn:
        if "alembic_version" not in inspect(conn).get_table_names():
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def open_engine(db: str | None, migrate: bool = True):
    """An Engine on an up-to-date store, creating or migrating it when needed."""
    url = resolve_url(db)
    path = url.sqlite_path
    if path is not None:
        if path.is_dir():
            raise StoreError(f"{path} is a directory, not an fscli store")
        exists = path.exists() and path.stat().st_size > 0
        revision = _sqlite_revision(path) if exists else None
        _check_revision(revision, str(path))
        if revision == HEAD:
            return create_engine_for(url)
        if not migrate:
            raise StoreError(f"store {path} is at schema {revision or 'none'}; run 'fscli db upgrade'")
        if exists and not os.access(path, os.W_OK):
            raise StoreError(f"store {path} needs an upgrade but is read-only")
        if not exists:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
                os.close(fd)
            except OSError as exc:
                raise StoreError(f"cannot create store {path}: {exc.strerror}") from None
        else:
            shutil.copy2(path, f"{path}.bak-{revision or 'empty'}")
        engine = create_engine_for(url)
        upgrade(engine)
        return engine
    engine = create_engine_for(url)
    try:
        revision = current_revision(engine)
    except Exception as exc:  # noqa: BLE001 - driver errors vary by backend
        raise StoreError(f"cannot open store {url.url}: {exc.__class__.__name__}: {exc}") from None
    _check_revision(revision, url.url)
    if revision != HEAD:
        if not migrate:
            raise StoreError(f"store at schema {revision or 'none'}; run 'fscli db upgrade'")
        upgrade(engine)
    return engine
