"""The engine's entry points taking what a test writes: associations, jobs and charges
as objects.

The engine takes one form of each input, the one the store reads (columns:
:class:`~fscli.engine.model.AssocColumns`, :class:`~fscli.engine.priority.QueueColumns`,
:class:`~fscli.engine.usage.Charges`); objects come in through the same adapters the API
uses for what it builds as objects (``AssocColumns.of``, ``QueueColumns.of_jobs``,
``Charges.of``). Associations may come by id, as ``sprio``'s fixtures hold them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from fscli.engine import fairshare, priority, usage
from fscli.engine.config import PriorityConfig
from fscli.engine.model import Assoc, AssocColumns, Charge, Job
from fscli.engine.usage import Charges, Run


def assoc_columns(assocs: Iterable[Assoc] | Mapping[int, Assoc]) -> AssocColumns:
    """``assocs`` (in a sequence or by id) in the engine's form."""
    return AssocColumns.of(assocs.values() if isinstance(assocs, Mapping) else assocs)


def compute(assocs: Iterable[Assoc], usage, *args, **kwargs) -> fairshare.FairShareResult:
    """:func:`fscli.engine.fairshare.compute` of associations given as objects."""
    return fairshare.compute(assoc_columns(assocs), usage, *args, **kwargs)


def compute_priorities(
    jobs: Iterable[Job] | priority.QueueColumns,
    assocs: Iterable[Assoc] | Mapping[int, Assoc],
    *args,
) -> priority.PriorityResult:
    """:func:`fscli.engine.priority.compute_priorities` of jobs (or a queue) and
    associations given as objects."""
    if not isinstance(jobs, priority.QueueColumns):
        jobs = priority.QueueColumns.of_jobs(list(jobs))
    return priority.compute_priorities(jobs, assoc_columns(assocs), *args)


def raw_usage(charges: Iterable[Charge] | Charges, *args, **kwargs) -> dict[int, float]:
    """:func:`fscli.engine.usage.raw_usage` of charges given one by one."""
    table = charges if isinstance(charges, Charges) else Charges.of(charges)
    return usage.raw_usage(table, *args, **kwargs)


def run_usage(run: Run, at: int, cfg: PriorityConfig, reset_at: int | None = None) -> float:
    """One job's RawUsage at ``at``, as the engine counts it (in closed form)."""
    return usage.raw_usage(Charges(), at, cfg, [run], reset_at).get(run.assoc_id, 0.0)
