"""Opening the store: URL resolution, SQLite pragmas, schema version check, migration.

The schema version is read with the plain ``sqlite3`` module first; Alembic is imported
only when the store is new or older than the code (``HEAD``). A store whose version the
code does not know (made by a newer fscli) is refused, and so is a file that is not an
fscli store. A backup copy is taken before an existing SQLite store is migrated.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable

from fscli.errors import StoreError
from fscli.store.pass_cache import install as install_stamp

TYPE_CHECKING = False  # typing's, without importing typing (a TAB resolves its store too)
if TYPE_CHECKING:
    from pathlib import Path

# migrations/versions, oldest first
KNOWN_REVISIONS = (
    "0001",
    "0002",
    "0003",
    "0004",
    "0005",
    "0006",
    "0007",
    "0008",
    "0009",
    "0010",
    "0011",
    "0012",
    "0013",
    "0014",
)
HEAD = KNOWN_REVISIONS[-1]
BUSY_TIMEOUT = 30.0
"""Seconds a connection waits for another process's lock before "database is locked"
(the engine's ``busy_timeout`` pragma says the same in milliseconds)."""
NETWORK_FILESYSTEMS = ("nfs", "nfs4", "lustre", "gpfs", "cifs", "smb3", "beegfs", "fuse.glusterfs")
_URL_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~/")
"""What ``urllib.parse.quote(text, safe="/")`` leaves as it is."""


def default_path() -> Path:
    from pathlib import Path

    return Path(_default_file())


def _default_file() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return os.path.join(base, "fscli", "fscli.db")


def demo_path() -> Path:
    """``fscli demo``'s own store, beside the default one (never the admin's store)."""
    return default_path().with_name("demo.db")


class StoreUrl:
    """A store's SQLAlchemy URL and, for an SQLite file, the file.

    Plain strings, no ``pathlib``/``urllib`` import: every command resolves its store
    first, and those imports cost about 4 ms of a 60 ms read command (a plain class, not
    a dataclass or NamedTuple: those import inspect or typing, which a TAB does without).
    """

    __slots__ = ("url", "file")

    def __init__(self, url: str, file: str | None):
        self.url = url
        self.file = file  # absolute; None for server databases and in-memory SQLite

    @property
    def sqlite_path(self) -> Path | None:
        from pathlib import Path

        return None if self.file is None else Path(self.file)


def resolve_url(db: str | None) -> StoreUrl:
    """``--db``/``FSCLI_DB`` value (URL or plain path) → SQLAlchemy URL."""
    text = db or os.environ.get("FSCLI_DB") or ""
    if "://" in text:
        if text.startswith("sqlite:///") and text != "sqlite:///:memory:":
            # the file SQLAlchemy opens: the URL's path, %-decoded, without its ?query
            return StoreUrl(text, _posix(_unquoted(text[len("sqlite:///") :].partition("?")[0])))
        return StoreUrl(text, None)
    path = _absolute(_home(text)) if text else _default_file()
    # SQLAlchemy %-decodes a URL's path and cuts it at '?': a file name is escaped first
    return StoreUrl(f"sqlite:///{_quoted(path)}", path)


def _home(text: str) -> str:
    """``~`` and ``~name`` expanded (as ``Path.expanduser``: an unknown user is an error)."""
    if not text.startswith("~"):
        return text
    expanded = os.path.expanduser(text)
    if expanded.startswith("~"):
        raise StoreError(f"cannot open store {text}: no such user's home directory")
    return expanded


def _absolute(text: str) -> str:
    """``text`` made absolute as ``Path(text).absolute()`` spells it: joined to the working
    directory, ".." kept (not resolved: a symbolic link before it decides where it leads)."""
    return _posix(text if text.startswith("/") else os.path.join(os.getcwd(), text))


def _posix(text: str) -> str:
    """``text`` as ``str(PurePosixPath(text))`` spells it: no empty or "." parts."""
    lead = "/" if text.startswith("/") else ""
    if text.startswith("//") and not text.startswith("///"):
        lead = "//"
    return lead + "/".join(part for part in text.split("/") if part not in ("", ".")) or "."


def _quoted(text: str) -> str:
    if _URL_SAFE.issuperset(text):
        return text
    from urllib.parse import quote

    return quote(text, safe="/")


def _unquoted(text: str) -> str:
    if "%" not in text:
        return text
    from urllib.parse import unquote

    return unquote(text)


def sqlite_uri(path: Path | str, mode: str = "ro") -> str:
    """An SQLite ``file:`` URI for ``path``: '?', '#' and '%' in a file name are escaped,
    or SQLite would open another file (and create it)."""
    return f"file:{_quoted(str(path))}?mode={mode}"


def _sqlite_revision(path: Path | str) -> str | None:
    """The store's Alembic revision; ``None`` for an empty file. Raises for non-stores."""
    conn = _connect(path, "ro")
    try:
        return _revision(conn, path)
    finally:
        conn.close()


class ReadOnlyConnection(sqlite3.Connection):
    """A view's connection in a read-only fscli (``--read-only``, ``FSCLI_READ_ONLY``):
    what is read through it leaves nothing behind, not even an entry of the pass cache
    (:class:`fscli.store.pass_cache.PassCache`)."""

    read_only = True


def _connect(
    path: Path | str, mode: str, factory: type[sqlite3.Connection] = sqlite3.Connection
) -> sqlite3.Connection:
    try:
        return sqlite3.connect(
            sqlite_uri(path, mode), uri=True, timeout=BUSY_TIMEOUT, factory=factory
        )
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open store {path}: {exc}") from None


def _revision(conn: sqlite3.Connection, path: Path | str) -> str | None:
    """:func:`_sqlite_revision` on an open connection."""
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


def _plain_file(db: str | None) -> str | None:
    """The SQLite file ``db`` names, if a plain ``sqlite3`` connection may open it as a
    store: no server, no URL options, a file that exists and is not empty."""
    url = resolve_url(db)
    path = url.file
    if path is None or "?" in url.url or not os.path.isfile(path) or os.path.getsize(path) == 0:
        return None
    return path


def open_reader(db: str | None, read_only: bool = False) -> sqlite3.Connection | None:
    """A plain ``sqlite3`` connection to an SQLite store file at the current schema, in a
    read transaction (one consistent snapshot however many queries follow) that refuses
    writes; None for any other store (a server, a URL with options, a missing, empty or
    older store): :func:`open_engine` opens those, with their errors and migrations.
    ``read_only``: a :class:`ReadOnlyConnection`, for a read-only fscli.

    The schema version is read in the same transaction, so the check needs neither
    Alembic nor a second connection; a store newer than this fscli is refused here, with
    :func:`open_engine`'s message.
    """
    path = _plain_file(db)
    if path is None:
        return None

    def begin(conn: sqlite3.Connection) -> str | None:
        conn.isolation_level = None  # the transaction is ours: BEGIN here, ended by close()
        conn.execute("PRAGMA query_only=ON")
        conn.execute("BEGIN")
        revision = _revision(conn, path)
        _check_revision(revision, str(path))
        return revision

    return _opened_at_head(path, begin, ReadOnlyConnection if read_only else sqlite3.Connection)


def open_writer(db: str | None) -> sqlite3.Connection | None:
    """A plain ``sqlite3`` connection to an SQLite store file at the current schema that
    this process may write (the file and its directory, where the journal goes), set up
    as an engine's write connection is (:func:`set_pragmas`) and holding the write lock
    (``BEGIN IMMEDIATE``, waiting for it as long as a write session does); None for any
    other store: :func:`open_engine` opens those, with their errors and migrations."""
    from pathlib import Path

    from fscli.store.read_states import note_unsure

    note_unsure()  # a writer: no answer of this process is recorded
    path = _plain_file(db)
    if path is None:
        return None
    if not (os.access(path, os.W_OK) and os.access(os.path.dirname(path) or ".", os.W_OK)):
        return None

    def begin(conn: sqlite3.Connection) -> str | None:
        revision = _revision(conn, path)  # first: what is no store is refused as open_engine does
        _check_revision(revision, str(path))
        if revision == HEAD:
            set_pragmas(conn, wal=not _on_network_fs(Path(path)))
            conn.execute("BEGIN IMMEDIATE")
            revision = _revision(conn, path)  # again under the lock: no migration in between
        return revision

    return _opened_at_head(path, begin)


def _opened_at_head(
    path: str,
    begin: Callable[[sqlite3.Connection], str | None],
    factory: type[sqlite3.Connection] = sqlite3.Connection,
) -> sqlite3.Connection | None:
    """A connection to ``path`` (of class ``factory``) once ``begin`` has set it up and
    read its schema revision: None (the connection closed) unless that is :data:`HEAD`;
    closed on any error."""
    conn = _connect(path, "rw", factory)
    try:
        revision = begin(conn)
    except BaseException:
        conn.close()
        raise
    if revision != HEAD:
        conn.close()
        return None
    return conn


def open_locked(db: str | None) -> sqlite3.Connection | None:
    """A plain ``sqlite3`` connection to an SQLite store file at the current schema, holding
    the write lock a write session takes (``BEGIN IMMEDIATE``; closing it rolls back),
    or None: any other store, or the lock not free at once (a write session then waits
    for it, with its own errors)."""
    try:
        url = resolve_url(db)
    except StoreError:
        return None
    path = url.file
    if path is None or "?" in url.url or not os.path.isfile(path):
        return None
    try:
        conn = _connect(path, "rw")
    except StoreError:
        return None
    try:
        conn.isolation_level = None
        conn.execute("PRAGMA busy_timeout=0")
        conn.execute("BEGIN IMMEDIATE")
        if _revision(conn, path) == HEAD:
            return conn
    except (sqlite3.Error, StoreError):
        pass
    conn.close()
    return None


def _on_network_fs(path: Path) -> bool:
    """WAL needs shared memory that NFS/Lustre do not give; detect them via /proc/mounts."""
    from pathlib import Path

    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return False
    target = str(path.parent.resolve())
    best, fstype = "", ""
    for line in mounts:
        parts = line.split()
        if len(parts) < 3 or len(parts[1]) <= len(best):
            continue
        point = parts[1]
        if target == point or target.startswith(point.rstrip("/") + "/"):  # not /home for /homes
            best, fstype = point, parts[2]
    return fstype in NETWORK_FILESYSTEMS


def _check_revision(revision: str | None, where: str) -> None:
    if revision is not None and revision not in KNOWN_REVISIONS:
        raise StoreError(
            f"store {where} has schema version {revision}, newer than this fscli knows ({HEAD}); "
            "upgrade fscli to use it"
        )


def set_pragmas(conn: sqlite3.Connection, wal: bool, read_only: bool = False) -> None:
    """What every connection to an SQLite store sets (an engine's, or
    :func:`open_writer`'s); the caller emits BEGIN itself."""
    conn.isolation_level = None
    cur = conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")  # BUSY_TIMEOUT
    if wal and not read_only:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError:
            pass  # read-only file: keep its journal mode
    cur.execute("PRAGMA synchronous=NORMAL")
    if read_only:
        cur.execute("PRAGMA query_only=ON")
    cur.close()


def create_engine_for(url: StoreUrl, read_only: bool = False, wal: bool = True, **options):
    """The engine of a store; an SQLite file's connections turn on WAL unless ``wal`` is
    False (a store not published yet: :mod:`fscli.store.new_file`) or the file is on a
    network file system."""
    if not url.url.startswith("sqlite"):
        return _server_engine(url.url, read_only)
    from sqlalchemy import create_engine, event

    engine = create_engine(url.url, **options)
    wal = wal and url.sqlite_path is not None and not _on_network_fs(url.sqlite_path)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn, _record):  # pragma: no cover - exercised by every test
        set_pragmas(dbapi_conn, wal, read_only)

    @event.listens_for(engine, "begin")
    def _begin_immediate(conn):  # pragma: no cover
        # Take the write lock at BEGIN so concurrent writers queue on busy_timeout
        # instead of failing with "database is locked" on lock upgrade.
        if conn.get_execution_options().get("fscli_write"):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")

    return engine


