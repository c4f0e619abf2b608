"""QOS and partitions: add, modify, delete (validated, then written, then logged)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.qos_changes import QosChanges, edited, preempted
from fscli.engine.treespec import QOS_RANGES, check_qos_number
from fscli.errors import Conflict, InvalidValue, NotFound, UsageProblem
from fscli.store import models as m
from fscli.store.admin import Admin
from fscli.store.assoc_fields import change_limit, qos_list
from fscli.store.audit import FIELDS, changed, settings
from fscli.store.checks import SHOWN, check_name, named
from fscli.store.tables import ACTIVE_STATES


def _columns(row) -> list[Any]:
    return [getattr(row, c.key) for c in row.__table__.columns]


def _apply_qos(row: m.Qos, changes: QosChanges) -> bool:
    """Write the changes onto the row; whether any column now holds another value."""
    before = _columns(row)
    for key, value in changes.values.items():
        if key in QOS_RANGES and value is not None:  # QosChanges made without the parsers
            check_qos_number(key, value)
        setattr(row, key, value)
    if changes.flags is not None:
        row.flags = ",".join(edited(qos_list(row.flags), *changes.flags)) or None
    if changes.preempt is not None:
        row.preempt = ",".join(preempted(qos_list(row.preempt), changes.preempt)) or None
    for name, value in changes.limits.items():
        defn = limitdefs.named(name)
        if limitdefs.QOS not in defn.scopes:
            raise InvalidValue(f"{name} is an association limit, not a QOS limit")
        change_limit(row, defn, value)
    return before != _columns(row)


def describe_new_qos(admin: Admin, name: str, text: str) -> None:
    """Give a QOS just made its description, unlogged: part of its making (slurmdbd makes
    QOS ``normal`` with the description ``Normal QOS default``)."""
    row = require_qos(admin, name)
    if row.description is None:
        row.description = text
        admin.s.flush()


def require_qos(admin: Admin, name: str) -> m.Qos:
    row = admin.s.scalar(select(m.Qos).where(m.Qos.name == name.lower()))
    if row is None:
        raise NotFound(f"QOS '{name}' does not exist")
    return row


def add_qos(admin: Admin, names: list[str], changes: QosChanges) -> list[str]:
    if not names:
        raise UsageProblem("need the name of the QOS to add")
    names = [check_name("QOS", n) for n in names]
    lines = []
    for name in names:
        if admin.s.scalar(select(m.Qos).where(m.Qos.name == name)) is not None:
            raise Conflict(f"QOS '{name}' already exists")
        row = m.Qos(name=name, priority=0, usage_factor=1.0)
        _apply_qos(row, changes)
        admin.s.add(row)
        admin.log("add qos", name, changes.describe())
        lines.append(
            f"added QOS {name}" + (f": {changes.describe()}" if not changes.empty() else "")
        )
    admin.s.flush()
    return lines


def modify_qos(admin: Admin, names: list[str], changes: QosChanges) -> list[str]:
    if not names:
        raise UsageProblem("name the QOS to modify")
    if changes.empty():
        raise UsageProblem("nothing to set: give KEY=VALUE words after 'set'")
    rows = [require_qos(admin, n) for n in names]
    befores = [settings(row) for row in rows]
    modified = [row for row in rows if _apply_qos(row, changes)]  # [] when all are so already
    for row, before in zip(rows, befores):
        if row in modified:
            admin.log("modify qos", row.name, changes=changed(before, settings(row)))
    admin.s.flush()
    return [f"modified QOS {row.name}: {changes.describe()}" for row in modified]


def delete_qos(admin: Admin, names: list[str]) -> list[str]:
    """Lines for the QOS deleted ([] when none of them exists: nothing matched)."""
    rows = [
        row
        for row in (admin.s.scalar(select(m.Qos).where(m.Qos.name == n.lower())) for n in names)
        if row is not None
    ]
    lines = []
    for row in rows:
        active = (m.Job.qos == row.name, m.Job.state.in_(ACTIVE_STATES))
        busy = admin.s.scalar(select(func.count()).select_from(m.Job).where(*active))
        if busy:
            first = list(
                admin.s.scalars(select(m.Job.id).where(*active).order_by(m.Job.id).limit(SHOWN))
            )
            raise Conflict(
                f"QOS '{row.name}' is used by {busy} pending or running job(s): "
                f"{named(busy, first, 'job', 'jobs')}"
            )
        used_by = admin.s.scalar(
            select(m.Partition.name).where(m.Partition.qos == row.name).limit(1)
        )
        if used_by:
            raise Conflict(f"QOS '{row.name}' is the QOS of partition {used_by}: change that first")
        for assoc in admin.s.scalars(
            select(m.Association).where(m.Association.qos.contains(row.name))
        ):
            assoc.qos = (
                ",".join(q for q in qos_list(assoc.qos) if q.lstrip("+-") != row.name) or None
            )
        admin.s.execute(
            update(m.Association)
            .where(m.Association.default_qos == row.name)
            .values(default_qos=None)
        )
        for other in admin.s.scalars(select(m.Qos).where(m.Qos.preempt.contains(row.name))):
            other.preempt = ",".join(q for q in qos_list(other.preempt) if q != row.name) or None
        gone = changed(settings(row), {})
        admin.s.delete(row)
        admin.log("delete qos", row.name, changes=gone)
        lines.append(f"deleted QOS {row.name}")
    admin.s.flush()
    return lines


def add_partition(admin: Admin, cluster: m.Cluster, name: str, values: dict[str, Any]) -> list[str]:
    if not name:
        raise UsageProblem("need the name of the partition to add")
    name = check_name("partition", name, keep_case=True)
    exists = admin.s.scalar(
        select(m.Partition).where(m.Partition.cluster_id == cluster.id, m.Partition.name == name)
    )
    if exists is not None:
        raise Conflict(f"partition '{name}' already exists on cluster {cluster.name}")
    if values.get("qos"):
        require_qos(admin, values["qos"])
    row = m.Partition(cluster_id=cluster.id, name=name, priority_job_factor=1, priority_tier=1)
    for key, value in values.items():
        setattr(row, key, value)
    admin.s.add(row)
    admin.s.flush()
    detail = _partition_detail({k: v for k, v in values.items() if v is not None})
    admin.log("add partition", f"{name}@{cluster.name}", detail)
    return [f"added partition {name} on {cluster.name}" + (f": {detail}" if detail else "")]


def modify_partition(
    admin: Admin, cluster: m.Cluster, name: str, values: dict[str, Any]
) -> list[str]:
    row = admin.require_partition(cluster, name)
    if not values:
        raise UsageProblem("nothing to set: give KEY=VALUE words after 'set'")
    if values.get("qos"):
        require_qos(admin, values["qos"])
    before = settings(row)
    if "billing_weights" in values and values["billing_weights"] != row.billing_weights:
        from fscli.store.config_history import keep_job_billing

        admin.s.flush()
        keep_job_billing(admin.s, cluster.id, [row.name], admin.now)
    for key, value in values.items():
        setattr(row, key, value)
    diff = changed(before, settings(row))
    if not diff:
        return []
    detail = _partition_detail(values)
    admin.log("modify partition", f"{name}@{cluster.name}", changes=diff)
    admin.s.flush()
    return [f"modified partition {name} on {cluster.name}: {detail}"]


def delete_partition(admin: Admin, cluster: m.Cluster, name: str) -> list[str]:
    """[] when the cluster has no such partition (nothing matched)."""
    row = admin.s.scalar(
        select(m.Partition).where(m.Partition.cluster_id == cluster.id, m.Partition.name == name)
    )
    if row is None:
        return []
    used = admin.s.scalar(
        select(func.count())
        .select_from(m.Association)
        .where(m.Association.cluster_id == cluster.id, m.Association.partition == name)
    )
    if used:
        raise Conflict(f"partition '{name}' has {used} user association(s): delete them first")
    if row.billing_weights:
        from fscli.store.config_history import keep_job_billing

        keep_job_billing(admin.s, cluster.id, [name], admin.now)
    gone = changed(settings(row), {})
    admin.s.delete(row)
    admin.log("delete partition", f"{name}@{cluster.name}", changes=gone)
    admin.s.flush()
    return [f"deleted partition {name} on {cluster.name}"]


def _partition_detail(values: dict[str, Any]) -> str:
    """Partition settings (column -> value) as the commands take them, as the history's
    old and new values read (:data:`fscli.store.audit.FIELDS`): ``maxtime=1-00:00:00``."""
    fields = {column: (key, show) for column, key, show in FIELDS["partition"]}
    return " ".join(
        f"{fields[k][0]}={'-1' if v is None else fields[k][1](v)}" for k, v in values.items()
    )
