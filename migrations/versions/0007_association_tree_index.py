"""association: an index that holds the tree as the fair-share read wants it

sshare and sprio read every association of a cluster, each parent's children together
(``snapshot.load_assocs(by_parent=True, settings=False)``). Without an index in that
order SQLite sorted every row on each read: at 100,000 associations the sort took 40 of
the read's 120 ms. This index holds the rows in (parent, id) order with every column that
read takes, so the read walks it and never visits the table. SQLite only: the servers
plan their own reads, and there a wider index would only cost writes.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

COLUMNS = [
    "parent_id",
    "id",
    "cluster_id",
    "account",
    "user",
    "partition",
    "shares_parent",
    "shares_raw",
    "priority",
]


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.create_index("ix_association_tree", "association", COLUMNS)


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.drop_index("ix_association_tree", table_name="association")
