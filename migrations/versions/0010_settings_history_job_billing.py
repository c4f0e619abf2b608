"""cluster_config_history: the earlier values of the settings usage depends on;
job.billing: the billing a job was charged at, as recorded

Slurm charges each job once, at the billing and decay in force then: a change of
TRESBillingWeights, PriorityFlags or PriorityDecayHalfLife applies from its moment on.
Until now fscli recomputed all past usage under the current settings, and ``usage import``
ignored the ``billing=`` sacct recorded in AllocTRES. The history table holds each value
that was replaced (and when), the job column the recorded billing. Existing stores get an
empty history (their usage stays as it was computed) and no recorded billing.

Revision ID: 0010
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

MYSQL_TABLE = {"mysql_charset": "utf8mb4", "mysql_collate": "utf8mb4_bin"}


def upgrade() -> None:
    op.create_table(
        "cluster_config_history",
        sa.Column("cluster_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("replaced_at", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["cluster_id"],
            ["cluster.id"],
            ondelete="CASCADE",
            name=op.f("fk_cluster_config_history_cluster_id_cluster"),
        ),
        sa.PrimaryKeyConstraint(
            "cluster_id", "key", "replaced_at", name=op.f("pk_cluster_config_history")
        ),
        **MYSQL_TABLE,
    )
    op.add_column("job", sa.Column("billing", sa.Double(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("job") as batch:
        batch.drop_column("billing")
    op.drop_table("cluster_config_history")
