"""A store made by the first schema version, full of data, upgrades to head losing nothing.

The rows are generated from the 0001 tables themselves (every column of every table, foreign
keys pointing at real rows), so a later migration that drops or rewrites a column fails here.
Runs on SQLite and on each configured server.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from fscli.store.db import HEAD
from tests.backends import EVERY_BACKEND, once, store_for

pytestmark = once
ROWS = 3
FIRST = "0001"


def value(column, i: int, chosen: dict):
    """A distinct value for row ``i`` of ``column`` that fits its type and foreign key."""
    from sqlalchemy import Boolean, Float, Integer, String, Text

    if column.foreign_keys:
        target = next(iter(column.foreign_keys)).column
        if target.table is column.table:  # a tree: row 0 is the root
            return None if i == 0 else chosen[(target.table.name, target.name, 0)]
        return chosen[(target.table.name, target.name, i)]
    kind = column.type
    if isinstance(kind, Boolean) or type(kind).__name__ == "TINYINT":  # MariaDB's booleans
        return int(i % 2 == 0)
    if isinstance(kind, Integer):
        return i + 1 if column.primary_key else 1000 * (i + 1) + len(column.name)
    if isinstance(kind, Float):
        return i + 0.25
    if isinstance(kind, (String, Text)):
        return f"{column.name[:8]}{i}"
    raise AssertionError(f"no test value for {column.table.name}.{column.name}: {kind!r}")


def fill(conn) -> dict[str, list[dict]]:
    from sqlalchemy import MetaData

    meta = MetaData()
    meta.reflect(conn)
    chosen: dict = {}
    written: dict[str, list[dict]] = {}
    for table in meta.sorted_tables:
        if table.name == "alembic_version":
            continue
        rows = []
        for i in range(ROWS):
            row = {c.name: value(c, i, chosen) for c in table.columns}
            chosen.update({(table.name, k, i): v for k, v in row.items()})
            rows.append(row)
        conn.execute(table.insert(), rows)
        written[table.name] = rows
    return written


def read(conn, names) -> dict[str, list[dict]]:
    from sqlalchemy import MetaData, select

    meta = MetaData()
    meta.reflect(conn, only=list(names))
    return {
        name: [
            dict(r._mapping)
            for r in conn.execute(
                select(meta.tables[name]).order_by(*meta.tables[name].primary_key.columns)
            )
        ]
        for name in names
    }


@pytest.mark.parametrize("backend", EVERY_BACKEND)
def test_first_version_store_upgrades_with_every_row(backend, tmp_path):
    from fscli.store.db import (
        create_engine_for,
        current_revision,
        open_engine,
        resolve_url,
        upgrade,
    )

    db = store_for(backend, tmp_path / "old.db")
    engine = create_engine_for(resolve_url(db))
    upgrade(engine, FIRST)
    with engine.begin() as conn:
        written = fill(conn)
    engine.dispose()
    assert len(written) >= 12

    engine = open_engine(db)  # what any fscli command does: migrate to head
    settings = written.pop("config")  # 0004: one set of settings per cluster
    for row in written["user_account"]:  # 0012: the default went to the associations
        del row["default_account"]
    try:
        assert current_revision(engine) == HEAD
        with engine.connect() as conn:
            now = read(conn, [*written, "cluster_config"])
    finally:
        engine.dispose()
    for name, rows in written.items():
        kept = [{k: r[k] for k in rows[0]} for r in now[name]]
        assert kept == rows, name
    assert now["cluster_config"] == [
        {"cluster_id": c["id"], **s}
        for c in written["cluster"]
        for s in sorted(settings, key=lambda s: s["key"])
    ]
    if backend == "sqlite":
        assert (tmp_path / f"old.db.bak-{FIRST}").exists()


def test_a_migrated_store_works_from_the_command_line(fscli, db_path):
    from fscli.store.db import create_engine_for, resolve_url, upgrade

    engine = create_engine_for(resolve_url(db_path))
    upgrade(engine, FIRST)
    engine.dispose()
    fscli.ok("cluster", "add", "c1")
    fscli.ok("account", "add", "physics", "fairshare=40")
    assert "physics" in fscli.ok("assoc", "list", "-P").stdout


@pytest.mark.slow  # 3 rounds of 4 processes
@pytest.mark.parametrize("backend", EVERY_BACKEND)
def test_processes_finding_the_same_old_store_all_work(backend, tmp_path):
    """After an fscli upgrade, the first commands may start at once on an old store (or a
    new, empty one): they migrate one after the other (the later ones find it done), none
    fails as "busy" or on tables another one has just made."""
    from fscli.store.db import create_engine_for, resolve_url, upgrade

    old = tmp_path / "old.db"
    for round_, first in enumerate((FIRST, FIRST, None)):  # None: a store with no tables
        if backend == "sqlite":
            store = str(tmp_path / f"store{round_}.db")
            if first:
                if not old.exists():
                    engine = create_engine_for(resolve_url(str(old)))
                    upgrade(engine, first)
                    engine.dispose()
                shutil.copy(old, store)
        else:
            store = store_for(backend, tmp_path / "unused.db")
            if first:
                engine = create_engine_for(resolve_url(store))
                upgrade(engine, first)
                engine.dispose()
        # db current reads: it migrates an old store but creates none (db upgrade does)
        command = ["db", "current"] if first else ["db", "upgrade"]
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "fscli", "--db", store, *command],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(4)
        ]
        outcomes = [(p.wait(timeout=120), *p.communicate()) for p in procs]
        assert [(code, err) for code, _, err in outcomes if code] == [], round_
        assert {out for _, out, _ in outcomes} == {f"{HEAD}\n" if first else ""}


def _store_at_0003(backend, tmp_path, statements: list[tuple[str, dict]]) -> str:
    """A store at schema 0003 holding the rows ``statements`` insert."""
    from sqlalchemy import text

    from fscli.store.db import create_engine_for, resolve_url, upgrade

    db = store_for(backend, tmp_path / "old.db")
    engine = create_engine_for(resolve_url(db))
    upgrade(engine, "0003")
    q = "`" if engine.dialect.name == "mysql" else '"'
    with engine.begin() as conn:
        for sql, params in statements:
            conn.execute(text(sql.replace('"', q)), params)
    engine.dispose()
    return db


@pytest.mark.parametrize("backend", EVERY_BACKEND)
def test_0004_gives_every_cluster_the_settings_and_moves_coordinators(backend, tmp_path):
    """Each cluster keeps the store-wide settings it had; coordinators get their table."""
    from fscli.store.db import open_engine
    from fscli.store.snapshot import load_config
    from fscli.store.tree_plan import read_coordinators

    coords = '{"ann": ["lab", "phys"], "bob": ["gone"], "zed": ["lab"]}'
    db = _store_at_0003(
        backend,
        tmp_path,
        [
            ("INSERT INTO cluster (id, name) VALUES (1, 'uni'), (2, 'other')", {}),
            ("INSERT INTO account (name) VALUES ('lab'), ('phys')", {}),
            (
                "INSERT INTO user_account (name, admin_level) VALUES ('ann', 'None'), "
                "('bob', 'None')",
                {},
            ),
            (
                "INSERT INTO config (\"key\", value) VALUES ('PriorityWeightAge', '500'), "
                "('fscli:coordinators', :c)",
                {"c": coords},
            ),
        ],
    )
    engine = open_engine(db)
    try:
        with engine.connect() as conn:
            assert load_config(conn, 1) == load_config(conn, 2) == {"PriorityWeightAge": "500"}
            # pairs naming a user or an account that no longer exists could not be read
            assert read_coordinators(conn) == {"ann": ["lab", "phys"]}
    finally:
        engine.dispose()


@pytest.mark.parametrize("backend", EVERY_BACKEND)
def test_0004_keeps_settings_of_a_store_without_clusters_in_cluster_default(backend, tmp_path):
    from tests.conftest import Fscli

    db = _store_at_0003(
        backend,
        tmp_path,
        [("INSERT INTO config (\"key\", value) VALUES ('PriorityFlags', 'NO_FAIR_TREE')", {})],
    )
    fscli = Fscli(db)
    assert fscli.ok("config", "show", "-P", "-n").stdout == "PriorityFlags|NO_FAIR_TREE|set\n"
    assert (
        fscli.ok("assoc", "list", "-P", "format=Cluster,Account,QOS").stdout
        == "Cluster|Account|QOS\ndefault|root|normal\n"
    )


@pytest.mark.parametrize("backend", EVERY_BACKEND)
def test_0013_makes_each_users_default_one_per_cluster(backend, tmp_path):
    """A user's single default becomes its default on every cluster where it has that
    account (every association of it there, partitions too); where it has not, the
    first account it has there by name."""
    from sqlalchemy import text

    from fscli.store.db import create_engine_for, open_engine, resolve_url, upgrade
    from tests.conftest import Fscli

    db = store_for(backend, tmp_path / "old.db")
    engine = create_engine_for(resolve_url(db))
    upgrade(engine, "0011")
    q = "`" if engine.dialect.name == "mysql" else '"'
    assocs = [  # id, cluster, account, user, partition, parent
        (1, 1, "root", None, None, None),
        (2, 1, "astro", None, None, 1),
        (3, 1, "astro", "chen", None, 2),
        (4, 1, "astro", "chen", "gpu", 2),
        (5, 1, "ml", None, None, 1),
        (6, 1, "ml", "chen", None, 5),
        (7, 2, "root", None, None, None),
        (8, 2, "ml", None, None, 7),
        (9, 2, "ml", "chen", None, 8),
        (10, 2, "zoo", None, None, 7),
        (11, 2, "zoo", "chen", None, 10),
    ]
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO cluster (id, name) VALUES (1, 'hpc1'), (2, 'hpc2')"))
        conn.execute(text("INSERT INTO account (name) VALUES ('root'), ('astro'), ('ml'), ('zoo')"))
        conn.execute(
            text(
                "INSERT INTO user_account (name, default_account, admin_level) "
                "VALUES ('chen', 'astro', 'Operator')"
            )
        )
        for row in assocs:
            conn.execute(
                text(
                    f"INSERT INTO association (id, cluster_id, account, {q}user{q}, "
                    f"{q}partition{q}, parent_id, shares_raw, shares_parent) "
                    "VALUES (:i, :c, :a, :u, :p, :parent, 1, :no)"
                ),
                dict(zip(("i", "c", "a", "u", "p", "parent"), row), no=False),
            )
    engine.dispose()
    engine = open_engine(db)
    try:
        with engine.connect() as conn:
            flagged = conn.execute(
                text("SELECT id FROM association WHERE is_default = :yes ORDER BY id"),
                {"yes": True},
            ).scalars()
            assert list(flagged) == [3, 4, 9]
    finally:
        engine.dispose()
    fscli = Fscli(db)
    for cluster, default in (("hpc1", "astro"), ("hpc2", "ml")):
        listed = fscli.ok("--cluster", cluster, "user", "list", "-P", "-n").stdout
        assert listed == f"chen|{default}|Operator\n"
