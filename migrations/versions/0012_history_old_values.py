"""transaction_log.cluster and .changes: history rows that say what a change replaced

``fscli history`` kept only the new values (``fairshare=120``), and told the cluster a row
belongs to only inside its target text. Each row now keeps the settings it changed as
JSON ``[key, old, new]`` triples (its detail reads ``fairshare=70 -> 120``) and its
cluster, which ``history --cluster`` filters on. Rows written before keep no old values
(NULL: they print as they did); their cluster is read from their target
(``NAME@CLUSTER``, or a cluster's own rows).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from fscli.store.audit import target_cluster

    with op.batch_alter_table("transaction_log") as batch:
        batch.add_column(sa.Column("cluster", sa.String(64), nullable=True))
        batch.add_column(sa.Column("changes", sa.Text(), nullable=True))
    log = sa.table(
        "transaction_log",
        sa.column("id", sa.Integer),
        sa.column("action", sa.String),
        sa.column("target", sa.Text),
        sa.column("cluster", sa.String),
    )
    conn = op.get_bind()
    found = [
        {"row": row_id, "cluster": target_cluster(action, target)}
        for row_id, action, target in conn.execute(sa.select(log.c.id, log.c.action, log.c.target))
    ]
    found = [f for f in found if f["cluster"] is not None]
    if found:
        conn.execute(
            log.update()
            .where(log.c.id == sa.bindparam("row"))
            .values(cluster=sa.bindparam("cluster")),
            found,
        )


def downgrade() -> None:
    with op.batch_alter_table("transaction_log") as batch:
        batch.drop_column("changes")
        batch.drop_column("cluster")
