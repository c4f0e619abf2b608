"""Import jobs from squeue output.

The accepted format is what this command prints, one job per line (``--Format``
fields of width 0, each but the last followed by ``|``)::

    squeue -h -O 'JobID:0|,UserName:0|,Account:0|,Partition:0|,QOS:0|,State:0|,
                  SubmitTime:0|,StartTime:0|,TimeLimit:0|,NumNodes:0|,NumCPUs:0|,
                  MinMemory:0|,tres-per-node:0|,Nice:0|,tres-alloc:0'

(one argument, without the line breaks).

=====  ==============  ====================================================================
field  name            meaning
=====  ==============  ====================================================================
1      JobID           job id, a whole number (array tasks ``12_3``, het jobs ``12+0`` refused)
2      UserName        user name
3      Account         account
4      Partition       partition, or several separated by ``,`` (one sprio row each)
5      QOS             QOS
6      State           state: PENDING, RUNNING, ... (or the short codes PD, R, ...)
7      SubmitTime      submit time, ISO 8601 (``2026-11-21T15:38:05``), local unless ``tz``
8      StartTime       start time; running jobs only (``N/A``, ``Unknown``, ``None`` = unset)
9      TimeLimit       a Slurm time string, ``UNLIMITED``/``INFINITE`` (a job asking for
                       INFINITE) or ``NOT_SET`` (none)
10     NumNodes        nodes: for a pending job squeue's *guess* (``_get_node_cnt``)
11     NumCPUs         CPUs
12     MinMemory       ``4G``, ``2000M``, ``2000`` (MB); ``0`` = none: per node for a ``--mem``
                       job, per CPU for a ``--mem-per-cpu`` one (squeue prints both alike)
13     tres-per-node   ``gres/gpu:2``, ``gres:gpu:a100:2``, several with ``,``; ``N/A``
14     Nice            nice
15     tres-alloc      the job's TRES (``tres_alloc_str``, or ``tres_req_str`` while
                       pending): its ``node=`` is the job's minimum node count, its
                       ``mem=`` the job's memory
=====  ==============  ====================================================================

The node count is taken from field 15's ``node=``: for a pending ``-n1 -cN`` job squeue's
NumNodes (like ``%D`` and scontrol's NumNodes) prints 2, a guess from the CPUs, while
slurmctld's job-size priority factor uses the minimum node count its TRES hold (1).
Lines of the 14 first fields only (the former ``squeue -o
'%i|%u|%a|%P|%q|%T|%V|%S|%l|%D|%C|%m|%b|%y'``) are still read, with NumNodes as the
node count. A header line (starting with ``JOBID``) and blank lines are skipped. States
map onto fscli's: pending; running (also configuring, completing, suspended); completed
(every other finished state); cancelled.

The job's memory is field 15's ``mem=``, the total slurmctld counts against limits:
MinMemory cannot say whether it is per node or per CPU (``scontrol show job`` tells
``MinMemoryNode=`` from ``MinMemoryCPU=``; squeue prints ``1000M`` for ``--mem=1000`` and
``--mem-per-cpu=1000`` alike, tests/data/squeue-22.05), and a job that asks for none holds
its nodes' memory there. Only without field 15's ``mem=`` (the former format) is MinMemory
taken as per node. GRES are per node in squeue. Both become job totals (× nodes) in
``JobInput.tres``. The jobs come back as the input of
``job import`` (:class:`~fscli.engine.submit.JobInput`, no per-job conversion): the
store finds each one's association from (user, account, partition).
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from functools import lru_cache

from fscli.engine.submit import JobInput
from fscli.engine.timestr import MAX_EPOCH, MIN_EPOCH, parse_time_limit
from fscli.engine.tres import parse_value
from fscli.errors import FscliError, InvalidValue

SQUEUE_FIELDS = (
    "JobID",
    "UserName",
    "Account",
    "Partition",
    "QOS",
    "State",
    "SubmitTime",
    "StartTime",
    "TimeLimit",
    "NumNodes",
    "NumCPUs",
    "MinMemory",
    "tres-per-node",
    "Nice",
    "tres-alloc",
)
SQUEUE_FORMAT = "|,".join(f"{name}:0" for name in SQUEUE_FIELDS)
"""squeue's ``-O`` argument for the accepted format."""
FIELD_COUNT = len(SQUEUE_FIELDS)
FORMER_COUNT = FIELD_COUNT - 1
"""The former ``-o`` format: the same fields without the TRES."""
MAX_REPORTED = 5

