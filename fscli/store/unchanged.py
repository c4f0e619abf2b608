"""Applies proven to change nothing: re-applying an unchanged tree without reading it again.

``fscli apply`` of a tree that the store already matches still reads the file, reads the
store and diffs the two to find nothing to do: two seconds at 100,000 associations, on
every run of a configuration tool that applies its tree on a schedule. When an apply
finds nothing to do, or has written its changes (applying a tree makes the cluster match
it: ``tests/store/test_unchanged.py`` holds planning it again to nothing),
:func:`remember` notes the pair (the tree's text, the store's content) in a small file in
the user's cache directory; :func:`unchanged` of the same text on a store whose content
is the same again answers without reading the tree.

The note is content-addressed, so no write ever has to invalidate it. The store's side is
a digest of every row of every table the plan reads (:data:`TABLES`;
``tests/store/test_unchanged.py`` holds the planner to them): any write that changes
what the plan reads, by fscli (``apply``, ``load``, ``sacctmgr``, the API) or by any
other program, changes the digest, and a write that changes none of it cannot change
the plan. The tree's side is its text with everything that turns a text into a plan:
fscli's own source, the versions of Python and SQLite, and the ``__init__.py`` of PyYAML
and SQLAlchemy, which names their versions. The question is asked under the write lock,
as an apply asks it. Only SQLite files at the current schema take part; a note that
cannot be read or written is no note.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sqlite3
import sys
import tempfile
from functools import cache
from pathlib import Path

from fscli.store.assoc_fields import ANY_LIMIT, LIMIT_COLUMNS
from fscli.store.db import open_locked

TABLES = (
    "account",
    "alembic_version",
    "association",
    "cluster",
    "cluster_config",
    "coordinator",
    "partition",
    "qos",
    "user_account",
)
"""Every table :func:`fscli.store.tree_plan.make_plan` reads without pruning, and with
pruning when the plan removes nothing: only the removals look further (into the job
table, for jobs that would keep a QOS or refuse the removal of an association)."""
SPARSE = frozenset(("partition", "priority", "qos", "default_qos"))
"""Columns left NULL in most rows (of an association: its partition, priority and QOS):
read apart, from just the rows that set one (0.1 s less at 100,000 associations)."""
LIMITS = {"association": (LIMIT_COLUMNS, ANY_LIMIT)}
"""Per table, (its limit columns, the condition of its partial index of the rows that set
one: ``ix_association_limits``): those columns are read apart again, through that index.
Testing every row's limits, which come last in a row, took 25 of the 32 ms of the sparse
columns' read at 100,000 associations. SQLite reads the index alone only in the index's
order (cluster, rowid), so that is the order they are read in."""
KEPT = 64
"""Notes kept (the newest): one per tree and store state a user applies."""


def cache_file() -> Path:
    """``$XDG_CACHE_HOME/fscli/unchanged-trees`` (default ``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, "fscli", "unchanged-trees")


def unchanged(db: str | None, text: str, prune: bool = False) -> str | None:
    """The cluster of the tree ``text`` when applying it (pruning, with ``prune``) is known
    to change nothing in store ``db`` as it is now, else None (then apply it to find out)."""
    key = _key(text, prune)
    noted = [(digest, cluster) for k, digest, cluster in _notes() if k == key]
    if key is None or not noted:
        return None
    conn = open_locked(db)
    if conn is None:
        return None
    try:
        digest = content_digest(conn)
    except sqlite3.Error:
        return None
    finally:
        conn.close()  # rolls back: nothing was written
    return next((cluster for d, cluster in noted if d == digest), None)


