"""partition: DefMemPerCPU, DefMemPerNode and MaxMemPerCPU (MB), as slurm.conf's
PartitionName lines set them over the cluster-wide values

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

COLUMNS = ("def_mem_per_cpu", "def_mem_per_node", "max_mem_per_cpu")


def upgrade() -> None:
    for name in COLUMNS:
        op.add_column("partition", sa.Column(name, sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("partition") as batch:
        for name in COLUMNS:
            batch.drop_column(name)
