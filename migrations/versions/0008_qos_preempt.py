"""qos: Preempt, PreemptMode, PreemptExemptTime and MinPrioThresh, as sacctmgr sets them

``sacctmgr add|modify qos`` takes ``Preempt=`` (the QOS a job of this one may preempt,
with ``+=``/``-=``), ``PreemptMode=``, ``PreemptExemptTime=`` and ``MinPrioThresh=``, and
``sacctmgr show qos`` lists them; the store kept none of them.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

COLUMNS = (
    ("preempt", sa.Text()),
    ("preempt_mode", sa.Text()),
    ("preempt_exempt_time", sa.BigInteger()),
    ("min_prio_thresh", sa.BigInteger()),
)


def upgrade() -> None:
    for name, kind in COLUMNS:
        op.add_column("qos", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("qos") as batch:
        for name, _ in COLUMNS:
            batch.drop_column(name)