# Writers on a server queue on one row lock taken first in their transaction, as SQLite's
# BEGIN IMMEDIATE makes them queue on the file: with READ COMMITTED, everything a writer
# reads after the lock is the latest committed state, so no update is lost.
SERVER_WRITE_LOCK = "SELECT version_num FROM alembic_version FOR UPDATE"
SERVER_READ_ONLY = {
    "postgresql": "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
    "mysql": "SET SESSION TRANSACTION READ ONLY",
}


def _server_engine(url: str, read_only: bool):
    """PostgreSQL or MariaDB/MySQL; the caller disposes of the engine when its command ends."""
    from sqlalchemy import create_engine, event
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        engine = create_engine(url, pool_size=1, isolation_level="READ COMMITTED")
    except NoSuchModuleError:
        raise StoreError(
            f"unknown database URL scheme in {display_url(url)}; use sqlite:///PATH, "
            "postgresql+psycopg://... or mysql+pymysql://..."
        ) from None
    except ArgumentError as exc:
        raise StoreError(f"bad database URL {display_url(url)}: {exc}") from None
    except ModuleNotFoundError as exc:
        extra = "postgres" if url.startswith("postgres") else "mysql"
        raise StoreError(
            f"the database driver {exc.name} is not installed; pip install 'fscli[{extra}]'"
        ) from None
    read_only_sql = SERVER_READ_ONLY.get(engine.dialect.name) if read_only else None

    if read_only_sql:

        @event.listens_for(engine, "connect")
        def _read_only(dbapi_conn, _record):  # pragma: no cover - needs a server
            cur = dbapi_conn.cursor()
            cur.execute(read_only_sql)
            cur.close()

    @event.listens_for(engine, "begin")
    def _write_lock(conn):  # pragma: no cover - needs a server
        if conn.get_execution_options().get("fscli_write"):
            conn.exec_driver_sql(SERVER_WRITE_LOCK)

    return engine


