"""The store's schema as SQLAlchemy Core tables (no ORM: read paths import only this).

Names follow Slurm's: clusters, accounts (global, as in slurmdbd), users, associations
(per cluster: root, account, or user[+partition]), QOS, partitions, per-cluster
configuration, coordinators,
usage charges, jobs and the transaction log. Limits are columns named after
``engine.limits.definitions`` attrs: TRES limits as canonical text (``cpu=4,mem=8192``), wall
limits in minutes. ``store.models`` maps its ORM classes (the write path) onto these
tables; ``tests/store/test_tables.py`` checks that they match the migrations.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
    text,
)

# the job table's states and largest id (job.id is a signed 64-bit column on every backend)
from fscli.engine.job_states import ACTIVE_STATES, MAX_JOB_ID  # noqa: F401
from fscli.engine.limits.definitions import ASSOC_LIMITS, QOS_LIMITS
from fscli.store.assoc_fields import ANY_LIMIT, TREE_INDEX

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING)


def _id() -> Column:
    return Column("id", Integer, primary_key=True)


def _name() -> Column:
    return Column("name", String(64), nullable=False, unique=True)


def _limit_columns(defs) -> list[Column]:
    return [Column(d.attr, Text if d.kind in ("tres", "tres_mins") else BigInteger) for d in defs]


def _fk(column: str, on_delete: str = "CASCADE") -> ForeignKey:
    return ForeignKey(column, ondelete=on_delete)


cluster = Table(
    "cluster",
    metadata,
    _id(),
    _name(),
    Column("nodes", Integer),
    Column("cpus", Integer),
    Column("tres", Text),
)

account = Table(
    "account",
    metadata,
    _id(),
    _name(),
    Column("description", Text),
    Column("organization", Text),
)

user_account = Table(
    "user_account",
    metadata,
    _id(),
    _name(),
    Column("admin_level", String(16), nullable=False, default="None"),
)

qos = Table(
    "qos",
    metadata,
    _id(),
    _name(),
    Column("description", Text),
    Column("priority", BigInteger, nullable=False, default=0),
    Column("flags", Text),
    Column("usage_factor", Double, nullable=False, default=1.0),
    Column("limit_factor", Double),
    Column("usage_threshold", Double),
    Column("grace_time", BigInteger),
    *_limit_columns(QOS_LIMITS),
    # Slurm's preemption settings and MinPrioThresh (migration 0008): the QOS names this
    # one preempts (a comma list), PreemptMode as sacctmgr lists it ("gang,requeue"; NULL
    # is the cluster's), PreemptExemptTime in seconds
    Column("preempt", Text),
    Column("preempt_mode", Text),
    Column("preempt_exempt_time", BigInteger),
    Column("min_prio_thresh", BigInteger),
)

partition = Table(
    "partition",
    metadata,
    _id(),
    Column("cluster_id", Integer, _fk("cluster.id"), nullable=False),
    Column("name", String(64), nullable=False),
    Column("nodes", Integer),
    Column("cpus", Integer),
    Column("tres", Text),
    Column("priority_job_factor", Integer, nullable=False, default=1),
    Column("priority_tier", Integer, nullable=False, default=1),
    Column("qos", String(64)),
    Column("max_time", BigInteger),
    Column("max_nodes", Integer),
    Column("min_nodes", Integer),
    Column("billing_weights", Text),
    Column("def_mem_per_cpu", BigInteger),  # MB; NULL: the cluster's
    Column("def_mem_per_node", BigInteger),
    Column("max_mem_per_cpu", BigInteger),
    Index("ix_partition_cluster_name", "cluster_id", "name", unique=True),
)

association = Table(
    "association",
    metadata,
    _id(),
    Column("cluster_id", Integer, _fk("cluster.id"), nullable=False),
    Column("account", String(64), _fk("account.name"), nullable=False),
    Column("user", String(64)),
    Column("partition", String(64)),
    Column("parent_id", Integer, _fk("association.id")),
    Column("shares_raw", BigInteger, default=1),
    Column("shares_parent", Boolean, nullable=False, default=False),
    Column("priority", BigInteger),
    Column("qos", Text),
    Column("default_qos", String(64)),
    *_limit_columns(ASSOC_LIMITS),
    # slurmdbd's nested set: siblings in this order, lowest first (store.nest)
    Column("nest_order", BigInteger),
    # slurmdbd's is_def: a user association of the user's default account on this
    # cluster (migration 0012; the default is per user and cluster, as in Slurm)
    Column("is_default", Boolean, nullable=False, default=False, server_default=false()),
    Index("ix_association_key", "cluster_id", "account", "user", "partition"),
    Index("ix_association_parent", "parent_id"),
    # partial: MariaDB has none, and an index of every row there would only cost writes
    Index(
        "ix_association_limits",
        "cluster_id",
        sqlite_where=text(ANY_LIMIT),
        postgresql_where=text(ANY_LIMIT),
    ).ddl_if(dialect=("sqlite", "postgresql")),  # type: ignore[arg-type]  # documented; stub: str
    # the fair-share read's rows in its order (snapshot.load_assocs): SQLite only, where
    # the read would otherwise sort the table on every view
    Index("ix_association_tree", *TREE_INDEX).ddl_if(dialect="sqlite"),
)

config = Table(
    "cluster_config",
    metadata,
    Column("cluster_id", Integer, _fk("cluster.id"), primary_key=True),
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
"""slurm.conf's settings (Priority*, TRES weights, ...) and fscli's own per-cluster keys:
each cluster has its own, as each Slurm cluster has its own slurm.conf."""

config_history = Table(
    "cluster_config_history",
    metadata,
    Column("cluster_id", Integer, _fk("cluster.id"), primary_key=True),
    Column("key", String(64), primary_key=True),
    Column("replaced_at", BigInteger, primary_key=True, autoincrement=False),
    Column("value", Text, nullable=False),
)
"""The earlier values of the settings usage depends on (``engine.config.HISTORY_KEYS``):
``value`` was in force until the moment ``replaced_at`` (epoch seconds), when it was changed.
Written only when a change finds usage charged before it; empty for a store whose
settings never changed after usage, which then takes the engine's fast path."""

