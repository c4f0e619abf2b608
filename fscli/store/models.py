"""SQLAlchemy 2.x ORM classes of the association store (the write path).

Each class is mapped onto its Core table of :mod:`fscli.store.tables`, which holds the
schema (names, types, limit columns from ``engine.limits.definitions``), so the ORM and
Alembic see one schema and no migration follows from typing. The ``Mapped[...]``
annotations type the columns the code names (``tests/store/test_tables.py`` holds them to
the tables' types and nullability); the limit columns, read and written by name through
``engine.limits.definitions``, stay untyped attributes of the same rows. Read paths never
import this module (the ORM costs ~120 ms to import): ``store.snapshot`` reads rows with
Core into ``engine.model`` dataclasses.
"""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase, Mapped

from fscli.store import tables


class Base(DeclarativeBase):
    metadata = tables.metadata


class Cluster(Base):
    __table__ = tables.cluster
    id: Mapped[int]
    name: Mapped[str]
    nodes: Mapped[int | None]
    cpus: Mapped[int | None]
    tres: Mapped[str | None]


class Account(Base):
    __table__ = tables.account
    id: Mapped[int]
    name: Mapped[str]
    description: Mapped[str | None]
    organization: Mapped[str | None]


class User(Base):
    __table__ = tables.user_account
    id: Mapped[int]
    name: Mapped[str]
    admin_level: Mapped[str]


class Qos(Base):
    __table__ = tables.qos
    id: Mapped[int]
    name: Mapped[str]
    description: Mapped[str | None]
    priority: Mapped[int]
    flags: Mapped[str | None]
    usage_factor: Mapped[float]
    limit_factor: Mapped[float | None]
    usage_threshold: Mapped[float | None]
    grace_time: Mapped[int | None]
    preempt: Mapped[str | None]
    preempt_mode: Mapped[str | None]
    preempt_exempt_time: Mapped[int | None]
    min_prio_thresh: Mapped[int | None]


class Partition(Base):
    __table__ = tables.partition
    id: Mapped[int]
    cluster_id: Mapped[int]
    name: Mapped[str]
    nodes: Mapped[int | None]
    cpus: Mapped[int | None]
    tres: Mapped[str | None]
    priority_job_factor: Mapped[int]
    priority_tier: Mapped[int]
    qos: Mapped[str | None]
    max_time: Mapped[int | None]
    max_nodes: Mapped[int | None]
    min_nodes: Mapped[int | None]
    billing_weights: Mapped[str | None]
    def_mem_per_cpu: Mapped[int | None]
    def_mem_per_node: Mapped[int | None]
    max_mem_per_cpu: Mapped[int | None]


class Association(Base):
    __table__ = tables.association
    id: Mapped[int]
    cluster_id: Mapped[int]
    account: Mapped[str]
    user: Mapped[str | None]
    partition: Mapped[str | None]
    parent_id: Mapped[int | None]
    shares_raw: Mapped[int | None]
    shares_parent: Mapped[bool]
    priority: Mapped[int | None]
    qos: Mapped[str | None]
    default_qos: Mapped[str | None]
    nest_order: Mapped[int | None]
    is_default: Mapped[bool]


class Config(Base):
    __table__ = tables.config
    cluster_id: Mapped[int]
    key: Mapped[str]
    value: Mapped[str]


class ConfigHistory(Base):
    __table__ = tables.config_history
    cluster_id: Mapped[int]
    key: Mapped[str]
    replaced_at: Mapped[int]
    value: Mapped[str]


class Coordinator(Base):
    __table__ = tables.coordinator
    user: Mapped[str]
    account: Mapped[str]


class Usage(Base):
    __table__ = tables.usage
    id: Mapped[int]
    assoc_id: Mapped[int]
    at: Mapped[int]
    amount: Mapped[float]
    tres: Mapped[str | None]


class Job(Base):
    __table__ = tables.job
    id: Mapped[int]
    cluster_id: Mapped[int | None]
    assoc_id: Mapped[int | None]
    user: Mapped[str]
    account: Mapped[str | None]
    partition: Mapped[str | None]
    qos: Mapped[str | None]
    queue: Mapped[str | None]
    state: Mapped[str]
    submit: Mapped[int]
    eligible: Mapped[int | None]
    start: Mapped[int | None]
    end: Mapped[int | None]
    cpus: Mapped[int]
    nodes: Mapped[int]
    slots: Mapped[int]
    tres: Mapped[str | None]
    time_limit: Mapped[int | None]
    nice: Mapped[int]
    site_factor: Mapped[int]
    cputime: Mapped[float | None]
    admin_priority: Mapped[int | None]
    billing: Mapped[float | None]


class Transaction(Base):
    __table__ = tables.transaction_log
    id: Mapped[int]
    at: Mapped[int]
    actor: Mapped[str]
    action: Mapped[str]
    target: Mapped[str]
    detail: Mapped[str]
    cluster: Mapped[str | None]
    changes: Mapped[str | None]


class LsfParam(Base):
    __table__ = tables.lsf_param
    key: Mapped[str]
    value: Mapped[str]


class LsfQueue(Base):
    __table__ = tables.lsf_queue
    id: Mapped[int]
    name: Mapped[str]
    priority: Mapped[int]
    fairshare: Mapped[str | None]
    params: Mapped[str | None]


class LsfGroup(Base):
    __table__ = tables.lsf_group
    id: Mapped[int]
    name: Mapped[str]
    members: Mapped[str]
    shares: Mapped[str | None]