def remember(conn: sqlite3.Connection, text: str, cluster: str, prune: bool = False) -> None:
    """Note that applying the tree ``text`` (for ``cluster``) without pruning changes
    nothing in the store ``conn`` reads, as it is inside this transaction; with ``prune``,
    that applying it pruning does not either (which implies the first)."""
    keys = [_key(text, True), _key(text)] if prune else [_key(text)]
    if None in keys:
        return
    digest = content_digest(conn)
    new = [(key, digest, cluster) for key in keys]
    notes = [n for n in _notes() if n not in new][-(KEPT - len(new)) :] + new
    path = cache_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".unchanged-")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write("".join(f"{k} {d} {c}\n" for k, d, c in notes))
        os.replace(temp, path)
    except OSError:
        pass  # no note: the next apply reads the tree


def content_digest(conn: sqlite3.Connection) -> str:
    """A digest of every row and column of :data:`TABLES`, in the order of their rows.

    Each chunk of rows is marshalled (version 2: no references, so the bytes depend on
    the values alone; each chunk is self-delimiting, so different contents give different
    byte streams): 0.03 s less than pickling them at 100,000 associations."""
    digest = hashlib.blake2b(digest_size=32)
    for table in TABLES:
        for statement in _statements(conn, table):
            cursor = conn.execute(statement)
            digest.update(marshal.dumps((statement, [c[0] for c in cursor.description]), 2))
            while rows := cursor.fetchmany(10_000):
                digest.update(marshal.dumps(rows, 2))
    return digest.hexdigest()


def _statements(conn: sqlite3.Connection, table: str) -> list[str]:
    """The queries whose rows are together every column of every row of ``table``, in
    rowid order: all of them, or, where the table has :data:`SPARSE` columns (or
    :data:`LIMITS`), the others of every row and those of the rows that set any, each
    row with its rowid."""
    names = [row[0] for row in conn.execute("SELECT name FROM pragma_table_info(?)", (table,))]
    limited, any_limit = LIMITS.get(table, ((), ""))
    sparse = [_quoted(name) for name in names if name in SPARSE]
    if not sparse and not limited:
        return [f'SELECT * FROM "{table}" ORDER BY rowid']
    dense = [_quoted(name) for name in names if name not in SPARSE and name not in limited]
    statements = [f'SELECT rowid, {", ".join(dense)} FROM "{table}" ORDER BY rowid']
    if sparse:
        statements.append(
            f'SELECT rowid, {", ".join(sparse)} FROM "{table}" '
            f"WHERE {' OR '.join(f'{name} IS NOT NULL' for name in sparse)} ORDER BY rowid"
        )
    if limited:
        statements.append(
            f'SELECT rowid, {", ".join(map(_quoted, limited))} FROM "{table}" '
            f"WHERE {any_limit} ORDER BY cluster_id, rowid"
        )
    return statements


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _notes() -> list[tuple[str, str, str]]:
    try:
        lines = cache_file().read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [(k, d, c) for k, d, c in (line.split(" ") for line in lines if line.count(" ") == 2)]


def _key(text: str, prune: bool = False) -> str | None:
    """The note's key of the tree ``text`` applied (pruning, with ``prune``: keys of their
    own, whatever the text)."""
    code = _code()
    if code is None:
        return None
    digest = hashlib.blake2b(code, digest_size=32, person=b"prune" if prune else b"")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


@cache
def _code() -> bytes | None:
    """What turns a tree's text into a plan, besides the text: fscli's source, the versions
    of Python and SQLite, and the ``__init__.py`` of the libraries that read the tree and
    the store (each names its version there: found without importing them, or
    ``importlib.metadata``, whose import alone costs 15 ms a run); None when fscli's
    source files cannot be read (then nothing is noted)."""
    from importlib.util import find_spec

    digest = hashlib.blake2b(repr([sys.version, sqlite3.sqlite_version]).encode(), digest_size=32)
    root = Path(__file__).parents[1]  # the fscli package
    sources = sorted(root.rglob("*.py"))
    if not sources:  # not run from its files (a zip archive)
        return None
    files = [(str(path.relative_to(root)), path) for path in sources]
    for library in ("yaml", "sqlalchemy"):
        spec = find_spec(library)
        if spec is not None and spec.origin is not None:
            files.append((library, Path(spec.origin)))
    try:
        for name, path in files:
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return None
    return digest.digest()
