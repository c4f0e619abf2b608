"""What a user has used in a queue (CPU time, run time, committed run time, slots), with
LSF's decay, and the dynamic priority it gives."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from fscli.engine.lsf.params import LsfParams
from fscli.engine.model import Job


def decayed(seconds: float, elapsed: float, hist_hours: float) -> float:
    """``seconds`` used ``elapsed`` seconds ago, weighed by ``0.1 ** (hours / HIST_HOURS)``."""
    if hist_hours <= 0:
        return seconds
    return seconds * 0.1 ** (max(elapsed, 0.0) / (hist_hours * 3600.0))


def _decayed_span(length: float, hist_hours: float) -> float:
    """Run time accrued evenly over the last ``length`` seconds, each second decayed since
    it was used: the integral of ``0.1 ** (age / HIST_HOURS)`` over the span."""
    if hist_hours <= 0 or length <= 0:
        return max(length, 0.0)
    scale = hist_hours * 3600.0
    return scale / math.log(10) * (1.0 - 0.1 ** (length / scale))


@dataclass(slots=True)
class Usage:
    """What a user (or a group, summed) has consumed in one queue; times in seconds."""

    cpu_time: float = 0.0
    run_time: float = 0.0
    hist_run_time: float = 0.0
    committed_run_time: float = 0.0
    started: int = 0
    reserved: int = 0

    @property
    def job_slots(self) -> int:
        return self.started + self.reserved

    def add(self, other: Usage) -> None:
        self.cpu_time += other.cpu_time
        self.run_time += other.run_time
        self.hist_run_time += other.hist_run_time
        self.committed_run_time += other.committed_run_time
        self.started += other.started
        self.reserved += other.reserved


def job_usage(job: Job, now: int, params: LsfParams) -> Usage:
    """One job's contribution at ``now`` (see the module docstring for the rules)."""
    if job.state == "pending":
        return Usage(reserved=job.slots if job.start is not None else 0)
    cpu = float(job.cputime or 0.0)
    if job.state == "running":
        ran = max(now - job.start, 0) if job.start is not None else 0
        run = _decayed_span(ran, params.hist_hours) if params.run_time_decay else float(ran)
        committed = job.time_limit * 60.0 if job.time_limit is not None else run
        return Usage(cpu_time=cpu, run_time=run, committed_run_time=committed, started=job.slots)
    if job.end is None:
        return Usage()
    age = now - job.end
    hist = 0.0
    if params.enable_hist_run_time and job.start is not None:
        hist = decayed(max(job.end - job.start, 0), age, params.hist_hours)
    return Usage(cpu_time=decayed(cpu, age, params.hist_hours), hist_run_time=hist)


def usage_by_user(jobs: Iterable[Job], queue: str, now: int, params: LsfParams) -> dict[str, Usage]:
    """Usage per user from the jobs of one queue."""
    usage: dict[str, Usage] = {}
    for job in jobs:
        if job.queue == queue:
            usage.setdefault(job.user, Usage()).add(job_usage(job, now, params))
    return usage


def priority_terms(usage: Usage, params: LsfParams, adjustment: float = 0.0) -> dict[str, float]:
    """The five terms of the denominator, in formula order."""
    hours = 1 / 3600.0
    return {
        "cpu_time": usage.cpu_time * hours * params.cpu_time_factor,
        "run_time": (usage.hist_run_time + usage.run_time) * hours * params.run_time_factor,
        "committed_run_time": (usage.committed_run_time - usage.run_time)
        * hours
        * params.committed_run_time_factor,
        "job_slots": (1 + usage.job_slots) * params.run_job_factor,
        "adjustment": adjustment * params.fairshare_adjustment_factor,
    }


def dynamic_priority(
    shares: int, usage: Usage, params: LsfParams, adjustment: float = 0.0
) -> float:
    """LSF's dynamic priority. A denominator that is not positive (static fairshare: all
    factors 0) leaves the shares alone as the priority."""
    denominator = sum(priority_terms(usage, params, adjustment).values())
    return shares / denominator if denominator > 0 else float(shares)
