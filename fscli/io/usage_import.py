"""Read usage from real Slurm output: ``sacct -P`` job records and ``sshare -P``/``-p`` rows.

Both parsers take the text (header line first) and return plain objects; every bad line
is collected and reported in one :class:`InvalidValue` naming the line numbers, so a user
fixes a file in one pass.

* :func:`parse_sacct`: needs ``User``, ``Account``, ``Start``, and ``End`` or ``Elapsed``/
  ``ElapsedRaw``, and ``AllocTRES`` or ``AllocCPUS``; uses ``JobID``, ``Partition``, ``QOS``,
  ``State`` when present. ``End`` of ``Unknown``/``None`` means still running. Job steps
  (``123.batch``) and jobs that never started are skipped (counted in ``skipped``).
* :func:`parse_sshare`: needs ``Account``, ``User`` and ``RawUsage``; the Account column's
  indentation is stripped; account rows have ``user`` None.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from fscli.engine.imported import JobRecord, ShareUsage
from fscli.engine.timestr import MAX_EPOCH, format_when, parse_date, parse_duration_secs
from fscli.engine.tres import MAX_VALUE, parse_tres
from fscli.errors import FscliError, InvalidValue

_UNSET = frozenset({"", "unknown", "none"})


@dataclass
class SacctImport:
    jobs: list[JobRecord] = field(default_factory=list)
    skipped: int = 0  # steps and jobs that never started


def _table(text: str, what: str) -> tuple[dict[str, int], list[tuple[int, list[str]]]]:
    """Header index (lower-case names) and the numbered data rows of a '|' table."""
    lines = [(n, line.rstrip("\r\n")) for n, line in enumerate(text.splitlines(), 1)]
    lines = [(n, line) for n, line in lines if line.strip()]
    if not lines:
        raise InvalidValue(f"empty {what} file: expected a header line")
    _head_no, head = lines[0]
    trailing = head.endswith("|")  # -p prints '|' after every field
    if trailing:
        head = head[:-1]
    names = [h.strip().lower() for h in head.split("|")]
    header = {name: i for i, name in enumerate(names)}
    if len(header) < len(names):
        twice = sorted({name for name in names if names.count(name) > 1})
        raise InvalidValue(f"{what} header repeats column(s): {', '.join(twice)}")
    rows = []
    for n, line in lines[1:]:
        if trailing and line.endswith("|"):
            line = line[:-1]
        rows.append((n, line.split("|")))
    return header, rows


def _require(header: dict[str, int], what: str, *groups: tuple[str, ...]) -> None:
    missing = [" or ".join(g) for g in groups if not any(name.lower() in header for name in g)]
    if missing:
        raise InvalidValue(f"{what} header lacks column(s): {', '.join(missing)}")


def _raise_all(problems: list[str], what: str) -> None:
    if problems:
        shown = "; ".join(problems[:20])
        more = f" (and {len(problems) - 20} more)" if len(problems) > 20 else ""
        raise InvalidValue(f"{len(problems)} bad line(s) in {what}: {shown}{more}")


def parse_sacct(text: str) -> SacctImport:
    """Job records from ``sacct -P`` (or ``-p``) output."""
    header, rows = _table(text, "sacct")
    _require(
        header,
        "sacct",
        ("User",),
        ("Account",),
        ("Start",),
        ("End", "Elapsed", "ElapsedRaw"),
        ("AllocTRES", "AllocCPUS"),
    )
    result = SacctImport()
    problems: list[str] = []
    for n, cells in rows:
        if len(cells) != len(header):
            problems.append(f"line {n}: {len(cells)} fields, header has {len(header)}")
            continue
        get = _getter(header, cells)
        job_id = get("jobid")
        if job_id and "." in job_id:
            result.skipped += 1
            continue
        try:
            job = _job(n, get)
        except FscliError as exc:
            problems.append(f"line {n}: {exc.message}")
            continue
        if job is None:
            result.skipped += 1
        else:
            result.jobs.append(job)
    _raise_all(problems, "sacct input")
    return result


def _getter(header: dict[str, int], cells: list[str]) -> Callable[[str], str | None]:
    """Look up one row's field by lower-case column name (None if the column is absent)."""

    def get(name: str) -> str | None:
        i = header.get(name)
        return None if i is None else cells[i].strip()

    return get


