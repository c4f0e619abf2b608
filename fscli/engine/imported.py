"""What the usage and configuration imports read, as plain records.

The parsers in :mod:`fscli.io` make these from real Slurm output (``sacct -P``, ``sshare
-P``, slurm.conf) and the store writes them: they live in the engine, below both, so the
store needs no parser to know their shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class JobRecord:
    """One job allocation from sacct: times in epoch seconds, TRES in base units (MB)."""

    line: int
    job_id: str | None
    user: str
    account: str
    partition: str | None
    qos: str | None
    start: int
    end: int | None  # None = still running
    tres: dict[str, int]
    state: str | None = None


@dataclass(slots=True)
class ShareUsage:
    """One sshare row's usage: ``user`` None for an account row."""

    line: int
    account: str
    user: str | None
    raw_usage: float


@dataclass
class SlurmConf:
    """A slurm.conf as read: the priority settings fscli uses, and what it did not."""

    used: dict[str, str] = field(default_factory=dict)  # canonical key -> normalized value
    ignored: list[tuple[int, str, str]] = field(default_factory=list)  # (line, key, value)
    includes: list[tuple[int, str]] = field(default_factory=list)  # (line, path)
    partitions: list[dict[str, str]] = field(default_factory=list)
    nodes: list[dict[str, str]] = field(default_factory=list)
