"""SQLAlchemy 2.x ORM classes of the association store (the write path).

Each class is mapped onto its Core table of :mod:`fscli.store.tables`, which holds the
schema (names, types, limit columns from ``engine.limits.definitions``); attributes are the
tables' column names. Read paths never import this module (the ORM costs ~120 ms to
import): ``store.snapshot`` reads rows with Core into ``engine.model`` dataclasses.
"""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase

from fscli.store import tables


class Base(DeclarativeBase):
    metadata = tables.metadata


class Cluster(Base):
    __table__ = tables.cluster


class Account(Base):
    __table__ = tables.account


class User(Base):
    __table__ = tables.user_account


class Qos(Base):
    __table__ = tables.qos


class Partition(Base):
    __table__ = tables.partition


class Association(Base):
    __table__ = tables.association


class Config(Base):
    __table__ = tables.config


class ConfigHistory(Base):
    __table__ = tables.config_history


class Coordinator(Base):
    __table__ = tables.coordinator


class Usage(Base):
    __table__ = tables.usage


class Job(Base):
    __table__ = tables.job


class Transaction(Base):
    __table__ = tables.transaction_log


class LsfParam(Base):
    __table__ = tables.lsf_param


class LsfQueue(Base):
    __table__ = tables.lsf_queue


class LsfGroup(Base):
    __table__ = tables.lsf_group
