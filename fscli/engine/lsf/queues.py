"""``bqueues``' one-line summary of each queue: its jobs by state."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

from fscli.engine.lsf.shares import LsfQueue
from fscli.engine.model import Job


@dataclass(frozen=True, slots=True)
class QueueSummary:
    """One ``bqueues`` line: job counts are slots, as LSF counts them; ``rsv`` are the slots
    held for pending jobs with a planned start."""

    name: str
    priority: int
    status: str
    njobs: int
    pend: int
    run: int
    susp: int
    rsv: int

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def queue_summary(queues: Iterable[LsfQueue], jobs: Iterable[Job]) -> list[QueueSummary]:
    """Slots pending and running per queue, queues by priority descending (scan order).

    fscli does not model closed/inactive queues or suspended jobs: STATUS is Open:Active
    and SUSP 0.
    """
    pend: dict[str, int] = {}
    run: dict[str, int] = {}
    rsv: dict[str, int] = {}
    for job in jobs:
        if job.queue is None:
            continue
        if job.state == "pending":
            pend[job.queue] = pend.get(job.queue, 0) + job.slots
            if job.start is not None:
                rsv[job.queue] = rsv.get(job.queue, 0) + job.slots
        elif job.state == "running":
            run[job.queue] = run.get(job.queue, 0) + job.slots
    rows = [
        QueueSummary(
            q.name,
            q.priority,
            "Open:Active",
            pend.get(q.name, 0) + run.get(q.name, 0),
            pend.get(q.name, 0),
            run.get(q.name, 0),
            0,
            rsv.get(q.name, 0),
        )
        for q in queues
    ]
    return sorted(rows, key=lambda r: -r.priority)


# --------------------------------------------------------------------------- dispatch
