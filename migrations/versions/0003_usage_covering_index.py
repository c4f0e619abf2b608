"""usage: index (assoc_id, at, amount) instead of (assoc_id, at)

Every view reads all of a cluster's charges ordered by association, then time. With
``amount`` in the index that read is a scan of the index alone, in that order, as fast
as a scan of the table: charges then reach the engine grouped by association (its
per-association sums stay in cache) and in one canonical order (sums of floats do not
depend on the order rows were written in, nor on the backend).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # the new index first: MariaDB refuses to drop the only index of a foreign key column
    op.create_index("ix_usage_assoc_at_amount", "usage", ["assoc_id", "at", "amount"])
    op.drop_index("ix_usage_assoc_at", table_name="usage")


def downgrade() -> None:
    op.create_index("ix_usage_assoc_at", "usage", ["assoc_id", "at"])
    op.drop_index("ix_usage_assoc_at_amount", table_name="usage")
