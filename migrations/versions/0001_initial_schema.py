"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-21 16:45:19.306774
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# MariaDB/MySQL: full UTF-8, and names compared byte for byte as on SQLite and PostgreSQL
# (the server's default collation would make 'Bob' and 'bob' the same account).
MYSQL_TABLE = {"mysql_charset": "utf8mb4", "mysql_collate": "utf8mb4_bin"}


def upgrade() -> None:
    op.create_table(
        "account",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("organization", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account")),
        sa.UniqueConstraint("name", name=op.f("uq_account_name")),
        **MYSQL_TABLE,
    )
    op.create_table(
        "cluster",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("nodes", sa.Integer(), nullable=True),
        sa.Column("cpus", sa.Integer(), nullable=True),
        sa.Column("tres", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cluster")),
        sa.UniqueConstraint("name", name=op.f("uq_cluster_name")),
        **MYSQL_TABLE,
    )
    op.create_table(
        "config",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_config")),
        **MYSQL_TABLE,
    )
    op.create_table(
        "lsf_group",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("members", sa.Text(), nullable=False),
        sa.Column("shares", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lsf_group")),
        sa.UniqueConstraint("name", name=op.f("uq_lsf_group_name")),
        **MYSQL_TABLE,
    )
    op.create_table(
        "lsf_param",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_lsf_param")),
        **MYSQL_TABLE,
    )
    op.create_table(
        "lsf_queue",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("fairshare", sa.Text(), nullable=True),
        sa.Column("params", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lsf_queue")),
        sa.UniqueConstraint("name", name=op.f("uq_lsf_queue_name")),
        **MYSQL_TABLE,
    )
    op.create_table(
        "qos",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("priority", sa.BigInteger(), nullable=False),
        sa.Column("flags", sa.Text(), nullable=True),
        sa.Column("usage_factor", sa.Double(), nullable=False),
        sa.Column("limit_factor", sa.Double(), nullable=True),
        sa.Column("usage_threshold", sa.Double(), nullable=True),
        sa.Column("grace_time", sa.BigInteger(), nullable=True),
        sa.Column("grp_jobs", sa.BigInteger(), nullable=True),
        sa.Column("grp_jobs_accrue", sa.BigInteger(), nullable=True),
        sa.Column("grp_submit_jobs", sa.BigInteger(), nullable=True),
        sa.Column("grp_tres", sa.Text(), nullable=True),
        sa.Column("grp_tres_mins", sa.Text(), nullable=True),
        sa.Column("grp_tres_run_mins", sa.Text(), nullable=True),
        sa.Column("grp_wall", sa.BigInteger(), nullable=True),
        sa.Column("max_tres_per_job", sa.Text(), nullable=True),
        sa.Column("max_tres_mins_per_job", sa.Text(), nullable=True),
        sa.Column("max_tres_per_node", sa.Text(), nullable=True),
        sa.Column("max_wall", sa.BigInteger(), nullable=True),
        sa.Column("max_jobs_per_user", sa.BigInteger(), nullable=True),
        sa.Column("max_jobs_per_account", sa.BigInteger(), nullable=True),
        sa.Column("max_jobs_accrue_per_user", sa.BigInteger(), nullable=True),
        sa.Column("max_jobs_accrue_per_account", sa.BigInteger(), nullable=True),
        sa.Column("max_submit_jobs_per_user", sa.BigInteger(), nullable=True),
        sa.Column("max_submit_jobs_per_account", sa.BigInteger(), nullable=True),
        sa.Column("max_tres_per_user", sa.Text(), nullable=True),
        sa.Column("max_tres_per_account", sa.Text(), nullable=True),
        sa.Column("max_tres_run_mins_per_user", sa.Text(), nullable=True),
        sa.Column("max_tres_run_mins_per_account", sa.Text(), nullable=True),
        sa.Column("min_tres_per_job", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_qos")),
        sa.UniqueConstraint("name", name=op.f("uq_qos_name")),
        **MYSQL_TABLE,
    )
    op.create_table(
        "transaction_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transaction_log")),
        **MYSQL_TABLE,
    )
    op.create_table(
        "user_account",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("default_account", sa.String(length=64), nullable=True),
        sa.Column("admin_level", sa.String(length=16), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_user_account")),
        sa.UniqueConstraint("name", name=op.f("uq_user_account_name")),
        **MYSQL_TABLE,
    )
    op.create_table(
        "association",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("cluster_id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("user", sa.String(length=64), nullable=True),
        sa.Column("partition", sa.String(length=64), nullable=True),
        sa.Column("parent_id", sa.Integer(), nullable=True),
        sa.Column("shares_raw", sa.BigInteger(), nullable=True),
        sa.Column("shares_parent", sa.Boolean(), nullable=False),
        sa.Column("priority", sa.BigInteger(), nullable=True),
        sa.Column("qos", sa.Text(), nullable=True),
        sa.Column("default_qos", sa.String(length=64), nullable=True),
        sa.Column("grp_jobs", sa.BigInteger(), nullable=True),
        sa.Column("grp_jobs_accrue", sa.BigInteger(), nullable=True),
        sa.Column("grp_submit_jobs", sa.BigInteger(), nullable=True),
        sa.Column("grp_tres", sa.Text(), nullable=True),
        sa.Column("grp_tres_mins", sa.Text(), nullable=True),
        sa.Column("grp_tres_run_mins", sa.Text(), nullable=True),
        sa.Column("grp_wall", sa.BigInteger(), nullable=True),
        sa.Column("max_jobs", sa.BigInteger(), nullable=True),
        sa.Column("max_jobs_accrue", sa.BigInteger(), nullable=True),
        sa.Column("max_submit_jobs", sa.BigInteger(), nullable=True),
        sa.Column("max_tres_per_job", sa.Text(), nullable=True),
        sa.Column("max_tres_mins_per_job", sa.Text(), nullable=True),
        sa.Column("max_tres_per_node", sa.Text(), nullable=True),
        sa.Column("max_tres_run_mins", sa.Text(), nullable=True),
        sa.Column("max_wall", sa.BigInteger(), nullable=True),
        sa.Column("min_prio_threshold", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["account"],
            ["account.name"],
            name=op.f("fk_association_account_account"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["cluster_id"],
            ["cluster.id"],
            name=op.f("fk_association_cluster_id_cluster"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["parent_id"],
            ["association.id"],
            name=op.f("fk_association_parent_id_association"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_association")),
        **MYSQL_TABLE,
    )
    with op.batch_alter_table("association", schema=None) as batch_op:
        batch_op.create_index(
            "ix_association_key", ["cluster_id", "account", "user", "partition"], unique=False
        )
        batch_op.create_index("ix_association_parent", ["parent_id"], unique=False)

    op.create_table(
        "partition",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("cluster_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("nodes", sa.Integer(), nullable=True),
        sa.Column("cpus", sa.Integer(), nullable=True),
        sa.Column("tres", sa.Text(), nullable=True),
        sa.Column("priority_job_factor", sa.Integer(), nullable=False),
        sa.Column("priority_tier", sa.Integer(), nullable=False),
        sa.Column("qos", sa.String(length=64), nullable=True),
        sa.Column("max_time", sa.BigInteger(), nullable=True),
        sa.Column("max_nodes", sa.Integer(), nullable=True),
        sa.Column("min_nodes", sa.Integer(), nullable=True),
        sa.Column("billing_weights", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["cluster_id"],
            ["cluster.id"],
            name=op.f("fk_partition_cluster_id_cluster"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_partition")),
        **MYSQL_TABLE,
    )
    with op.batch_alter_table("partition", schema=None) as batch_op:
        batch_op.create_index("ix_partition_cluster_name", ["cluster_id", "name"], unique=True)

    op.create_table(
        "job",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("cluster_id", sa.Integer(), nullable=True),
        sa.Column("assoc_id", sa.Integer(), nullable=True),
        sa.Column("user", sa.String(length=64), nullable=False),
        sa.Column("account", sa.String(length=64), nullable=True),
        sa.Column("partition", sa.Text(), nullable=True),
        sa.Column("qos", sa.String(length=64), nullable=True),
        sa.Column("queue", sa.String(length=64), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("submit", sa.BigInteger(), nullable=False),
        sa.Column("eligible", sa.BigInteger(), nullable=True),
        sa.Column("start", sa.BigInteger(), nullable=True),
        sa.Column("end", sa.BigInteger(), nullable=True),
        sa.Column("cpus", sa.Integer(), nullable=False),
        sa.Column("nodes", sa.Integer(), nullable=False),
        sa.Column("slots", sa.Integer(), nullable=False),
        sa.Column("tres", sa.Text(), nullable=True),
        sa.Column("time_limit", sa.BigInteger(), nullable=True),
        sa.Column("nice", sa.BigInteger(), nullable=False),
        sa.Column("site_factor", sa.BigInteger(), nullable=False),
        sa.Column("cputime", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["assoc_id"],
            ["association.id"],
            name=op.f("fk_job_assoc_id_association"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["cluster_id"],
            ["cluster.id"],
            name=op.f("fk_job_cluster_id_cluster"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_job")),
        **MYSQL_TABLE,
    )
    with op.batch_alter_table("job", schema=None) as batch_op:
        batch_op.create_index("ix_job_assoc", ["assoc_id"], unique=False)
        batch_op.create_index("ix_job_state", ["state"], unique=False)

    op.create_table(
        "usage",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("assoc_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("amount", sa.Double(), nullable=False),
        sa.Column("tres", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["assoc_id"],
            ["association.id"],
            name=op.f("fk_usage_assoc_id_association"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_usage")),
        **MYSQL_TABLE,
    )
    with op.batch_alter_table("usage", schema=None) as batch_op:
        batch_op.create_index("ix_usage_assoc_at", ["assoc_id", "at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("usage", schema=None) as batch_op:
        batch_op.drop_index("ix_usage_assoc_at")

    op.drop_table("usage")
    with op.batch_alter_table("job", schema=None) as batch_op:
        batch_op.drop_index("ix_job_state")
        batch_op.drop_index("ix_job_assoc")

    op.drop_table("job")
    with op.batch_alter_table("partition", schema=None) as batch_op:
        batch_op.drop_index("ix_partition_cluster_name")

    op.drop_table("partition")
    with op.batch_alter_table("association", schema=None) as batch_op:
        batch_op.drop_index("ix_association_parent")
        batch_op.drop_index("ix_association_key")

    op.drop_table("association")
    op.drop_table("user_account")
    op.drop_table("transaction_log")
    op.drop_table("qos")
    op.drop_table("lsf_queue")
    op.drop_table("lsf_param")
    op.drop_table("lsf_group")
    op.drop_table("config")
    op.drop_table("cluster")
    op.drop_table("account")
