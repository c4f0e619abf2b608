"""SQLAlchemy 2.x models of the association store.

Names follow Slurm's: clusters, accounts (global, as in slurmdbd), users, associations
(per cluster: root, account, or user[+partition]), QOS, partitions, configuration,
usage charges, jobs and the transaction log. Limits are columns named after
``engine.limitdefs`` attrs: TRES limits as canonical text (``cpu=4,mem=8192``), wall
limits in minutes. The engine never sees these classes: ``store.snapshot`` reads rows
with Core into ``engine.model`` dataclasses.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger, Boolean, Double, ForeignKey, Index, Integer, MetaData, String, Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from fscli.engine.limitdefs import ASSOC_LIMITS, QOS_LIMITS

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


def _limit_columns(defs) -> dict:
    cols = {}
    for d in defs:
        kind = Text if d.kind in ("tres", "tres_mins") else BigInteger
        cols[d.attr] = mapped_column(kind, nullable=True)
    return cols


class Cluster(Base):
    __tablename__ = "cluster"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    nodes: Mapped[int | None] = mapped_column(Integer)
    cpus: Mapped[int | None] = mapped_column(Integer)
    tres: Mapped[str | None] = mapped_column(Text)


class Account(Base):
    __tablename__ = "account"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    description: Mapped[str | None] = mapped_column(Text)
    organization: Mapped[str | None] = mapped_column(Text)


class User(Base):
    __tablename__ = "user_account"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    default_account: Mapped[str | None] = mapped_column(String(64))
    admin_level: Mapped[str] = mapped_column(String(16), default="None")


class Qos(Base):
    __tablename__ = "qos"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    description: Mapped[str | None] = mapped_column(Text)
    priority: Mapped[int] = mapped_column(BigInteger, default=0)
    flags: Mapped[str | None] = mapped_column(Text)
    usage_factor: Mapped[float] = mapped_column(Double, default=1.0)
    limit_factor: Mapped[float | None] = mapped_column(Double)
    usage_threshold: Mapped[float | None] = mapped_column(Double)
    grace_time: Mapped[int | None] = mapped_column(BigInteger)
    locals().update(_limit_columns(QOS_LIMITS))


class Partition(Base):
    __tablename__ = "partition"
    __table_args__ = (Index("ix_partition_cluster_name", "cluster_id", "name", unique=True),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    cluster_id: Mapped[int] = mapped_column(ForeignKey("cluster.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    nodes: Mapped[int | None] = mapped_column(Integer)
    cpus: Mapped[int | None] = mapped_column(Integer)
    tres: Mapped[str | None] = mapped_column(Text)
    priority_job_factor: Mapped[int] = mapped_column(Integer, default=1)
    priority_tier: Mapped[int] = mapped_column(Integer, default=1)
    qos: Mapped[str | None] = mapped_column(String(64))
    max_time: Mapped[int | None] = mapped_column(BigInteger)
    max_nodes: Mapped[int | None] = mapped_column(Integer)
    min_nodes: Mapped[int | None] = mapped_column(Integer)
    billing_weights: Mapped[str | None] = mapped_column(Text)


class Association(Base):
    __tablename__ = "association"
    __table_args__ = (
        Index("ix_association_key", "cluster_id", "account", "user", "partition"),
        Index("ix_association_parent", "parent_id"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    cluster_id: Mapped[int] = mapped_column(ForeignKey("cluster.id", ondelete="CASCADE"))
    account: Mapped[str] = mapped_column(ForeignKey("account.name", ondelete="CASCADE"))
    user: Mapped[str | None] = mapped_column(String(64))
    partition: Mapped[str | None] = mapped_column(String(64))
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("association.id", ondelete="CASCADE"))
    shares_raw: Mapped[int | None] = mapped_column(BigInteger, default=1)
    shares_parent: Mapped[bool] = mapped_column(Boolean, default=False)
    priority: Mapped[int | None] = mapped_column(BigInteger)
    qos: Mapped[str | None] = mapped_column(Text)
    default_qos: Mapped[str | None] = mapped_column(String(64))
    locals().update(_limit_columns(ASSOC_LIMITS))


class Config(Base):
    __tablename__ = "config"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Usage(Base):
    __tablename__ = "usage"
    __table_args__ = (Index("ix_usage_assoc_at", "assoc_id", "at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    assoc_id: Mapped[int] = mapped_column(ForeignKey("association.id", ondelete="CASCADE"))
    at: Mapped[int] = mapped_column(BigInteger)
    amount: Mapped[float] = mapped_column(Double)
    tres: Mapped[str | None] = mapped_column(Text)


class Job(Base):
    __tablename__ = "job"
    __table_args__ = (Index("ix_job_state", "state"), Index("ix_job_assoc", "assoc_id"))
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    cluster_id: Mapped[int | None] = mapped_column(ForeignKey("cluster.id", ondelete="CASCADE"))
    assoc_id: Mapped[int | None] = mapped_column(ForeignKey("association.id", ondelete="SET NULL"))
    user: Mapped[str] = mapped_column(String(64))
    account: Mapped[str | None] = mapped_column(String(64))
    partition: Mapped[str | None] = mapped_column(Text)
    qos: Mapped[str | None] = mapped_column(String(64))
    queue: Mapped[str | None] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(16))
    submit: Mapped[int] = mapped_column(BigInteger)
    eligible: Mapped[int | None] = mapped_column(BigInteger)
    start: Mapped[int | None] = mapped_column(BigInteger)
    end: Mapped[int | None] = mapped_column(BigInteger)
    cpus: Mapped[int] = mapped_column(Integer, default=1)
    nodes: Mapped[int] = mapped_column(Integer, default=1)
    slots: Mapped[int] = mapped_column(Integer, default=1)
    tres: Mapped[str | None] = mapped_column(Text)
    time_limit: Mapped[int | None] = mapped_column(BigInteger)
    nice: Mapped[int] = mapped_column(BigInteger, default=0)
    site_factor: Mapped[int] = mapped_column(BigInteger, default=0)
    cputime: Mapped[float | None] = mapped_column(Double)
    admin_priority: Mapped[int | None] = mapped_column(BigInteger)  # scontrol update priority=


class Transaction(Base):
    __tablename__ = "transaction_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[int] = mapped_column(BigInteger)
    actor: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(64))
    target: Mapped[str] = mapped_column(Text)
    detail: Mapped[str] = mapped_column(Text, default="")


class LsfParam(Base):
    __tablename__ = "lsf_param"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class LsfQueue(Base):
    __tablename__ = "lsf_queue"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    priority: Mapped[int] = mapped_column(Integer, default=1)
    fairshare: Mapped[str | None] = mapped_column(Text)
    params: Mapped[str | None] = mapped_column(Text)


class LsfGroup(Base):
    __tablename__ = "lsf_group"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    members: Mapped[str] = mapped_column(Text, default="")
    shares: Mapped[str | None] = mapped_column(Text)
