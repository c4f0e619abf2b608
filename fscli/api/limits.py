"""Limits: what is set on a target, what is in force for a job, and whether a job would
run, pend (with Slurm's reason) or be refused at submission."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fscli.api.store import Store
    from fscli.engine.limits.check import CheckResult
    from fscli.engine.limits.precedence import LimitEntry
    from fscli.engine.limits.target import Target
    from fscli.engine.limits.whatif import Change
    from fscli.engine.whatif import WhatIf


def own_limits(
    store: Store, target: Target, cluster: str | None = None, whatif: WhatIf | None = None
) -> list[LimitEntry]:
    """The limits set on the target itself (no inheritance); with ``whatif``'s changes
    made to copies of what was read (nothing is written)."""
    from fscli.engine.whatif import WhatIf
    from fscli.store.limits import state as limit_state

    with store.viewing() as conn:
        state = limit_state.load(conn, target.cluster or cluster, targets=[target])
        changes = WhatIf(whatif.changes) if whatif is not None else None  # no setting shows
        _applied(conn, target.cluster or cluster, state, changes, 0)
    return _own_entries(
        target, state.assocs, {q.name: q for q in state.qos}, {p.name: p for p in state.partitions}
    )


def effective_limits(
    store: Store,
    user: str | None = None,
    account: str | None = None,
    partition: str | None = None,
    qos: str | None = None,
    cluster: str | None = None,
    at: int = 0,
    whatif: WhatIf | None = None,
) -> tuple[list[LimitEntry], list[float | None]]:
    """(every limit in force for a job of ``user`` in ``account`` [partition, QOS], in
    Slurm's precedence order; what each GrpWall, GrpTRESMins and GrpTRESRunMins among
    them has used at ``at``: :func:`fscli.engine.limits.used.used_counters`), with
    ``whatif``'s changes and settings made to copies of what was read."""
    from fscli.engine.limits.check import effective
    from fscli.engine.limits.used import USED, used_counters
    from fscli.store.limits.state import attach_jobs

    targets = [c.target for c in whatif.changes] if whatif is not None else []
    with store.viewing() as conn:
        req, state = _request(conn, cluster, user, account, partition, qos, targets=targets)
        config = _applied(conn, cluster, state, whatif, at)
        entries = effective(req, state)
        if any(e.own_name in USED for e in entries):
            attach_jobs(
                conn, cluster, state, at, config=config, usage=_stored(conn, cluster, whatif, at)
            )
            return entries, used_counters(state, entries, at)
    return entries, [None] * len(entries)


def check_job(
    store: Store,
    user: str,
    account: str | None = None,
    partition: str | None = None,
    qos: str | None = None,
    tres: dict[str, int] | None = None,
    time_limit: int | None = None,
    whatif: Sequence[Change] | WhatIf = (),
    cluster: str | None = None,
    at: int = 0,
    submitted: bool = False,
) -> CheckResult:
    """Would the job start now (``run``), pend (with Slurm's reason) or be refused at
    submission (``reject``, with sbatch's message)? ``whatif``: ``limits set`` changes made
    to the loaded data only, never to the store
    (:class:`fscli.engine.limits.whatif.Change`), or a whole
    :class:`fscli.engine.whatif.WhatIf`, whose settings (``--with-config``) the job is
    billed and the usage decayed under. ``submitted``: a job already accepted
    (:func:`check_stored_job`), checked for what holds it before a start only."""
    from fscli.engine.limits.check import check
    from fscli.store.limits.state import attach_jobs

    asked: WhatIf | None = None
    if whatif:  # the what-if engine and its parsers (5-10 ms of imports) only for changes
        from fscli.engine.whatif import WhatIf

        asked = whatif if isinstance(whatif, WhatIf) else WhatIf(list(whatif))
    targets = [c.target for c in asked.changes] if asked is not None else []
    with store.viewing() as conn:
        req, state = _request(
            conn, cluster, user, account, partition, qos, tres, time_limit, targets, as_sbatch=True
        )
        config = _applied(conn, cluster, state, asked, at)
        attach_jobs(
            conn, cluster, state, at, config=config, usage=_stored(conn, cluster, asked, at)
        )
        return check(req, state, at, submitted)


def _stored(conn, cluster: str | None, whatif: WhatIf | None, at: int):
    """The decayed usage through the pass cache, for a check of the store as it is; None
    (computed apart, the real entry neither read nor written) under a what-if."""
    from fscli.api.limits_usage import pass_usage

    return pass_usage(conn, cluster, at) if whatif is None else None


def _applied(conn, cluster: str | None, state, whatif: WhatIf | None, at: int):
    """Apply ``whatif`` to the checker's ``state`` (copies of what it changes); the
    settings it makes (None if none), which the usage is then decayed under."""
    if whatif is None:
        return None
    if whatif.changes:  # the what-if code (and the change parsers) only for --with
        from fscli.api.whatif import named_users
        from fscli.engine.limits.whatif import apply_change

        _same_cluster(conn, cluster, [c.target for c in whatif.changes])
        users = named_users(conn, whatif.changes)
        for change in whatif.changes:
            apply_change(state.assocs, state.qos, state.partitions, change, users=users)
    return _changed_settings(conn, cluster, state, whatif, at) if whatif.config else None


def _changed_settings(conn, cluster: str | None, state, whatif: WhatIf, at: int):
    """The settings ``whatif`` makes, from ``at`` on (or always), given to the checker's
    ``state``; returned for the usage, which is decayed under them."""
    from fscli.engine.whatif import changed_config
    from fscli.store.limits.state import set_config
    from fscli.store.snapshot import cluster_id_for, load_config, load_config_history

    cid = cluster_id_for(conn, cluster)
    values, history = load_config(conn, cid), load_config_history(conn, cid)
    config = changed_config(values, history, whatif.config, at, whatif.always)
    set_config(state, config)
    return config


