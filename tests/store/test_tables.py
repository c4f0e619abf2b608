"""The Core schema (``store.tables``) is the migrations' schema, and read paths stay ORM-free."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fscli.store import models, tables
from fscli.store.db import open_engine
from fscli.store.pass_cache import STAMP_TABLE

ROOT = Path(__file__).resolve().parents[2]


def test_tables_match_the_migrations(db_path):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = open_engine(db_path)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(
                conn, opts={"compare_type": True, "include_name": _modelled}
            )
            assert compare_metadata(context, tables.metadata) == []
    finally:
        engine.dispose()


def _modelled(name, kind, _parent) -> bool:
    """All but the pass cache's stamp, which lives beside the model (``store.pass_cache``)."""
    return not (kind == "table" and name == STAMP_TABLE)


def test_orm_classes_are_mapped_on_the_core_tables():
    assert models.Base.metadata is tables.metadata
    assert models.Association.__table__ is tables.association
    assert models.User.__table__ is tables.user_account
    assert {c.key for c in models.Association.__mapper__.columns} == set(
        tables.association.c.keys()
    )


def test_tables_import_no_orm():
    code = "import sys, fscli.store.tables; print('sqlalchemy.orm' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "False"


VIEW_IMPORTS = """
import atexit, os, sys
def report():
    heavy = [m for m in ("sqlalchemy.orm", "alembic") if m in sys.modules]
    sys.stderr.write("HEAVY:" + ",".join(heavy) + "\\n")
atexit.register(report)
from fscli.cli.main import main
sys.argv = ["fscli", *sys.argv[1:]]
main()
"""


def test_views_import_no_orm_nor_alembic(science, db_path):
    science.ok("partition", "add", "batch")
    science.ok("job", "submit", "user=alice", "partition=batch", "cpus=4", at="2026-05-01T00:00:00")
    for args in (["sshare", "-a"], ["sprio", "-l"], ["limits", "check", "user=bob", "cpus=8"]):
        run = subprocess.run(
            [
                sys.executable,
                "-c",
                VIEW_IMPORTS,
                "--db",
                db_path,
                "--at",
                "2026-05-02T00:00:00",
                *args,
            ],
            check=False,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert run.returncode == 0, (args, run.stderr)
        assert run.stderr.strip().splitlines()[-1] == "HEAVY:", (args, run.stderr)


def _python_type(column) -> type:
    return {int: int, str: str, float: float, bool: bool}[column.type.python_type]


def test_orm_annotations_hold_the_tables_types_and_nullability():
    """A typed attribute says what its column holds; a column the code names is typed."""
    from typing import get_type_hints

    from fscli.engine.limits.definitions import ASSOC_LIMITS, QOS_LIMITS

    limits = {d.attr for d in (*ASSOC_LIMITS, *QOS_LIMITS)}
    for mapper in models.Base.registry.mappers:
        cls = mapper.class_
        hints = get_type_hints(cls, vars(models))
        typed = {k: v for k, v in hints.items() if getattr(v, "__origin__", None) is models.Mapped}
        table = cls.__table__
        assert set(typed) == set(table.c.keys()) - limits, cls.__name__
        for key, hint in typed.items():
            column = table.c[key]
            (inner,) = hint.__args__
            expected = _python_type(column)
            assert inner == (expected | None if column.nullable else expected), (cls, key)