coordinator = Table(
    "coordinator",
    metadata,
    Column("user", String(64), _fk("user_account.name"), primary_key=True),
    Column("account", String(64), _fk("account.name"), primary_key=True),
)
"""Account coordinators: global, as in slurmdbd's acct_coord_table."""

usage = Table(
    "usage",
    metadata,
    _id(),
    Column("assoc_id", Integer, _fk("association.id"), nullable=False),
    Column("at", BigInteger, nullable=False),
    Column("amount", Double, nullable=False),
    Column("tres", Text),
    Index("ix_usage_assoc_at_amount", "assoc_id", "at", "amount"),
)

job = Table(
    "job",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("cluster_id", Integer, _fk("cluster.id")),
    Column("assoc_id", Integer, _fk("association.id", "SET NULL")),
    Column("user", String(64), nullable=False),
    Column("account", String(64)),
    Column("partition", Text),
    Column("qos", String(64)),
    Column("queue", String(64)),
    Column("state", String(16), nullable=False),
    Column("submit", BigInteger, nullable=False),
    Column("eligible", BigInteger),
    Column("start", BigInteger),
    Column("end", BigInteger),
    Column("cpus", Integer, nullable=False, default=1),
    Column("nodes", Integer, nullable=False, default=1),
    Column("slots", Integer, nullable=False, default=1),
    Column("tres", Text),
    Column("time_limit", BigInteger),
    Column("nice", BigInteger, nullable=False, default=0),
    Column("site_factor", BigInteger, nullable=False, default=0),
    Column("cputime", Double),
    Column("admin_priority", BigInteger),  # scontrol update priority=
    Column("billing", Double),  # charged per second, as recorded (sacct); NULL: computed
    Index("ix_job_state", "state"),
    Index("ix_job_assoc", "assoc_id"),
)

transaction_log = Table(
    "transaction_log",
    metadata,
    _id(),
    Column("at", BigInteger, nullable=False),
    Column("actor", String(64), nullable=False),
    Column("action", String(64), nullable=False),
    Column("target", Text, nullable=False),
    Column("detail", Text, nullable=False, default=""),
    # migration 0012: the cluster the change was made on (NULL: a global object) and the
    # settings it changed as JSON [key, old, new] triples (NULL: written before 0012)
    Column("cluster", String(64)),
    Column("changes", Text),
)

slurmdbd_txn = Table(
    "slurmdbd_txn",
    metadata,
    _id(),
    Column("at", BigInteger, nullable=False),
    Column("actor", String(64), nullable=False),
    Column("action", String(64), nullable=False),
    Column("name", Text, nullable=False),
    Column("cluster", String(64), nullable=False, default=""),
    Column("info", Text, nullable=False, default=""),
)
"""slurmdbd's txn_table as ``fscli sacctmgr`` writes it (:mod:`fscli.store.slurmdbd_txn`):
what ``sacctmgr list transactions`` lists, in slurmdbd's words."""

lsf_param = Table(
    "lsf_param",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

lsf_queue = Table(
    "lsf_queue",
    metadata,
    _id(),
    _name(),
    Column("priority", Integer, nullable=False, default=1),
    Column("fairshare", Text),
    Column("params", Text),
)

lsf_group = Table(
    "lsf_group",
    metadata,
    _id(),
    _name(),
    Column("members", Text, nullable=False, default=""),
    Column("shares", Text),
)
