"""association: ``nest_order``, where slurmdbd's nested set puts it among its siblings

slurmdbd numbers a cluster's associations as a nested set (``lft``/``rgt``) and lists
them in that order: a new association goes first under its parent, and the ones one
command adds under one parent go there together in the order given. That order follows
history, not names, and sacctmgr shows it (``format=lft``, a user's partitions, the
associations a modify or delete names). Until now fscli rebuilt it from the ids and a
per-cluster setting naming the ids added together; the order is now a column: siblings
sort by ``nest_order``, lowest first, and every association added or moved gets one lower
than any other in its cluster.

Every association gets the place that the ids and the setting gave it, and the setting
(``fscli:sacctmgr:batches``) goes.

Revision ID: 0009
Revises: 0007
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

BATCH_KEY = "fscli:sacctmgr:batches"


def upgrade() -> None:
    op.add_column("association", sa.Column("nest_order", sa.BigInteger(), nullable=True))
    conn = op.get_bind()
    assoc = sa.table(
        "association", sa.column("id"), sa.column("cluster_id"), sa.column("nest_order")
    )
    config = sa.table(
        "cluster_config", sa.column("cluster_id"), sa.column("key"), sa.column("value")
    )
    batches: dict[int, list[list[int]]] = {}
    for cid, value in conn.execute(
        sa.select(config.c.cluster_id, config.c.value).where(config.c.key == BATCH_KEY)
    ):
        batches[cid] = json.loads(value)
    by_cluster: dict[int, list[int]] = {}
    for aid, cid in conn.execute(sa.select(assoc.c.id, assoc.c.cluster_id)):
        by_cluster.setdefault(cid, []).append(aid)
    rows = []
    for cid, ids in by_cluster.items():
        # newest first, except that the ids added together keep their own order
        first_of = {i: min(group) for group in batches.get(cid, []) for i in group}
        ids.sort(key=lambda i: (-first_of.get(i, i), i))
        rows += [{"b_id": aid, "nest_order": rank - len(ids)} for rank, aid in enumerate(ids)]
    if rows:
        conn.execute(
            sa.update(assoc).where(assoc.c.id == sa.bindparam("b_id")),
            rows,
        )
    conn.execute(sa.delete(config).where(config.c.key == BATCH_KEY))


def downgrade() -> None:
    with op.batch_alter_table("association") as batch:
        batch.drop_column("nest_order")
