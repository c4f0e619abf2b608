"""Read the priority settings out of a slurm.conf text.

slurm.conf syntax as slurmctld reads it: ``#`` starts a comment, a line is one or more
``Key=Value`` words (keys case-insensitive, values may be double-quoted), a trailing
``\\`` continues the line. ``Include FILE`` lines are reported, not followed.

:func:`parse_slurm_conf` returns a :class:`SlurmConf`: the keys fscli knows
(:data:`fscli.engine.config.KEYS`, canonical spelling, values checked and normalized by
:func:`fscli.engine.config.validate`), the keys it ignored, ``Include`` lines, and the
``PartitionName=`` / ``NodeName=`` lines as plain dicts for later use. A malformed line
or a bad value raises :class:`InvalidValue` naming the line number.
"""

from __future__ import annotations

import shlex

from fscli.engine import config
from fscli.engine.imported import SlurmConf
from fscli.errors import FscliError, InvalidValue, UsageProblem

_RECORD_KEYS = ("partitionname", "nodename", "nodeset", "downnodes", "frontendname", "switchname")


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(first physical line number, text) with comments removed and continuations joined."""
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].rstrip()
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1]  # joined as-is, like slurmctld
            continue
        pending += line
        if pending.strip():
            out.append((start, pending.strip()))
        pending = ""
    if pending.strip():
        out.append((start, pending.strip()))
    return out


def _words(number: int, line: str) -> list[tuple[str, str]]:
    try:
        words = shlex.split(line, posix=True)
    except ValueError as exc:
        raise InvalidValue(f"slurm.conf line {number}: {exc}") from None
    pairs = []
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise InvalidValue(f"slurm.conf line {number}: expected Key=Value, got '{word}'")
        pairs.append((key, value))
    return pairs


def parse_slurm_conf(text: str) -> SlurmConf:
    """Parse slurm.conf text; see the module docstring."""
    conf = SlurmConf()
    for number, line in _logical_lines(text):
        first = line.split(None, 1)
        if first[0].lower() == "include":
            if len(first) < 2:
                raise InvalidValue(f"slurm.conf line {number}: Include needs a file name")
            conf.includes.append((number, first[1].strip()))
            continue
        pairs = _words(number, line)
        lead = pairs[0][0].lower()
        if lead in _RECORD_KEYS:
            record = {k: v for k, v in pairs}
            if lead == "partitionname":
                conf.partitions.append(record)
            elif lead == "nodename":
                conf.nodes.append(record)
            else:
                conf.ignored.extend((number, k, v) for k, v in pairs)
            continue
        for key, value in pairs:
            try:
                canon = config.canonical_key(key)
            except UsageProblem:
                conf.ignored.append((number, key, value))
                continue
            try:
                conf.used[canon] = config.validate(canon, value)[1]
            except FscliError as exc:
                raise InvalidValue(f"slurm.conf line {number}: {exc.message}") from None
    return conf
