"""Jobs in the store: submit (validated like slurmctld's ``_job_create``), cancel, modify;
the checks and rows they share with ``job import`` are :mod:`fscli.store.job_rows`'.

Every write is logged (``fscli history``); the caller's transaction makes a command all or
nothing.
"""

from __future__ import annotations

from sqlalchemy import func, select

from fscli.engine.job_states import ACTIVE_STATES, MAX_JOB_ID
from fscli.engine.submit import JobInput
from fscli.engine.tres import format_tres
from fscli.errors import Conflict, InvalidValue, NotFound, UsageProblem
from fscli.store import models as m
from fscli.store.admin import Admin
from fscli.store.job_rows import ROW_COLUMNS, JobRows
from fscli.store.sql import chunked

MAX_COUNT = 100_000  # jobs one submit makes: each is a row and a history line in one transaction


class Jobs(JobRows):
    """Job writes inside one transaction, for one cluster."""

    def __init__(self, admin: Admin, cluster: m.Cluster | None):
        super().__init__(admin.s, cluster, admin.now, admin.actor)
        self.admin = admin
        self._next_id: int | None = None

    # -- submit --------------------------------------------------------------------
    def submit(self, job: JobInput, count: int = 1) -> tuple[list[int], list[str]]:
        """Validate and store ``count`` copies of ``job``; (new ids, summary lines).

        A Slurm job is also checked as slurmctld checks a submission (the limits checker
        of ``limits check``): one it would refuse is not stored. Its default memory
        (DefMemPerCPU, ...) is filled in, so memory limits count it."""
        [row] = self._rows([job])
        if not job.queue:
            row = self._as_submitted(job, row, count)
        ids = self._ids(job.job_id, count)
        details = self._write([(*row, job_id) for job_id in ids])
        return ids, [f"submitted job {i}: {detail}" for i, detail in zip(ids, details)]

    def _as_submitted(self, job: JobInput, values: tuple, count: int) -> tuple:
        """The row ``values`` with the job's CPUs and TRES as slurmctld fills them in, or
        :class:`InvalidValue` with sbatch's error when it would refuse a pending or
        running job (a completed one is history: it is stored as given). The last of
        ``count`` submissions is checked: the ``count - 1`` before it count as submitted."""
        from fscli.engine.limits.check import JobRequest, check, describe
        from fscli.engine.limits.counting import JobGroup
        from fscli.engine.submit import fill_memory
        from fscli.engine.tres import request_tres
        from fscli.store.limits import state as limit_state

        row = dict(zip(ROW_COLUMNS, values))
        conn = self.s.connection()
        state = limit_state.load(conn, self.cluster.name, row["user"], row["account"])
        cpus, tres = fill_memory(job.cpus, job.nodes, job.tres, state.memory)
        if job.state in ("pending", "running"):
            partition = row["partition"].split(",")[0] if row["partition"] else None
            req = JobRequest(
                row["user"],
                row["account"],
                partition,
                row["qos"],
                request_tres(job.cpus, job.nodes, job.tres),
                job.time_limit,
            )
            stored = limit_state.attach_jobs(conn, self.cluster.name, state, self.admin.now)
            if count > 1:
                before = JobGroup(
                    row["assoc_id"],
                    False,
                    count - 1,
                    {},
                    qos=row["qos"],
                    partition=partition,
                    user=row["user"],
                    account=row["account"],
                )
                state.count_jobs = lambda scope: [*stored(scope), before]
            result = check(req, state, self.admin.now)
            if result.verdict == "reject":
                why = describe(result).removeprefix("reject: ")
                raise InvalidValue(f"{result.error}: {why}" if result.reason else why)
        row.update(cpus=cpus, tres=format_tres(tres, units=False) if tres else None)
        return tuple(row.values())

    def _ids(self, wanted: int | None, count: int) -> list[int]:
        if count < 1:
            raise InvalidValue(f"invalid count '{count}': expected a whole number >= 1")
        if count > MAX_COUNT:
            raise InvalidValue(f"invalid count '{count}': at most {MAX_COUNT:,} jobs per submit")
        given = wanted is not None
        if wanted is None:
            if self._next_id is None:
                self._next_id = (self.s.scalar(select(func.max(m.Job.id))) or 0) + 1
            wanted = self._next_id
        if wanted + count - 1 > MAX_JOB_ID:
            if given:
                raise InvalidValue(
                    f"invalid id '{wanted}': {count} job(s) from it go past {MAX_JOB_ID}"
                )
            raise Conflict(
                f"no new job id left after job {wanted - 1} (job ids go up to "
                f"{MAX_JOB_ID}): choose free ones with id="
            )
        ids = list(range(wanted, wanted + count))
        taken = self.s.scalar(
            select(m.Job.id).where(m.Job.id.between(ids[0], ids[-1])).order_by(m.Job.id).limit(1)
        )
        if taken is not None:
            raise Conflict(f"job {taken} already exists (cancel it or choose another id=)")
        self._next_id = ids[-1] + 1
        return ids

    # -- cancel --------------------------------------------------------------------
    def cancel(self, ids: list[int]) -> list[str]:
        """scancel: pending and running jobs become cancelled (end = now), each once."""
        ids = list(dict.fromkeys(ids))
        rows = self._active_jobs(
            ids,
            lambda i: f"Kill job error on job id {i}: Invalid job id specified",
            lambda j: f"Kill job error on job id {j.id}: Job/step already completing or completed",
        )
        lines = []
        for job_id in ids:
            row = rows[job_id]
            was = row.state
            row.state, row.end = "cancelled", max(self.admin.now, row.start or row.submit)
            self.admin.log("cancel job", str(job_id), f"was {was}")
            lines.append(f"cancelled job {job_id} (was {was})")
        return lines

    def _active_jobs(self, ids: list[int], missing, finished) -> dict[int, m.Job]:
        """The jobs by id, each of which must exist and be pending or running (checked in
        the order given, so the first bad id is the one named). Read in IN lists of
        :data:`~fscli.store.admin.IN_LIST`: a mass cancel may name more ids than a server
        binds (PostgreSQL: 65,535)."""
        rows = {
            j.id: j
            for part in chunked(ids)
            for j in self.s.scalars(select(m.Job).where(m.Job.id.in_(part)))
        }
        for job_id in ids:
            row = rows.get(job_id)
            if row is None:
                raise NotFound(missing(job_id))
            if row.state not in ACTIVE_STATES:
                raise Conflict(finished(row))
        return rows

    # -- modify --------------------------------------------------------------------
    def modify(self, ids: list[int], changes: dict[str, int | None]) -> list[str]:
        """scontrol update job: ``changes`` maps ``admin_priority``, ``nice`` or
        ``site_factor`` to the new value (``admin_priority`` None releases the job to the
        priority plugin again). Only pending and running jobs change, each once."""
        ids = list(dict.fromkeys(ids))
        rows = self._active_jobs(
            ids,
            lambda i: f"job {i} does not exist",
            lambda j: f"job {j.id} is {j.state}: only pending or running jobs can be modified",
        )
        lsf = next((i for i in ids if rows[i].queue is not None), None)
        if lsf is not None:
            raise UsageProblem(f"job {lsf} is an LSF job: it has no Slurm priority")
        lines = []
        for job_id in ids:
            row = rows[job_id]
            changed = [
                _shown(key, value) for key, value in changes.items() if getattr(row, key) != value
            ]
            for key, value in changes.items():
                setattr(row, key, value)
            if not changed:
                lines.append(f"job {job_id}: nothing to change")
                continue
            detail = " ".join(changed)
            self.admin.log("modify job", str(job_id), detail)
            lines.append(f"modified job {job_id}: {detail}")
        return lines


def _shown(key: str, value: int | None) -> str:
    """A job change as the user wrote it: ``priority=999``, ``priority=released``."""
    if key == "admin_priority":
        return "priority=" + {None: "released", 0: "0 (held)"}.get(value, str(value))
    return f"{key.replace('_', '')}={value}"
