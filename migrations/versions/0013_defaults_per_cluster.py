"""association.is_default: a user's default account is per cluster, as in Slurm

slurmdbd keeps ``is_def`` on each user association; a user's DefaultAccount on a cluster
is the account of its associations flagged there. fscli kept one ``default_account`` per
user for the whole store, so adding a user to a second cluster, dumping that cluster or
applying one cluster's tree used (or overwrote) the other cluster's default.

Every user association of a user's old default account is flagged, on every cluster
where the user has it; a user left without a default on a cluster (the old default was
not among its accounts there) gets the alphabetically first account it has there. The
old column goes (SQLite drops it in place, where SQLite is 3.35 or newer: rebuilding the
table would cascade to the coordinators).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlite3

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

NATIVE_DROP = (3, 35, 0)
"""The first SQLite with ``ALTER TABLE ... DROP COLUMN``."""


def upgrade() -> None:
    op.add_column(
        "association",
        sa.Column("is_default", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    conn = op.get_bind()
    assoc = sa.table(
        "association",
        sa.column("id"),
        sa.column("cluster_id"),
        sa.column("account"),
        sa.column("user"),
        sa.column("is_default"),
    )
    users = sa.table("user_account", sa.column("name"), sa.column("default_account"))
    old = dict(conn.execute(sa.select(users.c.name, users.c.default_account)).all())
    accounts: dict[tuple[int, str], set[str]] = {}
    for cid, account, user in conn.execute(
        sa.select(assoc.c.cluster_id, assoc.c.account, assoc.c.user).where(
            assoc.c.user.is_not(None)
        )
    ):
        accounts.setdefault((cid, user), set()).add(account)
    for (cid, user), have in accounts.items():
        default = old.get(user) if old.get(user) in have else min(have)
        conn.execute(
            sa.update(assoc)
            .where(assoc.c.cluster_id == cid, assoc.c.user == user, assoc.c.account == default)
            .values(is_default=True)
        )
    if conn.dialect.name != "sqlite":
        op.drop_column("user_account", "default_account")
    elif sqlite3.sqlite_version_info >= NATIVE_DROP:
        op.execute("ALTER TABLE user_account DROP COLUMN default_account")


def downgrade() -> None:
    op.add_column("user_account", sa.Column("default_account", sa.String(64), nullable=True))
    conn = op.get_bind()
    assoc = sa.table(
        "association", sa.column("account"), sa.column("user"), sa.column("is_default")
    )
    users = sa.table("user_account", sa.column("name"), sa.column("default_account"))
    firsts = conn.execute(
        sa.select(assoc.c.user, sa.func.min(assoc.c.account))
        .where(assoc.c.is_default == sa.true(), assoc.c.user.is_not(None))
        .group_by(assoc.c.user)
    ).all()
    for user, account in firsts:
        conn.execute(sa.update(users).where(users.c.name == user).values(default_account=account))
    with op.batch_alter_table("association") as batch:
        batch.drop_column("is_default")
