"""Plain data the engine computes on.

The store loads rows into these dataclasses (one query per table, SQLAlchemy Core);
every engine module takes them as input and never touches the database or terminal.
Limits are plain dicts keyed by the canonical limit name of
:mod:`fscli.engine.limits.definitions` (``"GrpTRES"``, ``"MaxJobs"``, ...); a missing key means
"not set". TRES limits are ``dict[str, int]`` (memory in MB), wall limits are minutes.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, overload

SHARES_PARENT = 0x7FFFFFFF
"""How Slurm stores ``FairShare=parent`` (SLURMDB_FS_USE_PARENT)."""


@dataclass(slots=True)
class Assoc:
    """One association: the root (parent_id None), an account, or a user (+partition)."""

    id: int
    parent_id: int | None
    account: str
    user: str | None = None
    partition: str | None = None
    shares: int = 1
    priority: int | None = None
    qos: tuple[str, ...] = ()
    default_qos: str | None = None
    limits: dict[str, Any] = field(default_factory=dict)

    @property
    def is_user(self) -> bool:
        return self.user is not None

    @property
    def is_root(self) -> bool:
        return self.parent_id is None

    @property
    def shares_parent(self) -> bool:
        return self.shares == SHARES_PARENT


class AssocColumns(Sequence[Assoc]):
    """The association tree as the engine takes it (fair-share, job priority): columns of
    the associations' first fields (``Assoc``'s order; the other fields are each
    association's same ``rest``), made into ``Assoc`` objects only when one is asked for:
    then every one at once and once only, so that a change to one stays. Associations
    that are objects already (a what-if's changed tree, a test's) come in through
    :meth:`of`.

    The fair-share pass reads columns (:meth:`field`) and needs no object per
    association: at 100,000 associations, making them took 37 ms of ``sshare -a -P``'s
    0.5 s, and reading their fields back into columns 17 ms more."""

    __slots__ = ("_columns", "_rest", "_objects")

    def __init__(self, columns: Sequence[list], rest: tuple = ()):
        if len(columns) + len(rest) != len(_ASSOC_FIELDS):
            raise ValueError(f"{len(columns)} columns and {len(rest)} more fields make no Assoc")
        self._columns, self._rest = columns, rest
        self._objects: list[Assoc] | None = None

    @classmethod
    def of(cls, assocs: Iterable[Assoc]) -> AssocColumns:
        """``assocs`` in the engine's form: itself if it is one, else its objects, each
        field read from them when asked for (no column made up front)."""
        if isinstance(assocs, AssocColumns):
            return assocs
        made = cls([[] for _ in _ASSOC_FIELDS])
        made._objects = list(assocs)
        return made

    def __len__(self) -> int:
        if self._objects is not None:
            return len(self._objects)
        return len(self._columns[0])

    @overload
    def __getitem__(self, index: int) -> Assoc: ...
    @overload
    def __getitem__(self, index: slice) -> list[Assoc]: ...
    def __getitem__(self, index):
        return self._assocs()[index]

    def __iter__(self) -> Iterator[Assoc]:
        return iter(self._assocs())

    def __eq__(self, other: object) -> bool:
        """Equal to a sequence of the same associations (a list of them too)."""
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(map(operator.eq, self, other))

    __hash__ = None  # type: ignore[assignment]  # changeable, as the list it stands for

    def field(self, name: str) -> list:
        """Each association's ``name`` field, in order (the column itself: not to be
        changed)."""
        if self._objects is not None:  # they may have changed since
            return list(map(operator.attrgetter(name), self._objects))
        k = _ASSOC_FIELDS.index(name)
        if k < len(self._columns):
            return self._columns[k]
        return [self._rest[k - len(self._columns)]] * len(self)

    def objects(self) -> list[Assoc]:
        """The associations as objects, in a list (made on the first call; the same list
        after it): what a caller picking many of them by position indexes at C speed,
        where this sequence's own ``[i]`` is a Python call per item."""
        return self._assocs()

    def _assocs(self) -> list[Assoc]:
        if self._objects is None:
            rest = map(itertools.repeat, self._rest)
            self._objects = list(map(Assoc, *self._columns, *rest))
        return self._objects


_ASSOC_FIELDS = tuple(f.name for f in fields(Assoc))


@dataclass(slots=True)
class Qos:
    """A QOS: priority, flags, usage and limit factors, and its limits."""

    name: str
    priority: int = 0
    flags: frozenset[str] = frozenset()
    usage_factor: float = 1.0
    limit_factor: float | None = None
    usage_threshold: float | None = None
    grace_time: int | None = None
    limits: dict[str, Any] = field(default_factory=dict)
    description: str | None = None
    preempt: tuple[str, ...] = ()  # the QOS this one may preempt
    preempt_mode: str | None = None  # "gang,requeue" as sacctmgr lists it; None: the cluster's
    preempt_exempt_time: int | None = None  # seconds
    min_prio_thresh: int | None = None


@dataclass(slots=True)
class Partition:
    """A partition: size, priority factors, its QOS, limits and memory defaults."""

    name: str
    nodes: int | None = None
    cpus: int | None = None
    tres: dict[str, int] = field(default_factory=dict)
    priority_job_factor: int = 1
    priority_tier: int = 1
    qos: str | None = None
    max_time: int | None = None  # minutes
    max_nodes: int | None = None
    min_nodes: int | None = None
    billing_weights: str | None = None  # TRESBillingWeights text, parsed by the engine
    def_mem_per_cpu: int | None = None  # MB; None: the cluster's (slurm.conf)
    def_mem_per_node: int | None = None
    max_mem_per_cpu: int | None = None


PARTITION_SETTINGS = tuple(f.name for f in fields(Partition) if f.name != "name")
"""A partition's settings, in order: what trees write and the store keeps."""


@dataclass(slots=True)
class ClusterInfo:
    """A cluster's name and size (nodes, CPUs, configured TRES)."""

    name: str
    nodes: int | None = None
    cpus: int | None = None
    tres: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Job:
    """A job in the store. Slurm jobs name an association; LSF jobs name a queue."""

    id: int
    user: str
    account: str | None = None
    assoc_id: int | None = None
    partitions: tuple[str, ...] = ()
    qos: str | None = None
    state: str = "pending"  # pending, running, completed or cancelled
    submit: int = 0
    eligible: int | None = None
    start: int | None = None
    end: int | None = None
    cpus: int = 1
    nodes: int = 1
    tres: dict[str, int] = field(default_factory=dict)
    time_limit: int | None = None  # minutes
    nice: int = 0
    site_factor: int = 0
    queue: str | None = None
    slots: int = 1
    cputime: float | None = None  # seconds (LSF)
    admin_priority: int | None = None  # `scontrol update priority=`: fixed (0 = held)
    billing: float | None = None  # charged per second as recorded (sacct); None: computed


@dataclass(slots=True)
class Charge:
    """Usage charged to an association at a moment: billing TRES-seconds."""

    assoc_id: int
    at: int
    amount: float
