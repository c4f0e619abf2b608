"""fscli_stamp: the store's version, set anew by every write (the pass cache's key)

Every table gets AFTER INSERT/UPDATE/DELETE triggers that set the one row of
``fscli_stamp`` to a random number, whoever writes: the pass cache
(:mod:`fscli.store.pass_cache`) trusts an entry only under the stamp it was computed at.
SQLite only (servers keep no pass cache). ``fscli.store.db.upgrade`` installs the
triggers again after every migration, so tables made or rebuilt later get theirs.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

from alembic import op

from fscli.store.pass_cache import STAMP_TABLE, TRIGGER_PREFIX, install

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    install(op.get_bind())


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        return
    triggers = conn.exec_driver_sql(
        f"SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '{TRIGGER_PREFIX}%'"
    ).fetchall()
    for (name,) in triggers:
        conn.exec_driver_sql(f'DROP TRIGGER "{name}"')
    conn.exec_driver_sql(f"DROP TABLE {STAMP_TABLE}")
