"""The store's SQL follows the connection a path may hold (docs/architecture.md, "The
store's SQL"): plain ``sqlite3`` is opened and driven by a few modules only, the ORM
writers run no SQL text, and SQL text runs through ``store/sql.py`` alone."""

from __future__ import annotations

import ast
from pathlib import Path

STORE = Path(__file__).resolve().parents[2] / "fscli" / "store"

PLAIN_SQLITE = {
    "db", "session", "sql", "bulk", "names", "unchanged", "pass_cache", "stamp", "answers"
}  # fmt: skip
"""Where a plain ``sqlite3`` connection is opened or driven: the reader and writer that
spare the views and ``job import`` SQLAlchemy's import, the runner of SQL text on either
connection, the bulk inserts, TAB's name look-ups, the applied-tree note, the pass
cache and the store's stamp (read on the views' connection; servers have no cache), the
answer cache (the stamp read again for a replay, on ``_sqlite3``: sqlite3's classes)."""

TEXT_RUNNERS = {f"fscli.store.sql.{n}" for n in ("rows", "batches", "scalar", "execute")}


def _imports() -> dict[str, set[str]]:
    """Each store module (``limits.state``) -> what it imports, at any depth: ``module``
    for ``import module``, ``module.name`` for ``from module import name``."""
    found: dict[str, set[str]] = {}
    for path in sorted(STORE.rglob("*.py")):
        name = ".".join(path.relative_to(STORE).with_suffix("").parts)
        names = found[name] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_plain_sqlite3_stays_in_its_modules():
    plain = {
        name
        for name, got in _imports().items()
        if "sqlite3" in got or any(g.startswith("_sqlite3.") for g in got)
    }
    assert plain == PLAIN_SQLITE


def test_orm_writers_run_no_sql_text():
    """A module that writes through the ORM classes holds a SQLAlchemy session: its SQL
    is ORM or Core statements, never text (``store.sql``'s helpers such as ``chunked``
    are fine)."""
    writers = {
        name: got
        for name, got in _imports().items()
        if any(i == "fscli.store.models" or i.startswith("fscli.store.models.") for i in got)
    }
    assert {"admin", "resources", "usage_admin", "lsf_admin", "jobs", "tree_sync"} <= set(writers)
    for name, got in writers.items():
        assert not got & (TEXT_RUNNERS | {"fscli.store.sql"}), name


def test_sql_text_runs_through_store_sql_only():
    """SQLAlchemy's ``text()`` is called in ``store/sql.py`` alone, besides the schema's
    partial-index condition (``tables``) and the schema version's read (``db``)."""
    users = {name for name, got in _imports().items() if "sqlalchemy.text" in got}
    assert users == {"sql", "tables", "db"}