def ids_given(conn, table) -> None:
    """Rows were inserted into ``table`` with ids chosen by fscli: move the id counter past them.

    SQLite and MariaDB do this by themselves; PostgreSQL's sequence does not notice explicit
    ids and would hand them out again.
    """
    if conn.dialect.name == "postgresql":
        from sqlalchemy import func, select

        top = select(func.max(table.c.id)).scalar_subquery()
        conn.execute(select(func.setval(func.pg_get_serial_sequence(table.name, "id"), top)))


def display_url(url: str) -> str:
    """The URL with its password hidden, for messages (a plain file path as it is)."""
    if "://" not in url:
        return url
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - a URL too broken to parse has nothing to hide reliably
        return "<unparsable URL>"


def migrations_dir() -> Path:
    from pathlib import Path

    """``fscli/migrations`` inside a wheel, else the repository's top-level ``migrations``."""
    packaged = Path(__file__).resolve().parent.parent / "migrations"
    if (packaged / "env.py").exists():
        return packaged
    return Path(__file__).resolve().parents[2] / "migrations"


# Migrations on a server take a lock of their own first: alembic_version, which writers
# lock, may not exist yet, and MariaDB ends the transaction at every DDL statement. A
# PostgreSQL advisory lock lasts to the commit (its DDL is transactional); MariaDB's named
# lock lasts to its release, whatever the commits.
MIGRATION_LOCK = {
    "postgresql": ("SELECT pg_advisory_xact_lock(7310418235)", None),
    "mysql": (
        "SELECT GET_LOCK(CONCAT('fscli-migrate-', DATABASE()), 3600)",
        "SELECT RELEASE_LOCK(CONCAT('fscli-migrate-', DATABASE()))",
    ),
}


