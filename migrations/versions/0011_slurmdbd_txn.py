"""slurmdbd_txn: slurmdbd's transaction rows, for ``sacctmgr list transactions``

fscli's history (``transaction_log``) says what changed in fscli's words; sacctmgr lists
slurmdbd's own rows (``Add Users`` / ``alice`` / ``admin_level=1``, ``Modify
Associations`` / ``(id_assoc=6)``, ...), which name associations by id and are written
for every object a modify matched, changed or not. ``fscli sacctmgr`` writes them here.
Older stores start with none.

Revision ID: 0011
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "slurmdbd_txn",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("cluster", sa.String(64), nullable=False),
        sa.Column("info", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_slurmdbd_txn")),
    )


def downgrade() -> None:
    op.drop_table("slurmdbd_txn")