_STATES = {
    "pending": ("PENDING", "PD"),
    "running": (
        "RUNNING",
        "R",
        "CONFIGURING",
        "CF",
        "COMPLETING",
        "CG",
        "SUSPENDED",
        "S",
        "RESIZING",
        "RS",
        "SIGNALING",
        "SI",
        "STAGE_OUT",
        "SO",
        "REQUEUED",
        "RQ",
    ),
    "completed": (
        "COMPLETED",
        "CD",
        "FAILED",
        "F",
        "TIMEOUT",
        "TO",
        "NODE_FAIL",
        "NF",
        "PREEMPTED",
        "PR",
        "BOOT_FAIL",
        "BF",
        "DEADLINE",
        "DL",
        "OUT_OF_MEMORY",
        "OOM",
        "SPECIAL_EXIT",
        "SE",
        "REVOKED",
        "RV",
    ),
    "cancelled": ("CANCELLED", "CA"),
}
_STATE_OF = {word: state for state, words in _STATES.items() for word in words}
_UNSET = {"", "N/A", "UNKNOWN", "NONE", "(NULL)"}
_WHOLE = re.compile(r"\d{1,10}")
_SIGNED = re.compile(r"[+-]?\d{1,10}")
_GRES = re.compile(
    r"(?:gres[/:])?([a-z][\w.-]*)(?::([a-z][\w.-]*))?(?:[:=](\d{1,10}))?", re.IGNORECASE
)


def parse_squeue(text: str, tz: tzinfo | None = None) -> list[JobInput]:
    """Jobs in ``text``; every bad line is named in one :class:`InvalidValue`.

    ``tz`` is the timezone of the times (default: this machine's local time, as squeue
    prints them).
    """
    jobs: list[JobInput] = []
    problems: list[str] = []
    epochs: dict[str, int] = {}
    shapes: dict[str, tuple] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line[:1].isdecimal() and _skipped(line):  # a job's line starts with its id
            continue
        try:
            jobs.append(_job(line, tz, epochs, shapes))
        except FscliError as err:
            problems.append(f"line {number}: {err.message}")
    if problems:
        more = len(problems) - MAX_REPORTED
        shown = "; ".join(problems[:MAX_REPORTED]) + (f"; and {more} more" if more > 0 else "")
        raise InvalidValue(
            f"not squeue -O '{SQUEUE_FORMAT}' output ({len(problems)} bad lines): {shown}"
        )
    return jobs


def _skipped(line: str) -> bool:
    """A blank line or a header."""
    # upper() maps each character on its own: the first five decide the prefix
    return not line.strip() or line.lstrip()[:5].upper().startswith("JOBID")


def _job(line: str, tz: tzinfo | None, epochs: dict, shapes: dict) -> JobInput:
    """The job of one line. ``epochs`` and ``shapes`` hold what this file's lines gave so
    far: the times (:func:`_moment`), and what the fields after the start time give
    (:func:`_shape`), by their text: a dump of 100,000 jobs repeats a few thousand."""
    count = line.count("|") + 1
    if count not in (FIELD_COUNT, FORMER_COUNT):
        raise InvalidValue(
            f"expected {FIELD_COUNT} (or {FORMER_COUNT}) '|'-separated fields, got {count}"
        )
    strip = " " in line or not line.isprintable()  # else no field holds whitespace to strip
    fields = line.split("|", _SHAPED)
    tail = fields.pop()
    if strip:
        fields = [f.strip() for f in fields]
    job_id, user, account, parts, qos, state, submit, start = fields
    if not _WHOLE.fullmatch(job_id):
        raise InvalidValue(
            f"job id '{job_id}' is not a whole number "
            "(array and heterogeneous jobs are not supported)"
        )
    number = int(job_id)
    if number < 1:  # Slurm's ids start at 1, as job submit's id=
        _whole(job_id, "job id", minimum=1)  # raises
    if not user:
        raise InvalidValue("empty user")
    state_name = _STATE_OF.get(state.upper())
    if state_name is None:
        raise InvalidValue(f"unknown job state '{state}'")
    shape = shapes.get(tail)
    if shape is None:  # its fields are checked in their places among the others'
        rest = [f.strip() for f in tail.split("|")] if strip else tail.split("|")
        node_count = _nodes(rest)
    started = _moment(start, tz, "start time", epochs) if state_name != "pending" else None
    submitted = _required_moment(submit, tz, epochs)
    if shape is None:
        shape = shapes[tail] = _shape(rest, node_count)
    time_limit, node_count, cpus, totals, nice = shape
    return JobInput(
        job_id=number,
        user=user,
        account=account or None,
        partitions=_partitions(parts),
        qos=qos or None,
        state=state_name,
        submit=submitted,
        start=started,
        time_limit=time_limit,
        nodes=node_count,
        cpus=cpus,
        tres=dict(totals),  # a dict of its own each job
        nice=nice,
    )


_SHAPED = 8
"""The fields from this one on (time limit, nodes, CPUs, memory, GRES, nice, TRES) are a
job's shape: the same text gives the same values (:func:`_shape`)."""