def check_stored_job(
    store: Store,
    job_id: int,
    whatif: Sequence[Change] | WhatIf = (),
    cluster: str | None = None,
    at: int = 0,
) -> CheckResult:
    """``limits check job=N``: :func:`check_job` for the stored pending job ``job_id``,
    its size, partition, QOS and time limit as stored."""
    from fscli.api.jobs import stored_job
    from fscli.engine.tres import request_tres
    from fscli.errors import UsageProblem

    job = stored_job(store, job_id, cluster)
    if job.state != "pending" or job.queue is not None:
        what = "an LSF job" if job.queue is not None else job.state
        raise UsageProblem(f"job {job_id} is {what}: limits check job= takes a pending Slurm job")
    return check_job(
        store,
        job.user,
        job.account,
        job.partitions[0] if job.partitions else None,
        job.qos,
        request_tres(job.cpus, job.nodes, job.tres),
        job.time_limit,
        whatif,
        cluster,
        at,
        submitted=True,
    )


def _same_cluster(conn, cluster, targets) -> None:
    """A what-if names the cluster checked, or none: a change to another cluster's limits
    cannot change this check (it was applied to this cluster's objects instead)."""
    from fscli.errors import UsageProblem
    from fscli.store.snapshot import cluster_id_for, load_cluster

    checked = load_cluster(conn, cluster_id_for(conn, cluster)).name
    for target in targets:
        if target.cluster is not None and target.cluster.lower() != checked.lower():
            raise UsageProblem(
                f"--with names cluster '{target.cluster}', but the check is on cluster "
                f"'{checked}' (use --cluster {target.cluster})"
            )


def _request(
    conn,
    cluster,
    user,
    account,
    partition,
    qos,
    tres=None,
    time_limit=None,
    targets=(),
    as_sbatch: bool = False,
):
    """(JobRequest, LimitsState): the state holds the associations of that user and account
    and those ``targets`` name, with ancestors.

    ``as_sbatch``: names the store does not know (user, account, QOS) are left to the
    checker, which refuses them as sbatch does, instead of being a usage error."""
    from fscli.engine.limits.check import JobRequest
    from fscli.errors import NotFound
    from fscli.store.limits import state as limit_state
    from fscli.store.limits.state import default_account

    user = (user or "").strip().lower() or None
    account = (account or "").strip().lower() or None
    if user is not None:
        account = account or default_account(conn, cluster, user)
    state = limit_state.load(conn, cluster, user, account, targets)
    qos = (qos or "").strip().lower() or None
    if not as_sbatch:
        if user is not None and not any(a.user == user for a in state.assocs):
            raise NotFound(f"user '{user}' has no association on this cluster")
        if account is not None and not any(a.account == account for a in state.assocs):
            raise NotFound(f"account '{account}' does not exist")
        if qos is not None and qos not in {q.name for q in state.qos}:
            raise NotFound(f"QOS '{qos}' does not exist")
    return JobRequest(user, account, partition, qos, tres or {}, time_limit), state


def _own_entries(target, assocs, qos_map, partitions) -> list:
    """The limits set on the target itself (no inheritance)."""
    from fscli.engine.limits import definitions as limitdefs
    from fscli.engine.limits.precedence import LimitEntry, assoc_label, assoc_level
    from fscli.errors import NotFound

    def spread(defs, limits, level, source):
        found = []
        for defn in defs:
            value = limits.get(defn.name)
            if value is None:
                continue
            pairs = value.items() if defn.kind in ("tres", "tres_mins") else [(None, value)]
            found += [LimitEntry(defn.name, v, level, source, t) for t, v in pairs]
        return found

    entries = []
    if target.kind == "qos":
        for name in target.qos:
            q = qos_map.get(name)
            if q is None:
                raise NotFound(f"QOS '{name}' does not exist")
            entries += spread(limitdefs.QOS_LIMITS, q.limits, "qos", q.name)
            extra = {
                "Flags": ",".join(sorted(q.flags)) or None,
                "LimitFactor": q.limit_factor,
                "UsageFactor": q.usage_factor if q.usage_factor != 1.0 else None,
                "UsageThreshold": q.usage_threshold,
                "GraceTime": q.grace_time,
                "Priority": q.priority or None,
            }
            entries += [LimitEntry(k, v, "qos", q.name) for k, v in extra.items() if v is not None]
        return entries
    if target.kind == "partition":
        p = partitions.get(target.partition)
        if p is None:
            raise NotFound(f"partition '{target.partition}' does not exist")
        extra = {
            "MaxTime": p.max_time,
            "MaxNodes": p.max_nodes,
            "MinNodes": p.min_nodes or None,
            "QOS": p.qos,
        }
        return [LimitEntry(k, v, "partition", p.name) for k, v in extra.items() if v is not None]
    found = sorted(
        (a for a in assocs if target.matches(a)),
        key=lambda a: (a.account, a.user or "", a.partition or ""),
    )
    if not found:
        raise NotFound(target.missing())
    for a in found:
        level, source = assoc_level(a), assoc_label(a)
        entries += spread(limitdefs.ASSOC_LIMITS, a.limits, level, source)
        extra = {"QOS": ",".join(a.qos) or None, "DefaultQOS": a.default_qos}
        entries += [LimitEntry(k, v, level, source) for k, v in extra.items() if v is not None]
    return entries
