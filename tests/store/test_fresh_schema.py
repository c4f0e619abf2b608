"""A new SQLite store is made in one step from the schema and stamped at HEAD: it must be
the store that replaying every migration on no data makes, table by table."""

from __future__ import annotations

import re
import sqlite3

from fscli.store.db import HEAD, migrations_dir, open_engine


def migrated(path) -> None:
    """The store every migration makes, one after another, as an old store is upgraded."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    engine.dispose()


def schema(path) -> dict:
    """Each table's columns, keys, constraints and indexes, in an order-free form."""
    conn = sqlite3.connect(path)
    out = {}
    for table, sql in conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
    ):
        indexes = {
            (
                name,
                unique,
                origin,
                tuple(c[2] for c in conn.execute(f"PRAGMA index_info('{name}')")),
                partial and _where(conn, name),
            )
            for _, name, unique, origin, partial in conn.execute(f"PRAGMA index_list('{table}')")
        }
        out[table] = (
            sorted(tuple(c[1:]) for c in conn.execute(f"PRAGMA table_info('{table}')")),
            sorted(tuple(k[2:]) for k in conn.execute(f"PRAGMA foreign_key_list('{table}')")),
            sorted(
                re.sub(r"\s+", " ", c).strip(" ,") for c in re.findall(r"CONSTRAINT [^\n]*", sql)
            ),
            sorted(indexes),
        )
    conn.close()
    return out


def _where(conn, index: str) -> str:
    """A partial index's condition, spaces and case aside."""
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (index,)).fetchone()[0]
    return " ".join(sql.partition(" WHERE ")[2].lower().split())


def test_a_new_store_is_the_migrated_schema(tmp_path):
    fresh, replayed = tmp_path / "fresh.db", tmp_path / "replayed.db"
    open_engine(str(fresh)).dispose()
    migrated(replayed)
    made, expected = schema(fresh), schema(replayed)
    assert sorted(made) == sorted(expected)
    for table in expected:
        assert (table, made[table]) == (table, expected[table])
    version = sqlite3.connect(fresh).execute("SELECT version_num FROM alembic_version").fetchall()
    assert version == [(HEAD,)]
