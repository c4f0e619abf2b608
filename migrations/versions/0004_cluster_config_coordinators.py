"""Priority settings per cluster (``cluster_config``) and a ``coordinator`` table

In Slurm the priority configuration is slurm.conf's, one per cluster, while QOS, users,
accounts and their coordinators are global to the accounting database. Until now the
``config`` table held one store-wide set of settings, so a change (or a pruning apply) on
one cluster rewrote every cluster's, and coordinators lived there as a JSON value.

Every cluster keeps the settings the store had: each row is copied to each cluster. A
store with settings but no cluster gets the cluster ``default`` (what the first command
on an empty store makes) to keep them. Coordinators move, pair by pair, to their own
table; pairs naming a user or account that no longer exists are dropped (nothing could
read them).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

MYSQL_TABLE = {"mysql_charset": "utf8mb4", "mysql_collate": "utf8mb4_bin"}
COORD_KEY = "fscli:coordinators"


def upgrade() -> None:
    op.create_table(
        "cluster_config",
        sa.Column("cluster_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["cluster_id"],
            ["cluster.id"],
            ondelete="CASCADE",
            name=op.f("fk_cluster_config_cluster_id_cluster"),
        ),
        sa.PrimaryKeyConstraint("cluster_id", "key", name=op.f("pk_cluster_config")),
        **MYSQL_TABLE,
    )
    op.create_table(
        "coordinator",
        sa.Column("user", sa.String(length=64), nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["user"],
            ["user_account.name"],
            ondelete="CASCADE",
            name=op.f("fk_coordinator_user_user_account"),
        ),
        sa.ForeignKeyConstraint(
            ["account"],
            ["account.name"],
            ondelete="CASCADE",
            name=op.f("fk_coordinator_account_account"),
        ),
        sa.PrimaryKeyConstraint("user", "account", name=op.f("pk_coordinator")),
        **MYSQL_TABLE,
    )
    conn = op.get_bind()
    q = _quote(conn)
    rows = conn.execute(sa.text(f"SELECT {q}key{q}, value FROM config")).all()
    settings = [(k, v) for k, v in rows if k != COORD_KEY]
    clusters = [r[0] for r in conn.execute(sa.text("SELECT id FROM cluster")).all()]
    if settings and not clusters:
        clusters = [_default_cluster(conn)]
    config = sa.table(
        "cluster_config", sa.column("cluster_id"), sa.column("key"), sa.column("value")
    )
    if settings:
        op.bulk_insert(
            config, [{"cluster_id": c, "key": k, "value": v} for c in clusters for k, v in settings]
        )
    coords = json.loads(dict(rows).get(COORD_KEY) or "{}")
    users = {r[0] for r in conn.execute(sa.text("SELECT name FROM user_account")).all()}
    accounts = {r[0] for r in conn.execute(sa.text("SELECT name FROM account")).all()}
    pairs = sorted(
        {(u, a) for u, accts in coords.items() for a in accts if u in users and a in accounts}
    )
    if pairs:
        op.bulk_insert(
            sa.table("coordinator", sa.column("user"), sa.column("account")),
            [{"user": u, "account": a} for u, a in pairs],
        )
    op.drop_table("config")


def _quote(conn) -> str:
    """``key`` is a reserved word on MariaDB: quote it as the backend does."""
    return "`" if conn.dialect.name == "mysql" else '"'


def _default_cluster(conn) -> int:
    """The cluster ``default`` with its root association, as the first command makes it."""
    conn.execute(sa.text("INSERT INTO cluster (name) VALUES ('default')"))
    cid = conn.execute(sa.text("SELECT id FROM cluster WHERE name = 'default'")).scalar()
    if conn.execute(sa.text("SELECT id FROM account WHERE name = 'root'")).first() is None:
        conn.execute(
            sa.text(
                "INSERT INTO account (name, description, organization) "
                "VALUES ('root', 'default root account', 'root')"
            )
        )
    if conn.execute(sa.text("SELECT id FROM qos WHERE name = 'normal'")).first() is None:
        conn.execute(
            sa.text("INSERT INTO qos (name, priority, usage_factor) VALUES ('normal', 0, 1.0)")
        )
    conn.execute(
        sa.text(
            "INSERT INTO association (cluster_id, account, parent_id, shares_raw, "
            "shares_parent, qos) VALUES (:c, 'root', NULL, 1, :f, 'normal')"
        ),
        {"c": cid, "f": False},
    )
    return cid


def downgrade() -> None:
    """Back to one store-wide set: the settings of the cluster with the lowest id."""
    op.create_table(
        "config",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_config")),
        **MYSQL_TABLE,
    )
    conn = op.get_bind()
    q = _quote(conn)
    first = conn.execute(sa.text("SELECT MIN(cluster_id) FROM cluster_config")).scalar()
    rows = (
        conn.execute(
            sa.text(f"SELECT {q}key{q}, value FROM cluster_config WHERE cluster_id = :c"),
            {"c": first},
        ).all()
        if first
        else []
    )
    coords: dict[str, list[str]] = {}
    for user, account in conn.execute(
        sa.text(f"SELECT {q}user{q}, account FROM coordinator ORDER BY 1, 2")
    ).all():
        coords.setdefault(user, []).append(account)
    config = sa.table("config", sa.column("key"), sa.column("value"))
    values = [{"key": k, "value": v} for k, v in rows]
    if coords:
        values.append({"key": COORD_KEY, "value": json.dumps(coords, sort_keys=True)})
    if values:
        op.bulk_insert(config, values)
    op.drop_table("coordinator")
    op.drop_table("cluster_config")
