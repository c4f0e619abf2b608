"""Which limits apply to a job, with what value, and who set them.

Slurm's precedence (doc/html/resource_limits.shtml, src/slurmctld/acct_policy.c):

1. the partition's QOS, then the job's QOS (swapped when the job QOS has ``OverPartQOS``);
   a QOS limit is taken from the first of the two that sets it, per TRES for TRES limits;
2. association limits count only where neither QOS sets the matching limit
   (``MaxJobsPerUser``/``MaxJobsPerAccount`` stand in for ``MaxJobs``, and so on);
3. ``Max*`` association limits are inherited: the user association's value, else the
   nearest account's, else root's (slurmctld pre-propagates them down the tree);
4. ``Grp*`` association limits hold at every level: each level that sets one is listed;
5. the partition caps MaxWall and Max/MinNodes unless the job QOS has PartitionTimeLimit,
   PartitionMaxNodes or PartitionMinNodes;
6. the QOS LimitFactor (first QOS that sets one) multiplies association GrpTRES and
   MaxTRESPerJob (``_apply_limit_factor``).

The functions take plain model objects and return plain entries, so the CLI can copy and
change the inputs (what-if) and call again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import Assoc, Partition, Qos
from fscli.errors import InvalidValue

PARTITION_QOS = "partition-qos"
JOB_QOS = "job-qos"
USER = "user"
ACCOUNT = "account"
ROOT = "root"
PARTITION = "partition"

QOS_AS_ASSOC = {
    "MaxJobsPerUser": "MaxJobs",
    "MaxJobsPerAccount": "MaxJobs",
    "MaxSubmitJobsPerUser": "MaxSubmitJobs",
    "MaxSubmitJobsPerAccount": "MaxSubmitJobs",
    "MaxJobsAccruePerUser": "MaxJobsAccrue",
    "MaxJobsAccruePerAccount": "MaxJobsAccrue",
}
"""QOS limits that replace an association limit of another name."""

FACTORED = frozenset({"GrpTRES", "MaxTRESPerJob"})
"""Association limits that the QOS LimitFactor multiplies."""

_TRES_KINDS = ("tres", "tres_mins")


@dataclass(frozen=True, slots=True)
class LimitEntry:
    """One limit in force: ``name`` is the association name of the limit, ``as_name`` the
    QOS's own name when that differs (``MaxJobsPerUser`` for ``MaxJobs``)."""

    name: str
    value: int | float
    level: str
    source: str
    tres: str | None = None
    as_name: str | None = None
    origin: Any = field(default=None, compare=False)
    """The assoc id or QOS name that holds the limit (for the checker; not shown)."""

    @property
    def own_name(self) -> str:
        """The limit's name on the object that holds it."""
        return self.as_name or self.name

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.tres is not None:
            out["tres"] = self.tres
        out.update(value=self.value, level=self.level, source=self.source)
        if self.as_name:
            out["as"] = self.as_name
        return out


@dataclass(slots=True)
class Resolution:
    """The pieces of a resolution, kept apart for the checker."""

    qos_order: list[tuple[Qos, str]]
    qos_entries: list[LimitEntry]
    assoc_entries: list[LimitEntry]
    partition_entries: list[LimitEntry]
    limit_factor: float | None

    def merged(self) -> list[LimitEntry]:
        """QOS and association entries with the partition caps applied."""
        entries = self.qos_entries + self.assoc_entries
        for cap in self.partition_entries:
            at = next(
                (i for i, e in enumerate(entries) if (e.name, e.tres) == (cap.name, cap.tres)),
                None,
            )
            if at is None:
                entries.append(cap)
                continue
            tighter = (
                cap.value > entries[at].value
                if cap.name.startswith("Min")
                else (cap.value < entries[at].value)
            )
            if tighter:
                entries[at] = cap
        return entries


def has_flag(qos: Qos | None, flag: str) -> bool:
    """Whether a QOS carries a flag (case-insensitive, as sacctmgr accepts them)."""
    return qos is not None and flag.lower() in {f.lower() for f in qos.flags}


def qos_order(job_qos: Qos | None, partition_qos: Qos | None) -> list[tuple[Qos, str]]:
    """The QOS in the order Slurm consults them (``acct_policy_set_qos_order``)."""
    if job_qos is None:
        return [(partition_qos, PARTITION_QOS)] if partition_qos else []
    if partition_qos is None or partition_qos.name == job_qos.name:
        return [(job_qos, JOB_QOS)]
    if has_flag(job_qos, "OverPartQOS"):
        return [(job_qos, JOB_QOS), (partition_qos, PARTITION_QOS)]
    return [(partition_qos, PARTITION_QOS), (job_qos, JOB_QOS)]


def assoc_level(assoc: Assoc) -> str:
    if assoc.is_root:
        return ROOT
    return USER if assoc.is_user else ACCOUNT