def _job(n: int, get: Callable[[str], str | None]) -> JobRecord | None:
    user, account = get("user"), get("account")
    if not user or not account:
        raise InvalidValue("User and Account must not be empty")
    start_text = get("start") or ""
    if start_text.lower() in _UNSET:
        return None
    start = parse_date(start_text, "Start")
    end_text = get("end")
    end: int | None
    if end_text is not None:
        end = None if end_text.lower() in _UNSET else parse_date(end_text, "End")
    else:
        raw = get("elapsedraw")
        secs = (
            _int(raw, "ElapsedRaw")
            if raw is not None
            else parse_duration_secs(get("elapsed") or "", "Elapsed")
        )
        state = (get("state") or "").upper()
        end = None if state.startswith("RUNNING") or secs is None else start + secs
    if end is not None and end < start:
        raise InvalidValue(f"End {end_text} is before Start {start_text}")
    if end is not None and end > MAX_EPOCH:
        raise InvalidValue(f"the job ends after {format_when(MAX_EPOCH)}")
    tres_text = get("alloctres")
    if tres_text:
        tres = parse_tres(tres_text, allow_clear=False)
    else:
        cpus_text = get("alloccpus")
        if cpus_text is None:
            raise InvalidValue("AllocTRES is empty and there is no AllocCPUS column")
        tres = {"cpu": _int(cpus_text, "AllocCPUS")}
    return JobRecord(
        n,
        get("jobid"),
        user,
        account,
        get("partition") or None,
        get("qos") or None,
        start,
        end,
        tres,
        get("state") or None,
    )


def _int(text: str, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InvalidValue(f"invalid {what} '{text}': expected a whole number") from None
    if not 0 <= value <= MAX_VALUE:
        raise InvalidValue(f"invalid {what} '{text}': must be from 0 to {MAX_VALUE}")
    return value


def usage_amount(text: str | float, what: str) -> float:
    """A usage amount in billing TRES-seconds: a number from 0 to :data:`MAX_VALUE` (what a
    64-bit counter holds; near the largest double, two amounts would add up to infinity)."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise InvalidValue(f"invalid {what} '{text}'") from None
    if not math.isfinite(value) or value < 0:
        raise InvalidValue(f"{what} '{text}' must be a finite number >= 0")
    if value > float(MAX_VALUE):
        raise InvalidValue(f"{what} '{text}' is out of range (at most {MAX_VALUE})")
    return value


def _row_name(account: str, user: str, partition: str) -> str:
    where = f" partition '{partition}'" if partition else ""
    return f"user '{user}' of account '{account}'{where}" if user else f"account '{account}'"


def parse_sshare(text: str) -> list[ShareUsage]:
    """(account, user, raw usage) rows from ``sshare -P``/``-p`` output, e.g. ``-a -l -P``.

    A row given twice (the same account and user, names compared as stored: in lower
    case; and partition, with a Partition column) is refused with both lines: which one
    holds the usage cannot be told (a user's partition associations print as such rows
    unless sshare shows the partition)."""
    header, rows = _table(text, "sshare")
    _require(header, "sshare", ("Account",), ("User",), ("RawUsage",))
    ia, iu, ir = header["account"], header["user"], header["rawusage"]
    ip = header.get("partition")
    out: list[ShareUsage] = []
    problems: list[str] = []
    seen: dict[tuple[str, str, str], int] = {}
    for n, cells in rows:
        if len(cells) != len(header):
            problems.append(f"line {n}: {len(cells)} fields, header has {len(header)}")
            continue
        account, user, raw = cells[ia].strip(), cells[iu].strip(), cells[ir].strip()
        if not account:
            problems.append(f"line {n}: empty Account")
            continue
        partition = cells[ip].strip() if ip is not None else ""
        key = (account.lower(), user.lower(), partition)
        if key in seen:  # the last one would silently win
            problems.append(f"line {n}: {_row_name(*key)} is on line {seen[key]} too")
            continue
        seen[key] = n
        try:
            value = usage_amount(raw, "RawUsage")
        except InvalidValue as bad:
            problems.append(f"line {n}: {bad.message}")
            continue
        out.append(ShareUsage(n, account, user or None, value))
    _raise_all(problems, "sshare input")
    return out
