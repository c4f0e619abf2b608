"""Read what ``scontrol show ...`` prints: records of ``Key=Value`` words, and the
``Key = Value`` lines of ``scontrol show config``.

``scontrol show job|partition|node`` prints one record per object, its words over several
indented lines, records separated by a blank line. A value runs to the next word that
starts a new key (a value may hold ``=``, as ``TRES=cpu=4,mem=1G`` does, and spaces, as
``Reason=`` or ``OS=`` may). Keys are kept as printed; readers look them up by name, so
a version that adds or drops words is read alike (22.05 prints a job's TRES as ``TRES=``,
23.02 on as ``ReqTRES=``/``AllocTRES=``).

The readers turn these records into the inputs of fscli's existing importers: a job record
becomes the line ``squeue -O`` would print for it (read by
:func:`fscli.io.squeue_import.parse_squeue`), the config's priority keys are checked by
:func:`fscli.engine.config.validate` as slurm.conf's are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fscli.engine import config
from fscli.errors import FscliError, UsageProblem

_KEY = re.compile(r"(?:^|\s)([A-Za-z][A-Za-z0-9_/:.()]*)=")
_UNSET = frozenset({"", "(null)", "n/a", "none", "unknown"})


def records(text: str) -> list[dict[str, str]]:
    """The records of ``scontrol show job|partition|node`` output, each a dict of its
    words (a key printed twice keeps its first value)."""
    found: list[dict[str, str]] = []
    for block in re.split(r"\n\s*\n", text):
        if not block.strip() or "=" not in block:
            continue
        record: dict[str, str] = {}
        for line in block.splitlines():
            keys = list(_KEY.finditer(line))
            for i, match in enumerate(keys):
                end = keys[i + 1].start() if i + 1 < len(keys) else len(line)
                record.setdefault(match.group(1), line[match.end() : end].strip())
        found.append(record)
    return found


def unset(value: str | None) -> bool:
    """A value scontrol prints for "nothing": empty, ``(null)``, ``N/A``, ``None``."""
    return value is None or value.strip().lower() in _UNSET


def show_config(text: str) -> dict[str, str]:
    """``scontrol show config``'s ``Key = Value`` lines as a dict (the first line, the
    "Configuration data as of" moment, and sections without ``=`` are skipped)."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() and " " not in key.strip():
            values.setdefault(key.strip(), value.strip())
    return values


@dataclass
class PrioritySettings:
    """The priority settings of ``scontrol show config``, checked as slurm.conf's, and the
    ones fscli knows whose value it could not take (key, value, why)."""

    used: dict[str, str] = field(default_factory=dict)
    refused: list[tuple[str, str, str]] = field(default_factory=list)


def priority_settings(values: dict[str, str]) -> PrioritySettings:
    """The keys of :data:`fscli.engine.config.KEYS` among ``values``: ``(null)`` and
    ``UNLIMITED`` are "not set" (slurm.conf's default), the rest is validated."""
    settings = PrioritySettings()
    for key, value in values.items():
        try:
            canon = config.canonical_key(key)
        except UsageProblem:
            continue
        if value.lower() == "(null)" or value.upper() == "UNLIMITED":
            continue
        try:
            settings.used[canon] = config.validate(canon, value)[1]
        except FscliError as exc:
            settings.refused.append((canon, value, exc.message))
    return settings


def squeue_line(job: dict[str, str]) -> str:
    """The line ``squeue -O`` prints for a ``scontrol show job`` record, in the fields of
    :data:`fscli.io.squeue_import.SQUEUE_FIELDS` (read back by ``parse_squeue``)."""
    tres = next((job[k] for k in ("AllocTRES", "TRES", "ReqTRES") if not unset(job.get(k))), "")
    memory = next((job[k] for k in ("MinMemoryNode", "MinMemoryCPU") if not unset(job.get(k))), "0")
    fields = [
        job.get("JobId", ""),
        job.get("UserId", "").split("(", 1)[0],
        job.get("Account", ""),
        job.get("Partition", ""),
        job.get("QOS", ""),
        job.get("JobState", ""),
        job.get("SubmitTime", ""),
        job.get("StartTime", "N/A"),
        job.get("TimeLimit", "NOT_SET"),
        job.get("NumNodes", "1").split("-", 1)[0],
        job.get("NumCPUs", "1").split("-", 1)[0],
        memory,
        job.get("TresPerNode", "N/A") or "N/A",
        job.get("Nice", "0"),
        tres,
    ]
    return "|".join(fields)


def partition_values(part: dict[str, str]) -> dict:
    """The values of ``fscli partition add`` (``Writes.add_partition``) a ``scontrol show
    partition`` record gives: size, TRES, factors, QOS, limits, billing weights and memory
    defaults; ``UNLIMITED``/``N/A`` are "not set"."""
    from fscli.engine.config import megabytes, parse_tres_weights
    from fscli.engine.timestr import parse_duration_mins
    from fscli.engine.tres import format_tres, parse_tres

    def given(key: str) -> str | None:
        value = part.get(key)
        return None if unset(value) or str(value).upper() == "UNLIMITED" else value

    values: dict = {}
    for key, column in (
        ("TotalNodes", "nodes"),
        ("TotalCPUs", "cpus"),
        ("PriorityJobFactor", "priority_job_factor"),
        ("PriorityTier", "priority_tier"),
        ("MaxNodes", "max_nodes"),
        ("MinNodes", "min_nodes"),
    ):
        text = given(key)
        if text is not None:
            values[column] = int(text)
    if given("TRES"):
        values["tres"] = format_tres(parse_tres(part["TRES"], allow_clear=False), units=False)
    if given("MaxTime"):
        values["max_time"] = parse_duration_mins(part["MaxTime"], "MaxTime")
    values["qos"] = given("QoS")
    weights = given("TRESBillingWeights")
    if weights:
        parse_tres_weights(weights)
        values["billing_weights"] = weights
    for key, column in (
        ("DefMemPerCPU", "def_mem_per_cpu"),
        ("DefMemPerNode", "def_mem_per_node"),
        ("MaxMemPerCPU", "max_mem_per_cpu"),
    ):
        text = given(key)
        if text is not None:
            values[column] = int(megabytes(key, text))
    return values