def assoc_label(assoc: Assoc) -> str:
    """How an association is named in results: ``root``, ``acct``, ``user@acct[:part]``."""
    if not assoc.is_user:
        return assoc.account
    label = f"{assoc.user}@{assoc.account}"
    return f"{label}:{assoc.partition}" if assoc.partition else label


def check_chain(chain: Sequence[Assoc]) -> None:
    """Refuse a chain that does not climb parent by parent to a root."""
    if not chain:
        raise InvalidValue("no association given: the chain must start at a user or account")
    for child, parent in pairwise(chain):
        if child.parent_id != parent.id:
            raise InvalidValue(
                f"association chain broken: {assoc_label(child)} is not a child of "
                f"{assoc_label(parent)}"
            )
    if not chain[-1].is_root:
        last = assoc_label(chain[-1])
        raise InvalidValue(f"association chain does not reach root (ends at {last})")


def _values(defn: limitdefs.LimitDef, value: Any) -> list[tuple[str | None, Any]]:
    """(tres, value) pairs of one stored limit: one per TRES for TRES kinds."""
    if defn.kind in _TRES_KINDS:
        return list(value.items())
    return [(None, value)]


def _qos_entries(order: list[tuple[Qos, str]]) -> list[LimitEntry]:
    entries: list[LimitEntry] = []
    taken: set[tuple[str, str | None]] = set()
    for qos, level in order:
        for defn in limitdefs.QOS_LIMITS:
            value = qos.limits.get(defn.name)
            if value is None:
                continue
            for tres, amount in _values(defn, value):
                if (defn.name, tres) in taken:
                    continue
                taken.add((defn.name, tres))
                alias = QOS_AS_ASSOC.get(defn.name)
                entries.append(
                    LimitEntry(
                        alias or defn.name,
                        amount,
                        level,
                        qos.name,
                        tres,
                        defn.name if alias else None,
                        qos.name,
                    )
                )
    return entries


def _factored(name: str, amount: Any, factor: float | None) -> Any:
    if factor is None or factor <= 0 or name not in FACTORED:
        return amount
    return int(amount * factor)


def _assoc_entries(
    chain: Sequence[Assoc], blocked: set[tuple[str, str | None]], factor: float | None
) -> list[LimitEntry]:
    entries: list[LimitEntry] = []
    inherited: set[tuple[str, str | None]] = set()
    for assoc in chain:
        for defn in limitdefs.ASSOC_LIMITS:
            value = assoc.limits.get(defn.name)
            if value is None:
                continue
            grp = defn.name.startswith("Grp")
            for tres, amount in _values(defn, value):
                key = (defn.name, tres)
                if key in blocked or (not grp and key in inherited):
                    continue
                if not grp:
                    inherited.add(key)
                entries.append(
                    LimitEntry(
                        defn.name,
                        _factored(defn.name, amount, factor),
                        assoc_level(assoc),
                        assoc_label(assoc),
                        tres,
                        None,
                        assoc.id,
                    )
                )
    return entries


def _partition_entries(partition: Partition | None, job_qos: Qos | None) -> list[LimitEntry]:
    if partition is None:
        return []
    caps = (  # (as the association's limit, TRES, value, the QOS flag lifting it, own name)
        ("MaxWallDurationPerJob", None, partition.max_time, "PartitionTimeLimit", "MaxTime"),
        ("MaxTRESPerJob", "node", partition.max_nodes, "PartitionMaxNodes", None),
        ("MinTRESPerJob", "node", partition.min_nodes or None, "PartitionMinNodes", None),
    )
    return [
        LimitEntry(name, value, PARTITION, partition.name, tres, own, partition.name)
        for name, tres, value, flag, own in caps
        if value is not None and not has_flag(job_qos, flag)
    ]


def resolve_detail(
    chain: Sequence[Assoc],
    job_qos: Qos | None = None,
    partition: Partition | None = None,
    partition_qos: Qos | None = None,
) -> Resolution:
    """Like :func:`resolve`, with QOS, association and partition entries kept apart."""
    check_chain(chain)
    order = qos_order(job_qos, partition_qos)
    qos_entries = _qos_entries(order)
    blocked = {(e.name, e.tres) for e in qos_entries}
    factor = next((q.limit_factor for q, _ in order if q.limit_factor is not None), None)
    return Resolution(
        order,
        qos_entries,
        _assoc_entries(chain, blocked, factor),
        _partition_entries(partition, job_qos),
        factor,
    )


def resolve(
    chain: Sequence[Assoc],
    job_qos: Qos | None = None,
    partition: Partition | None = None,
    partition_qos: Qos | None = None,
) -> list[LimitEntry]:
    """Every limit that applies to jobs of ``chain[0]`` (a user association or an account),
    in precedence order: QOS entries, then association entries from the user up to root,
    then partition caps that are tighter than (or missing from) the rest.

    ``chain`` runs from the association up to root, parent by parent.
    """
    return resolve_detail(chain, job_qos, partition, partition_qos).merged()
