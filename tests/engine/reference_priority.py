"""sprio's scoring as it was before its fast forms, kept as the reference that the
column-wise code (``fscli.engine.priority``) is checked against
(``tests/engine/test_priority_columns.py``): the job-by-job loop, the choice of the listed
jobs, and association priorities by Slurm's rule, recursively."""

from __future__ import annotations

from operator import attrgetter

from fscli.engine import priority
from fscli.engine.config import PriorityConfig
from fscli.engine.model import Assoc, Job
from fscli.engine.priority import (
    FACTORS,
    PRIORITY_MAX,
    PriorityColumns,
    PriorityRow,
    _assoc_index,
    _Context,
    listed_states,
)
from fscli.errors import NotFound


# The choice of the listed jobs before the queue's columns (commit 42ecab9), verbatim.
def old_listed(jobs: list[Job], config: PriorityConfig, now: int) -> list[Job]:
    states = listed_states(config)
    always = "ACCRUE_ALWAYS" in config.flags
    return [
        j
        for j in sorted(jobs, key=attrgetter("id"))
        if j.state in states
        and j.admin_priority != 0
        and (j.submit if always or j.eligible is None else j.eligible) <= now
    ]


def old_score_columns(queue, ctx, warnings) -> PriorityColumns:
    """``priority._score`` as it was: the listed jobs of ``queue``, one by one."""
    jobs = old_listed([queue[i] for i in range(len(queue))], ctx.config, ctx.now)
    return PriorityColumns.of_rows(old_score(jobs, ctx, warnings))


# The job-by-job scoring sprio used before the columns (commit 8c64f3d), verbatim but for
# the associations, which it had by id and now has as the engine's columns (``by_id``),
# and each job's shape, which it computed as the engine does (``_old_shape``).
def _old_shape(job: Job, ctx: _Context) -> tuple[float, tuple[tuple, ...]]:
    """(job-size factor, per partition: name, factor, weighted factor, TRES factors,
    weighted TRES), from the engine's shape of today (the old one computed the same)."""
    shape = priority._shape(job, ctx)
    return shape[0][1], tuple((row[0], *row[3:]) for row in shape)


def old_score(jobs: list[Job], ctx: _Context, warnings: list[str]) -> list[PriorityRow]:
    w = ctx.weights
    w_age, w_assoc, w_fs, w_size, w_qos = (
        w["age"],
        w["assoc"],
        w["fairshare"],
        w["jobsize"],
        w["qos"],
    )
    assocs, assoc_factor, fs_factors = ctx.assocs, ctx.assoc_factor, ctx.fs_factors
    by_id = dict(zip(assocs.field("id"), assocs))
    qos_factor, tres_names = ctx.qos_factor, ctx.tres_names
    now, max_age, cluster = ctx.now, ctx.config.max_age, ctx.cluster
    always = "ACCRUE_ALWAYS" in ctx.config.flags
    index: dict[tuple, int] | None = None
    shapes: dict[tuple, tuple[float, tuple[tuple, ...]]] = {}
    zeros = (0.0,) * len(FACTORS)
    rows: list[PriorityRow] = []
    append = rows.append
    for job in jobs:
        key = (
            job.partitions,
            job.nodes,
            job.cpus,
            job.time_limit,
            tuple(job.tres.items()) if job.tres else (),
        )
        shape = shapes.get(key)
        if shape is None:
            shape = shapes[key] = _old_shape(job, ctx)
        size, per_part = shape
        qos = job.qos or ""
        if qos and qos not in qos_factor:
            raise NotFound(f"job {job.id}: QOS '{qos}' does not exist")
        assoc_id = job.assoc_id
        if assoc_id is None or assoc_id not in by_id:
            if index is None:
                index = _assoc_index(assocs)
            user_account = (job.user, job.account)
            assoc_id = index.get(
                (*user_account, job.partitions[0]), index.get((*user_account, None))
            )
        account = job.account or (by_id[assoc_id].account if assoc_id is not None else "")
        if job.admin_priority:
            prio = job.admin_priority
            for part in per_part:
                append(
                    PriorityRow(
                        job.id,
                        part[0],
                        job.user,
                        account,
                        qos,
                        cluster,
                        assoc_id,
                        zeros,
                        zeros,
                        (),
                        (),
                        (),
                        0,
                        0,
                        float(prio),
                        prio,
                        True,
                        job,
                        ctx,
                    )
                )
            continue
        if w_age:
            waited = now - (job.submit if always or job.eligible is None else job.eligible)
            age = waited / max_age if waited < max_age else 1.0
        else:
            age = 0.0
        assoc_f = assoc_factor.get(assoc_id, 0.0)
        fs = float(fs_factors.get(assoc_id, 0.0)) if w_fs and assoc_id is not None else 0.0
        qos_f = qos_factor[qos] if qos else 0.0
        wa, wb, wf, wj, wq = age * w_age, assoc_f * w_assoc, fs * w_fs, size * w_size, qos_f * w_qos
        site, nice = job.site_factor, job.nice
        for name, part_f, wp, tres_f, tres_w in per_part:
            # sprio's order of additions, so that truncation agrees to the last bit
            exact = wa + wb + wf + wj + wp + wq + site - nice
            for value in tres_w:
                exact += value
            exact = max(exact, 1.0)
            priority = int(exact)
            if priority > PRIORITY_MAX:
                warnings.append(
                    f"job {job.id} priority '{priority}' exceeds 32 bits. "
                    "Reducing it to 4294967295 (2^32 - 1)"
                )
                priority = PRIORITY_MAX
            append(
                PriorityRow(
                    job.id,
                    name,
                    job.user,
                    account,
                    qos,
                    cluster,
                    assoc_id,
                    (age, assoc_f, fs, size, part_f, qos_f),
                    (wa, wb, wf, wj, wp, wq),
                    tres_names,
                    tres_f,
                    tres_w,
                    site,
                    nice,
                    exact,
                    priority,
                    False,
                    job,
                    ctx,
                )
            )
    return rows


# Slurm's association priority rule, recursively: its own, else its parent's; 0 above the
# root or past a parent that is not there. And the factors before their fast path, verbatim.
def inherited_priority(assocs: dict[int, Assoc], assoc_id: int | None) -> int:
    assoc = assocs.get(assoc_id) if assoc_id is not None else None
    if assoc is None:
        return 0
    if assoc.priority is not None:
        return assoc.priority
    return inherited_priority(assocs, assoc.parent_id)


def old_assoc_factor(priorities: dict[int, int], raw: bool) -> dict[int, float]:
    top = max(priorities.values(), default=0)
    return {i: priority._ratio(value, top, raw) for i, value in priorities.items()}