def upgrade(engine, to: str = "head") -> None:
    """Migrate in one transaction, one process at a time: processes that find the same old
    store at once migrate one after the other (the later ones find it done) instead of
    failing with "database is locked" or on tables another one has just made. SQLite's
    lock is the write lock taken at BEGIN, as writers take it."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    lock, release = MIGRATION_LOCK.get(engine.dialect.name, (None, None))
    if engine.dialect.name == "sqlite":
        engine = engine.execution_options(fscli_write=True)
    with engine.begin() as conn:
        if lock:
            conn.exec_driver_sql(lock)
        try:
            if to == "head" and engine.dialect.name == "sqlite" and _is_empty(conn):
                create_at_head(conn)
            else:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, to)
                if to == "head":  # tables made or rebuilt by any migration get triggers
                    install_stamp(conn)
        finally:
            if release:
                conn.exec_driver_sql(release)


def _is_empty(conn) -> bool:
    """Whether the SQLite database holds no table yet (a new store file)."""
    return (
        conn.exec_driver_sql("SELECT count(*) FROM sqlite_master WHERE type='table'").scalar() == 0
    )


def create_at_head(conn) -> None:
    """A new SQLite store made in one step from the schema (``tables.metadata``) and
    stamped at ``HEAD``: what replaying every migration on no data gives (a test compares
    the two), in a fraction of the time, for every first command on a new store. The
    migrations still bring every existing store up to date."""
    from fscli.store import tables

    tables.metadata.create_all(conn)
    conn.exec_driver_sql(  # as Alembic writes it
        "CREATE TABLE alembic_version (\n\tversion_num VARCHAR(32) NOT NULL, "
        "\n\tCONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)\n)"
    )
    conn.exec_driver_sql("INSERT INTO alembic_version (version_num) VALUES (?)", (HEAD,))
    install_stamp(conn)


def current_revision(engine) -> str | None:
    from sqlalchemy import inspect, text

    with engine.connect() as conn:
        if "alembic_version" not in inspect(conn).get_table_names():
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def open_engine(db: str | None, migrate: bool = True, read_only: bool = False, create: bool = True):
    """An Engine on an up-to-date store, creating or migrating it when needed.

    ``read_only`` (viewers: ``--read-only``/``FSCLI_READ_ONLY``) never creates nor migrates a
    store, and the connection itself refuses writes (SQLite ``query_only``, a read-only
    session on servers), so no code path can change the store by mistake. Without
    ``create`` (commands that only read) a missing store is an error, not a new empty file:
    ``--db typo.db user list`` must not leave ``typo.db`` behind. Without ``migrate`` (a
    dry run on a server: it must not change the schema) a store at an older schema is an
    error too.
    """
    from fscli.store.read_states import note_unsure

    note_unsure()  # what this engine reads, the answer cache cannot tell
    url = resolve_url(db)
    upgrade_first = "(not in read-only mode)" if read_only else "first (a dry run does not)"
    migrate = migrate and not read_only
    create = create and not read_only
    path = url.sqlite_path
    if path is not None:
        if path.is_dir():
            raise StoreError(f"{path} is a directory, not an fscli store")
        exists = path.exists() and path.stat().st_size > 0
        if not exists and not create:
            how = (
                "read-only mode does not create one"
                if read_only
                else "a command that only reads does not create one; create it with "
                f"'fscli --db {path} cluster add NAME' (or 'fscli db upgrade'), "
                "or check --db / FSCLI_DB"
            )
            raise StoreError(f"no store at {path}: {how}")
        revision = _sqlite_revision(path) if exists else None
        _check_revision(revision, str(path))
        if revision == HEAD:
            return create_engine_for(url, read_only)
        if not migrate:
            raise StoreError(
                f"store {path} is at schema {revision or 'none'}; "
                f"run 'fscli db upgrade' {upgrade_first}"
            )
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
            _backup_before_migration(path, revision)
        engine = create_engine_for(url)
        _migrate(engine, str(path))
        return engine
    engine = create_engine_for(url, read_only)
    try:
        revision = current_revision(engine)
    except Exception as exc:  # noqa: BLE001 - driver errors vary by backend
        reason = str(getattr(exc, "orig", exc)).strip().splitlines()[0]
        raise StoreError(f"cannot open store {display_url(url.url)}: {reason}") from None
    _check_revision(revision, display_url(url.url))
    if revision is None and not create:
        engine.dispose()
        raise StoreError(
            f"no fscli store in {display_url(url.url)} yet: a command that only "
            "reads does not create one; run 'fscli db upgrade' first"
        )
    if revision != HEAD:
        if not migrate:
            raise StoreError(
                f"store at schema {revision or 'none'}; run 'fscli db upgrade' {upgrade_first}"
            )
        _migrate(engine, display_url(url.url))
    return engine


def scratch_engine(db: str | None):
    """For a dry run on an SQLite store file that does not exist yet (or is empty), or
    that is at an older schema: an in-memory store at the newest schema (a copy of the
    store, migrated), once every check creating, backing up or migrating the file would
    make has passed; None for any other store (:func:`open_engine` opens those, without
    migrating a server's). A dry run must leave no file or directory behind that was not
    there before, and must not change the store it looks at."""
    url = resolve_url(db)
    path = url.file
    if path is None or os.path.isdir(path):  # open_engine refuses a directory
        return None
    revision = None
    if os.path.exists(path) and os.path.getsize(path) > 0:
        revision = _sqlite_revision(path)
        _check_revision(revision, str(url.sqlite_path))
        if revision == HEAD:
            return None
        if not os.access(path, os.W_OK):
            raise StoreError(f"store {url.sqlite_path} needs an upgrade but is read-only")
        problem = _cannot_write_in(os.path.dirname(path) or ".")  # where the backup goes
        if problem is not None:
            raise StoreError(
                f"cannot back up {url.sqlite_path} to {url.sqlite_path}.bak-{revision}: {problem}"
            )
    else:
        problem = _cannot_create(path)
        if problem is not None:
            raise StoreError(f"cannot create store {url.sqlite_path}: {problem}")
    from sqlalchemy.pool import StaticPool

    engine = create_engine_for(StoreUrl("sqlite://", None), poolclass=StaticPool)
    if revision is None:
        with engine.execution_options(fscli_write=True).begin() as conn:
            create_at_head(conn)
        return engine
    with engine.connect() as conn:  # the store, as it is, into memory
        source = _connect(path, "ro")
        try:
            source.backup(conn.connection.driver_connection)
        finally:
            source.close()
    _migrate(engine, str(url.sqlite_path))
    return engine


def _cannot_create(path: str) -> str | None:
    """Why :func:`open_engine` could not create the store file ``path`` (its missing parent
    directories, then the file), in the words of the error it would meet; None: it could.
    Tried where it would happen, under names of its own, which are removed again."""
    import errno
    import shutil
    import tempfile

    try:
        if os.path.exists(path):  # an empty file, to be written in place
            os.close(os.open(path, os.O_WRONLY))
            return None
        parent = os.path.dirname(path) or "."
        top = parent
        while not os.path.lexists(top):
            top = os.path.dirname(top) or "."
        if not os.path.isdir(top):  # mkdir finds a file where a directory should be
            return os.strerror(errno.EEXIST if top == parent else errno.ENOTDIR)
        if top == parent:
            return _cannot_write_in(top)
        shutil.rmtree(tempfile.mkdtemp(prefix=".fscli-dry-run-", dir=top))
    except OSError as exc:
        return exc.strerror
    return None


def _cannot_write_in(directory: str) -> str | None:
    """Why no new file can be made in ``directory`` (tried under a name of its own, removed
    again); None: it can."""
    import tempfile

    try:
        fd, probe = tempfile.mkstemp(prefix=".fscli-dry-run-", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return exc.strerror
    return None


def _migrate(engine, where: str) -> None:
    """:func:`upgrade`, its database errors one line (the migration rolled back as a whole)."""
    from sqlalchemy.exc import DBAPIError

    try:
        upgrade(engine)
    except DBAPIError as exc:
        engine.dispose()
        reason = str(exc.orig).strip().splitlines()[0]
        raise StoreError(f"cannot migrate store {where} to schema {HEAD}: {reason}") from None


class _BackupExists(StoreError):
    """The backup's file name is taken (by an earlier backup, or a process doing the same)."""


def _backup_before_migration(path: Path, revision: str | None) -> None:
    """``PATH.bak-REV``, or ``.1``, ``.2``…: an earlier backup is never overwritten, and
    processes migrating the same store at once each keep their own."""
    from pathlib import Path

    base = Path(f"{path}.bak-{revision or 'empty'}")
    target, n = base, 0
    while True:
        try:
            return backup_sqlite(path, target)
        except _BackupExists:
            n += 1
            target = base.with_name(f"{base.name}.{n}")


def backup_sqlite(source: Path, target: Path) -> None:
    """A consistent copy of a live SQLite store (the online backup API), mode 0600.

    Unlike a file copy, this is safe while other processes write: the copy is one
    snapshot of committed state, WAL contents included. The target is created exclusively,
    and only a target this call created is removed when the copy fails.
    """
    try:
        fd = os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        raise _BackupExists(f"{target} exists; choose a new file name for the backup") from None
    except OSError as exc:
        raise StoreError(f"cannot back up {source} to {target}: {exc.strerror}") from None
    os.close(fd)
    try:
        src = sqlite3.connect(sqlite_uri(source), uri=True)
        try:
            dst = sqlite3.connect(target)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
    except (OSError, sqlite3.Error) as exc:
        target.unlink(missing_ok=True)
        reason = exc.strerror if isinstance(exc, OSError) else str(exc)
        raise StoreError(f"cannot back up {source} to {target}: {reason}") from None
