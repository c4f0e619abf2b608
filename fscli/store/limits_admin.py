"""Store side of ``fscli limits``: targets, writers, the checker's state and what-ifs.

A :class:`Target` names what a limit is set on: an association (the cluster's root, an
account, a user in an account, optionally in a partition), QOS, or a partition. Writes go
through the existing writers (:class:`~fscli.store.admin.Admin`,
:mod:`fscli.store.resources`), so validation and history are the same as for
``account``/``user``/``qos``/``partition modify``. :func:`limits_state` builds the
engine's :class:`~fscli.engine.limit_check.LimitsState` from
:func:`fscli.store.state.load_state`; :func:`apply_whatif` changes that plain data only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fscli.engine import limitdefs
from fscli.engine.limit_check import DEFAULT_ENFORCE, WALL, LimitsState
from fscli.engine.model import Assoc, Job, Qos
from fscli.errors import NotFound
from fscli.store.assoc_fields import AssocChanges
from fscli.store.resources import QosChanges

ASSOC = "assoc"
QOS = "qos"
PARTITION = "partition"
ACTIVE = ("running", "pending")
USAGE_LIMITS = ("GrpTRESMins", "GrpWall")


@dataclass
class Target:
    kind: str  # ASSOC, QOS or PARTITION
    cluster: str | None = None
    account: str | None = None  # "root" for the cluster's root association
    user: str | None = None
    partition: str | None = None
    qos: list[str] = field(default_factory=list)

    def describe(self) -> str:
        if self.kind == QOS:
            return f"QOS {','.join(self.qos)}"
        if self.kind == PARTITION:
            return f"partition {self.partition}"
        if self.user is None:
            return "the root association" if self.account == "root" else f"account {self.account}"
        return "a user association"

    def matches(self, assoc: Assoc) -> bool:
        if self.user is None:
            return assoc.user is None and assoc.account == self.account
        return (assoc.user == self.user
                and (self.account is None or assoc.account == self.account)
                and (self.partition is None or assoc.partition == self.partition))


# -- writes -------------------------------------------------------------------------
def write(admin, cluster_name: str | None, target: Target, changes: Any) -> list[str]:
    """Apply validated changes to the store (inside the caller's transaction)."""
    from fscli.store.resources import modify_partition, modify_qos

    if target.kind == QOS:
        return modify_qos(admin, target.qos, changes)
    cluster = admin.cluster(target.cluster or cluster_name)
    if target.kind == PARTITION:
        return modify_partition(admin, cluster, target.partition, changes)
    if target.user is None:
        return admin.modify_accounts(cluster, [target.account], None, None, None, changes)
    return admin.modify_users(cluster, [target.user], target.account, target.partition,
                              None, None, changes)


def default_account(conn, user: str) -> str | None:
    """The user's default account (what sbatch uses without ``-A``)."""
    from sqlalchemy import select

    from fscli.store import models as m

    return conn.execute(select(m.User.default_account).where(m.User.name == user)).scalar()


# -- the checker's state ------------------------------------------------------------
def enforce_flags(text: str) -> frozenset[str]:
    """AccountingStorageEnforce as the checker reads it (``safe`` implies ``limits``,
    ``limits`` and ``qos`` imply ``associations``); unset = associations,limits,qos."""
    words = {w.strip().lower() for w in text.split(",") if w.strip()}
    if not words:
        return DEFAULT_ENFORCE
    if "safe" in words:
        words.add("limits")
    if words & {"limits", "qos"}:
        words.add("associations")
    return frozenset(words)


def limits_state(conn, cluster: str | None, now: int, jobs: bool = True) -> LimitsState:
    """The store's cluster as the limit checker sees it at ``now``.

    Running and pending Slurm jobs feed the counters; when some GrpTRESMins or GrpWall
    limit exists, decayed usage per TRES (and wall minutes) is computed from the jobs
    that ran, plus the charged billing usage, per association and per QOS.
    """
    from fscli.store import snapshot
    from fscli.store.state import load_state

    cs = load_state(conn, cluster, now, jobs=False)
    state = LimitsState(cs.assocs, list(cs.qos.values()), list(cs.partitions.values()),
                        enforce=enforce_flags(cs.config.raw.get("AccountingStorageEnforce", "")))
    if not jobs:
        return state
    need_usage = _usage_limits_set(state)
    cs.jobs = snapshot.load_jobs(conn, cs.cluster_id, None if need_usage else ACTIVE)
    state.jobs = [j for j in cs.jobs if j.state in ACTIVE and j.assoc_id is not None]
    for job in state.jobs:
        job.tres = _job_tres(job)
    if need_usage:
        state.usage_mins, state.qos_usage_mins = _decayed_minutes(cs, now)
    return state


def _usage_limits_set(state: LimitsState) -> bool:
    holders = [a.limits for a in state.assocs] + [q.limits for q in state.qos]
    return any(name in limits for limits in holders if limits for name in USAGE_LIMITS)


def _job_tres(job: Job) -> dict[str, int]:
    """All of a job's TRES: the store keeps the CPU and node counts in their own columns."""
    return {"cpu": job.cpus, "node": job.nodes, **job.tres}


def _decayed_minutes(cs, now: int) -> tuple[dict[int, dict[str, float]], dict[str, dict[str, float]]]:
    """Decayed TRES-minutes and wall minutes per association and per QOS at ``now``.

    Each job's decayed run time comes from the usage engine (Slurm's discrete decay);
    TRES usage is that times the job's TRES (and its QOS UsageFactor), wall usage is
    the run time itself. Billing also counts the charged usage records.
    """
    from fscli.engine.usage import Run, run_usage
    from fscli.store.state import usage_at

    per_assoc: dict[int, dict[str, float]] = {}
    per_qos: dict[str, dict[str, float]] = {}
    for aid, raw in usage_at(cs, now).items():
        per_assoc.setdefault(aid, {})["billing"] = raw / 60.0
    for job in cs.jobs:
        if job.assoc_id is None or job.start is None or job.start > now or job.state == "pending":
            continue
        seconds = run_usage(Run(job.assoc_id, job.start, None if job.state == "running"
                                else job.end, 1.0), now, cs.config)
        if not seconds:
            continue
        qos = cs.qos.get(job.qos or "")
        factor = qos.usage_factor if qos is not None and qos.usage_factor >= 0 else 1.0
        targets = [per_assoc.setdefault(job.assoc_id, {})]
        if qos is not None:
            targets.append(per_qos.setdefault(qos.name, {}))
        for usage in targets:
            usage[WALL] = usage.get(WALL, 0.0) + seconds / 60.0
            for name, amount in _job_tres(job).items():
                if name != "billing" or usage is not targets[0]:
                    usage[name] = usage.get(name, 0.0) + amount * factor * seconds / 60.0
    return per_assoc, per_qos


# -- what-if ------------------------------------------------------------------------
def apply_whatif(state: LimitsState, target: Target, changes: Any) -> None:
    """Apply a ``limits set`` change to the loaded plain data (never to the store)."""
    known_qos = {q.name for q in state.qos}
    if target.kind == QOS:
        by_name = {q.name: q for q in state.qos}
        for name in target.qos:
            if name not in by_name:
                raise NotFound(f"QOS '{name}' does not exist")
            _qos_whatif(by_name[name], changes)
    elif target.kind == PARTITION:
        part = next((p for p in state.partitions if p.name == target.partition), None)
        if part is None:
            raise NotFound(f"partition '{target.partition}' does not exist")
        if changes.get("qos") and changes["qos"] not in known_qos:
            raise NotFound(f"QOS '{changes['qos']}' does not exist")
        for key, value in changes.items():
            setattr(part, key, value)
    else:
        found = [a for a in state.assocs if target.matches(a)]
        if not found:
            raise NotFound(f"no association for {target.describe()} "
                           f"{target.user or target.account}")
        for assoc in found:
            _assoc_whatif(assoc, changes, known_qos)


def _limits_whatif(limits: dict[str, Any], new: dict[str, Any]) -> None:
    for name, change in new.items():
        defn = limitdefs.lookup(name)
        value = limitdefs.apply_change(defn, limits.get(name), change)
        if value is None:
            limits.pop(name, None)
        else:
            limits[name] = value


def _assoc_whatif(assoc: Assoc, changes: AssocChanges, known_qos: set[str]) -> None:
    from fscli.store.assoc_fields import validate_changes

    validate_changes(changes, known_qos)
    assoc.limits = dict(assoc.limits)
    _limits_whatif(assoc.limits, changes.limits)
    if changes.qos is not None:
        names = list(changes.qos.names)
        if changes.qos.op == "+=":
            names = list(assoc.qos) + names
        elif changes.qos.op == "-=":
            names = [q for q in assoc.qos if q not in names]
        assoc.qos = tuple(sorted(set(names)))
    if changes.default_qos is not None:
        assoc.default_qos = changes.default_qos or None


def _qos_whatif(qos: Qos, changes: QosChanges) -> None:
    for key, value in changes.values.items():
        if hasattr(qos, key):
            setattr(qos, key, 1.0 if key == "usage_factor" and value is None else value)
    if changes.flags is not None:
        op, flags = changes.flags
        current = set(qos.flags)
        qos.flags = frozenset(flags if op == "=" else
                              current | set(flags) if op == "+=" else current - set(flags))
    qos.limits = dict(qos.limits)
    _limits_whatif(qos.limits, changes.limits)
