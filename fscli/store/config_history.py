"""The settings' history: the earlier values of the settings usage depends on.

slurmctld charges each job once, at the billing of its start, and decays each pass at the
half-life then in force: a change of TRESBillingWeights, PriorityFlags or
PriorityDecayHalfLife applies from its moment on (``engine.config.HISTORY_KEYS``). So when
such a key changes and usage was charged before that moment, the value it replaces is kept
in ``cluster_config_history`` with the moment it was replaced; the engine then charges
and decays each interval under the settings in force during it
(:meth:`fscli.engine.config.PriorityConfig.from_mapping`). A change that finds no usage
before it keeps nothing: there is nothing it could re-price, and the store keeps the
engine's fast path.

A partition's TRESBillingWeights have no history: when they change, the jobs of the
partition that started before keep the billing they were charged at, written on the job
(:func:`keep_job_billing`), as slurmctld keeps the billing it computed at their start.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sqlalchemy import bindparam, exists, func, insert, select, update

from fscli.engine.config import HISTORY_KEYS, KEYS
from fscli.engine.timestr import utc_iso
from fscli.errors import Conflict
from fscli.store.tables import association, config_history, job, usage


def usage_before(conn, cluster_id: int, moment: int) -> bool:
    """Whether the cluster has usage charged before ``moment``: a charge, or a job that
    started running (:data:`fscli.engine.cluster_state.CHARGED`). ``conn``: a SQLAlchemy
    connection or session (the writers' ones)."""
    from fscli.engine.cluster_state import CHARGED

    on_cluster = select(association.c.id).where(association.c.cluster_id == cluster_id)
    charged = exists().where(usage.c.at < moment, usage.c.assoc_id.in_(on_cluster))
    started = exists().where(
        job.c.cluster_id == cluster_id,
        job.c.state.in_(CHARGED),
        job.c.start.is_not(None),
        job.c.start < moment,
    )
    return bool(conn.execute(select(charged)).scalar() or conn.execute(select(started)).scalar())


def keep_replaced(conn, cluster_id: int, moment: int, replaced: Mapping[str, str | None]) -> None:
    """Keep the values of ``replaced`` (key -> the value in force until ``moment``, None for
    the default) that usage charged before ``moment`` depends on, as replaced at ``moment``.

    A second change at the same moment keeps nothing more (the value in force before it is
    kept already). A change placed before a later one of the same key is refused: the
    history only goes forward.
    """
    kept = {key: value for key, value in replaced.items() if key in HISTORY_KEYS}
    if not kept or not usage_before(conn, cluster_id, moment):
        return
    h = config_history.c
    latest = dict(
        conn.execute(
            select(h.key, func.max(h.replaced_at))
            .where(h.cluster_id == cluster_id, h.key.in_(sorted(kept)))
            .group_by(h.key)
        ).all()
    )
    for key in sorted(kept):
        last = latest.get(key)
        if last is not None and int(last) > moment:
            raise Conflict(
                f"{key} was changed at {utc_iso(int(last))}, after {utc_iso(moment)}: "
                "a change of a setting usage depends on cannot be placed before a later one"
            )
        if last is not None and int(last) == moment:
            continue
        value = kept[key]
        conn.execute(
            insert(config_history).values(
                cluster_id=cluster_id,
                key=key,
                replaced_at=moment,
                value=KEYS[key][0] if value is None else value,
            )
        )


def keep_job_billing(conn, cluster_id: int, partitions: Iterable[str], moment: int) -> None:
    """Before the billing weights of ``partitions`` change (or go) at ``moment``: their jobs
    that started before it keep the billing they were charged at, on the job row."""
    from fscli.engine.cluster_state import CHARGED, billing_at_start
    from fscli.store import snapshot

    names = set(partitions)
    if not names:
        return
    jobs = [
        found
        for found in snapshot.load_jobs(conn, cluster_id, CHARGED)
        if found.billing is None
        and found.start is not None
        and found.start < moment
        and found.partitions
        and found.partitions[0] in names
    ]
    if not jobs:
        return
    parts = snapshot.load_partitions(conn, cluster_id)
    config = snapshot.load_priority_config(conn, cluster_id)
    conn.execute(
        update(job).where(job.c.id == bindparam("b_id")).values(billing=bindparam("b_billing")),
        [{"b_id": j.id, "b_billing": billing_at_start(j, parts, config)} for j in jobs],
    )