def _nodes(rest: list[str]) -> int:
    """The node count of the shape's fields ``rest``: the TRES's ``node=``, else NumNodes."""
    node_count = _whole(rest[1], "node count", 1)  # positional: lru_cache keys them faster
    if len(rest) == FIELD_COUNT - _SHAPED:
        node_count = _tres_nodes(rest[-1], node_count)
    return node_count


def _shape(rest: list[str], nodes: int) -> tuple:
    """(time limit, nodes, CPUs, TRES totals, nice) of the shape's fields ``rest``, whose
    ``nodes`` are checked already."""
    limit, _, cpus, mem, gres, nice = rest[:6]
    tres = rest[6] if len(rest) == FIELD_COUNT - _SHAPED else ""
    return (
        _limit(limit),
        nodes,
        _whole(cpus, "CPU count", 1),
        _totals(mem, gres, nodes, tres),
        _signed(nice, "nice"),
    )


@lru_cache(maxsize=1024)
def _partitions(text: str) -> tuple[str, ...]:
    """The partition names of a job's field (a dump of 100,000 jobs repeats a few)."""
    return tuple(p for p in text.split(",") if p)


@lru_cache(maxsize=1024)
def _whole(text: str, what: str, minimum: int = 0) -> int:
    """A count of at least ``minimum``; each text checked once (counts repeat)."""
    if not _WHOLE.fullmatch(text) or int(text) < minimum:
        raise InvalidValue(f"invalid {what} '{text}': expected a whole number >= {minimum}")
    return int(text)


@lru_cache(maxsize=1024)
def _signed(text: str, what: str) -> int:
    if not _SIGNED.fullmatch(text):
        raise InvalidValue(f"invalid {what} '{text}': expected a whole number")
    return int(text)


def _moment(text: str, tz: tzinfo | None, what: str, epochs: dict) -> int | None:
    """``epochs``: the valid times converted so far, in this file (a queue's jobs share
    seconds); a time found there needs no other check."""
    epoch = epochs.get(text)
    if epoch is not None:
        return epoch
    if text.upper() in _UNSET:
        return None
    epoch = _epoch(text, tz)
    if epoch is None:
        raise InvalidValue(f"invalid {what} '{text}': expected 2026-11-21T15:38:05")
    if not MIN_EPOCH <= epoch <= MAX_EPOCH:
        raise InvalidValue(f"invalid {what} '{text}': out of range (1900 to 9999)")
    epochs[text] = epoch
    return epoch


def _required_moment(text: str, tz: tzinfo | None, epochs: dict) -> int:
    value = _moment(text, tz, "submit time", epochs)
    if value is None:
        raise InvalidValue(f"missing submit time '{text}'")
    return value


def _epoch(text: str, tz: tzinfo | None) -> int | None:
    """Epoch seconds of a time squeue printed, None if it is malformed or beyond what local
    time can express."""
    try:
        moment = datetime.fromisoformat(text)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=tz) if tz else moment.astimezone()
        return int(moment.timestamp())
    except (ValueError, OverflowError):
        return None


@lru_cache(maxsize=1024)
def _tres_nodes(text: str, guess: int) -> int:
    """The ``node=`` count of a TRES string (``cpu=4,mem=400M,node=1,billing=4``); the
    NumNodes ``guess`` when it holds none (``N/A``)."""
    if text.upper() in _UNSET:
        return guess
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not sep:
            raise InvalidValue(f"invalid TRES '{text}': expected NAME=COUNT,...")
        if name.strip().lower() == "node":
            return _whole(value.strip(), "TRES node count", minimum=1)
    return guess


@lru_cache(maxsize=1024)
def _limit(text: str) -> int | None:
    """Minutes (``UNLIMITED`` is a job that asked for INFINITE); parsed once per distinct
    text (a dump of 100,000 jobs repeats a few)."""
    if text.upper() == "NOT_SET":
        return None
    return parse_time_limit(text, what="time limit")


@lru_cache(maxsize=1024)
def _totals(mem: str, gres: str, nodes: int, tres: str = "") -> tuple[tuple[str, int], ...]:
    """Job totals: the memory of the job's TRES ``tres`` (else MinMemory ``mem`` as per
    node) and the per-node GRES, times ``nodes``."""
    job_mem = _tres_mem(tres)
    if job_mem is None:
        return tuple((name, amount * nodes) for name, amount in _per_node(mem, gres))
    out = [(name, amount * nodes) for name, amount in _per_node("0", gres)]
    return ((("mem", job_mem),) if job_mem else ()) + tuple(out)


def _tres_mem(text: str) -> int | None:
    """The ``mem=`` (MB) of a job's TRES string; None when it names none (or is unset)."""
    if not text or text.upper() in _UNSET:
        return None
    for item in text.split(","):
        name, _, value = item.partition("=")
        if name.strip().lower() == "mem":
            amount = parse_value("mem", value.strip())
            if amount < 0:
                raise InvalidValue(f"invalid TRES '{text}': mem={value.strip()}")
            return amount
    return None


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
