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

from fscli.engine.config import HISTORY_KEYS, KEYS
from fscli.engine.timestr import utc_iso
from fscli.errors import Conflict
from fscli.store.sql import execute, in_list, rows, scalar


def usage_before(conn, cluster_id: int, moment: int) -> bool:
    """Whether the cluster has usage charged before ``moment``: a charge, or a job that
    started running (:data:`fscli.engine.cluster_state.CHARGED`)."""
    from fscli.engine.cluster_state import CHARGED

    if scalar(
        conn,
        'SELECT 1 FROM "usage" WHERE at < :moment AND assoc_id IN '
        "(SELECT id FROM association WHERE cluster_id = :cid) LIMIT 1",
        {"cid": cluster_id, "moment": moment},
    ):
        return True
    states, params = in_list("state", "state", CHARGED)
    return bool(
        scalar(
            conn,
            f"SELECT 1 FROM job WHERE cluster_id = :cid AND {states} "
            "AND start IS NOT NULL AND start < :moment LIMIT 1",
            {"cid": cluster_id, "moment": moment, **params},
        )
    )


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
    keys, params = in_list('"key"', "key", sorted(kept))
    latest = dict(
        rows(
            conn,
            'SELECT "key", max(replaced_at) FROM cluster_config_history '
            f'WHERE cluster_id = :cid AND {keys} GROUP BY "key"',
            {"cid": cluster_id, **params},
        )
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
        execute(
            conn,
            'INSERT INTO cluster_config_history (cluster_id, "key", replaced_at, value) '
            "VALUES (:cid, :key, :at, :value)",
            {
                "cid": cluster_id,
                "key": key,
                "at": moment,
                "value": KEYS[key][0] if value is None else value,
            },
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
        job
        for job in snapshot.load_jobs(conn, cluster_id, CHARGED)
        if job.billing is None
        and job.start is not None
        and job.start < moment
        and job.partitions
        and job.partitions[0] in names
    ]
    if not jobs:
        return
    parts = snapshot.load_partitions(conn, cluster_id)
    config = snapshot.load_priority_config(conn, cluster_id)
    for job in jobs:
        execute(
            conn,
            "UPDATE job SET billing = :billing WHERE id = :id",
            {"billing": billing_at_start(job, parts, config), "id": job.id},
        )
