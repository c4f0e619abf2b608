"""Import jobs from squeue output.

The one accepted format is what this command prints, one job per line::

    squeue -h -o '%i|%u|%a|%P|%q|%T|%V|%S|%l|%D|%C|%m|%b|%y'

=====  ====  ==========================================================================
field  code  meaning
=====  ====  ==========================================================================
1      %i    job id, a whole number (array tasks ``12_3`` and het jobs ``12+0`` are refused)
2      %u    user name
3      %a    account
4      %P    partition, or several separated by ``,`` (one sprio row each)
5      %q    QOS
6      %T    state: PENDING, RUNNING, ... (or the short codes PD, R, ...)
7      %V    submit time, ISO 8601 (``2026-11-21T15:38:05``), local time unless ``tz``
8      %S    start time; used for running jobs only (``N/A``, ``Unknown``, ``None`` = unset)
9      %l    time limit: a Slurm time string, ``UNLIMITED``, ``INFINITE`` or ``NOT_SET``
10     %D    nodes (the minimum for pending jobs)
11     %C    CPUs
12     %m    memory per node: ``4G``, ``2000M``, ``2000`` (MB); ``0`` = none requested
13     %b    TRES per node: ``gres/gpu:2``, ``gres:gpu:a100:2``, several with ``,``; ``N/A``
14     %y    nice
=====  ====  ==========================================================================

A header line (starting with ``JOBID``) and blank lines are skipped. States map onto
fscli's: pending; running (also configuring, completing, suspended); completed (every
other finished state); cancelled. Memory and GRES are per node in squeue and become job
totals (× nodes) in ``Job.tres``. The jobs come back without an association id: the
caller finds it from (user, account, partition).
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from functools import lru_cache

from fscli.engine.model import Job
from fscli.engine.timestr import MAX_EPOCH, MIN_EPOCH, parse_duration_mins
from fscli.engine.tres import parse_value
from fscli.errors import FscliError, InvalidValue

SQUEUE_FORMAT = "%i|%u|%a|%P|%q|%T|%V|%S|%l|%D|%C|%m|%b|%y"
FIELD_COUNT = SQUEUE_FORMAT.count("%")
MAX_REPORTED = 5

_STATES = {
    "pending": ("PENDING", "PD"),
    "running": ("RUNNING", "R", "CONFIGURING", "CF", "COMPLETING", "CG", "SUSPENDED", "S",
                "RESIZING", "RS", "SIGNALING", "SI", "STAGE_OUT", "SO", "REQUEUED", "RQ"),
    "completed": ("COMPLETED", "CD", "FAILED", "F", "TIMEOUT", "TO", "NODE_FAIL", "NF",
                  "PREEMPTED", "PR", "BOOT_FAIL", "BF", "DEADLINE", "DL", "OUT_OF_MEMORY",
                  "OOM", "SPECIAL_EXIT", "SE", "REVOKED", "RV"),
    "cancelled": ("CANCELLED", "CA"),
}
_STATE_OF = {word: state for state, words in _STATES.items() for word in words}
_UNSET = {"", "N/A", "UNKNOWN", "NONE", "(NULL)"}
_WHOLE = re.compile(r"\d{1,10}")
_SIGNED = re.compile(r"[+-]?\d{1,10}")
_GRES = re.compile(
    r"(?:gres[/:])?([a-z][\w.-]*)(?::([a-z][\w.-]*))?(?:[:=](\d{1,10}))?", re.IGNORECASE
)


def parse_squeue(text: str, tz: tzinfo | None = None) -> list[Job]:
    """Jobs in ``text``; every bad line is named in one :class:`InvalidValue`.

    ``tz`` is the timezone of the times (default: this machine's local time, as squeue
    prints them).
    """
    jobs: list[Job] = []
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().upper().startswith("JOBID"):
            continue
        try:
            jobs.append(_job(line, tz))
        except FscliError as err:
            problems.append(f"line {number}: {err.message}")
    if problems:
        more = len(problems) - MAX_REPORTED
        shown = "; ".join(problems[:MAX_REPORTED]) + (f"; and {more} more" if more > 0 else "")
        raise InvalidValue(
            f"not squeue -o '{SQUEUE_FORMAT}' output ({len(problems)} bad lines): {shown}"
        )
    return jobs


def _job(line: str, tz: tzinfo | None) -> Job:
    fields = [f.strip() for f in line.split("|")]
    if len(fields) != FIELD_COUNT:
        raise InvalidValue(f"expected {FIELD_COUNT} '|'-separated fields, got {len(fields)}")
    (job_id, user, account, parts, qos, state, submit, start, limit, nodes, cpus, mem,
     gres, nice) = fields
    if not _WHOLE.fullmatch(job_id):
        raise InvalidValue(f"job id '{job_id}' is not a whole number "
                           "(array and heterogeneous jobs are not supported)")
    _whole(job_id, "job id", minimum=1)  # Slurm's ids start at 1, as job submit's id=
    if not user:
        raise InvalidValue("empty user")
    state_name = _STATE_OF.get(state.upper())
    if state_name is None:
        raise InvalidValue(f"unknown job state '{state}'")
    node_count = _whole(nodes, "node count", minimum=1)
    started = _moment(start, tz, "start time") if state_name != "pending" else None
    return Job(
        id=int(job_id), user=user, account=account or None,
        partitions=tuple(p for p in parts.split(",") if p), qos=qos or None,
        state=state_name, submit=_required_moment(submit, tz), start=started,
        time_limit=_limit(limit), nodes=node_count, cpus=_whole(cpus, "CPU count", minimum=1),
        tres=_tres(mem, gres, node_count), nice=_signed(nice, "nice"),
    )


def _whole(text: str, what: str, minimum: int = 0) -> int:
    if not _WHOLE.fullmatch(text) or int(text) < minimum:
        raise InvalidValue(f"invalid {what} '{text}': expected a whole number >= {minimum}")
    return int(text)


def _signed(text: str, what: str) -> int:
    if not _SIGNED.fullmatch(text):
        raise InvalidValue(f"invalid {what} '{text}': expected a whole number")
    return int(text)


def _moment(text: str, tz: tzinfo | None, what: str) -> int | None:
    if text.upper() in _UNSET:
        return None
    try:
        moment = datetime.fromisoformat(text)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=tz) if tz else moment.astimezone()
        epoch = int(moment.timestamp())
    except (ValueError, OverflowError):  # malformed, or beyond what local time can express
        raise InvalidValue(f"invalid {what} '{text}': expected 2026-11-21T15:38:05") from None
    if not MIN_EPOCH <= epoch <= MAX_EPOCH:
        raise InvalidValue(f"invalid {what} '{text}': out of range (1900 to 9999)")
    return epoch


def _required_moment(text: str, tz: tzinfo | None) -> int:
    value = _moment(text, tz, "submit time")
    if value is None:
        raise InvalidValue(f"missing submit time '{text}'")
    return value


@lru_cache(maxsize=1024)
def _limit(text: str) -> int | None:
    """Minutes; parsed once per distinct text (a dump of 100,000 jobs repeats a few)."""
    if text.upper() == "NOT_SET":
        return None
    return parse_duration_mins(text, what="time limit")


def _tres(mem: str, gres: str, nodes: int) -> dict[str, int]:
    """Job totals from squeue's per-node memory and GRES."""
    return {name: amount * nodes for name, amount in _per_node(mem, gres)}


@lru_cache(maxsize=1024)
def _per_node(mem: str, gres: str) -> tuple[tuple[str, int], ...]:
    """The (TRES, amount) pairs of one node; parsed once per distinct text (a dump of
    100,000 jobs repeats a few)."""
    tres: dict[str, int] = {}
    mem_mb = parse_value("mem", mem) if mem.upper() not in _UNSET else 0
    if mem_mb < 0:
        raise InvalidValue(f"invalid memory '{mem}'")
    if mem_mb:
        tres["mem"] = mem_mb
    if gres.upper() in _UNSET:
        return tuple(tres.items())
    for item in gres.split(","):
        match = _GRES.fullmatch(item.strip())
        if not match:
            raise InvalidValue(f"invalid TRES per node '{item}': expected like gres/gpu:2")
        name, kind, count = match.groups()
        tres[f"gres/{name}"] = tres.get(f"gres/{name}", 0) + int(count or 1)
        if kind:
            tres[f"gres/{name}:{kind}"] = tres.get(f"gres/{name}:{kind}", 0) + int(count or 1)
    return tuple(tres.items())
