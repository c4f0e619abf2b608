"""Slurm time strings and moments in time.

Durations follow Slurm's ``time_str2secs`` (src/common/parse_time.c): ``-1``,
``INFINITE`` and ``UNLIMITED`` mean "no limit"; ``days-hours[:minutes[:seconds]]``;
without a day part three fields are ``hours:minutes:seconds`` and one or two are
``minutes[:seconds]``. Limits are stored in minutes, rounded up like ``time_str2mins``.

Moments (``--at``, ``at=``, ``submit=``) are ISO 8601 or Slurm's relative form
``now[+-]N[seconds|minutes|hours|days|weeks]``; they become integer epoch seconds.
A moment without a timezone is local time, as in Slurm.
"""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta, timezone

from fscli.errors import InvalidValue

UNLIMITED_WORDS = frozenset({"-1", "infinite", "unlimited"})
MAX_DURATION_SECS = 0xFFFFFFFE * 60  # Slurm keeps time limits as 32-bit minutes
INFINITE_MINUTES = 0xFFFFFFFF
"""Slurm's INFINITE time limit (a job or partition without one), in minutes."""
MIN_EPOCH = -2208988800  # 1900-01-01T00:00:00Z
MAX_EPOCH = 253402214400  # 9999-12-31T00:00:00Z: printable in every timezone


def parse_duration_secs(text: str, what: str = "time") -> int | None:
    """Seconds in a Slurm time string; ``None`` for -1/INFINITE/UNLIMITED.

    Raises :class:`InvalidValue` for anything Slurm would reject (NO_VAL), including
    durations longer than :data:`MAX_DURATION_SECS`.
    """
    secs = _duration_secs(text, what)
    if secs is not None and secs > MAX_DURATION_SECS:
        raise InvalidValue(f"invalid {what} '{text}': at most {format_secs(MAX_DURATION_SECS)}")
    return secs


def _duration_secs(text: str, what: str) -> int | None:
    raw = str(text).strip()
    if raw.lower() in UNLIMITED_WORDS:
        return None
    bad = InvalidValue(
        f"invalid {what} '{text}': expected minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS"
    )
    if not re.fullmatch(r"[0-9:-]{1,40}", raw):
        raise bad
    if raw.count("-") > 1 or raw.count(":") > 2 or re.search(r":.*-", raw):
        raise bad
    if "-" in raw:
        days_s, rest = raw.split("-")
        if not days_s or not rest:
            raise bad
        fields = rest.split(":")
        if any(f == "" for f in fields):
            raise bad
        hours = int(fields[0])
        minutes = int(fields[1]) if len(fields) > 1 else 0
        seconds = int(fields[2]) if len(fields) > 2 else 0
        return ((int(days_s) * 24 + hours) * 60 + minutes) * 60 + seconds
    fields = raw.split(":")
    if any(f == "" for f in fields):
        raise bad
    nums = [int(f) for f in fields]
    if len(nums) == 3:
        return (nums[0] * 60 + nums[1]) * 60 + nums[2]
    if len(nums) == 2:
        return nums[0] * 60 + nums[1]
    return nums[0] * 60


def parse_duration_mins(text: str, what: str = "time") -> int | None:
    """Minutes in a Slurm time string, rounded up (``time_str2mins``); ``None`` = unlimited."""
    secs = parse_duration_secs(text, what)
    return None if secs is None else math.ceil(secs / 60)


def parse_time_limit(text: str, what: str = "time limit") -> int:
    """A job's requested time limit in minutes: ``-t INFINITE`` (UNLIMITED, -1) is a
    request too, for :data:`INFINITE_MINUTES`, which fails any MaxWall or partition MaxTime
    as slurmctld compares it (sbatch's ``time_str2mins`` gives INFINITE, not "none")."""
    mins = parse_duration_mins(text, what)
    return INFINITE_MINUTES if mins is None else mins


def format_secs(secs: int | None) -> str:
    """``D-HH:MM:SS`` from one day on, else ``HH:MM:SS``; ``UNLIMITED`` for ``None``."""
    if secs is None:
        return "UNLIMITED"
    secs = int(secs)
    days, rem = divmod(secs, 86400)
    hours, rem = divmod(rem, 3600)
    minutes, seconds = divmod(rem, 60)
    if days:
        return f"{days}-{hours:02d}:{minutes:02d}:{seconds:02d}"
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}"


def format_mins(mins: int | None) -> str:
    """A limit stored in minutes, printed the way sacctmgr prints it (INFINITE included)."""
    return format_secs(None if mins is None or mins >= INFINITE_MINUTES else int(mins) * 60)


_UNIT_SECONDS = {
    "second": 1,
    "minute": 60,
    "hour": 3600,
    "day": 86400,
    "week": 604800,
}
_RELATIVE = r"now\s*(?:([+-])\s*(\d{1,20})\s*([a-z]*))?"


def _relative(low: str) -> re.Match | None:
    """``now``, ``now-2days`` (lower-case text). The pattern is compiled on first use: 0.4 ms
    that every command given no relative time does without."""
    return re.fullmatch(_RELATIVE, low) if low.startswith("now") else None


def _unit_seconds(unit: str) -> int:
    unit = unit.lower().rstrip("s") or "second"
    for name, secs in _UNIT_SECONDS.items():
        if name.startswith(unit) or (
            unit in ("sec", "min", "hr", "h", "d", "w") and name[0] == unit[0]
        ):
            return secs
    raise InvalidValue(f"unknown time unit '{unit}': use seconds, minutes, hours, days or weeks")


def parse_when(text: str | float, now: int) -> int:
    """Epoch seconds for a moment: ISO 8601, epoch seconds, ``now``, ``now-2days``, ``today``.

    Moments outside :data:`MIN_EPOCH`..:data:`MAX_EPOCH` are :class:`InvalidValue`.
    """
    return _in_range(_when(text, now), text)


def _in_range(epoch: int, text: str | float, what: str = "time") -> int:
    if not MIN_EPOCH <= epoch <= MAX_EPOCH:
        raise InvalidValue(f"invalid {what} '{text}': out of range (1900 to 9999)")
    return epoch


def parse_date(text: str, what: str = "time") -> int:
    """Epoch seconds for a moment written as a date (ISO 8601) or epoch seconds, as files
    and stored settings carry them: ``now``, ``now-2days`` and ``today`` are refused
    (relative to what?)."""
    low = text.strip().lower()
    bad = InvalidValue(
        f"invalid {what} '{text}': expected a date (2026-05-01T12:00:00) or epoch seconds"
    )
    if _relative(low) or low in ("today", "midnight"):
        raise bad
    try:
        epoch = _when(text, 0)
    except InvalidValue:
        raise bad from None
    return _in_range(epoch, text, what)


def _when(text: str | float, now: int) -> int:
    if isinstance(text, (int, float)):
        return int(text)
    raw = str(text).strip()
    low = raw.lower()
    match = _relative(low)
    if match:
        sign, count, unit = match.groups()
        if sign is None:
            return int(now)
        delta = int(count) * _unit_seconds(unit)
        return int(now) + (delta if sign == "+" else -delta)
    if low in ("today", "midnight"):
        local = datetime.fromtimestamp(now).astimezone()
        return int(local.replace(hour=0, minute=0, second=0, microsecond=0).timestamp())
    if re.fullmatch(r"\d{9,11}", raw):
        return int(raw)
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.astimezone()  # local time, as Slurm reads it
        return int(moment.timestamp())
    except (ValueError, OverflowError):  # malformed, or beyond what local time can express
        raise InvalidValue(
            f"invalid time '{text}': expected ISO 8601 (2026-05-01T12:00:00), 'now', or 'now-2days'"
        ) from None


def format_when(epoch: int | None) -> str:
    """ISO 8601 local time without timezone, like Slurm's ``2026-05-01T12:00:00``."""
    if epoch is None:
        return ""
    return datetime.fromtimestamp(int(epoch)).strftime("%Y-%m-%dT%H:%M:%S")


def utc_iso(epoch: int) -> str:
    """Epoch seconds as a UTC ISO string (JSON output, history)."""
    return datetime.fromtimestamp(int(epoch), tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


_SLURM_DATE = re.compile(
    r"(?:(\d{4})-(\d\d)-(\d\d)|(\d\d?)/(\d\d?)(?:/(\d\d(?:\d\d)?))?)"
    r"(?:T(\d\d?):(\d\d)(?::(\d\d))?)?",
    re.IGNORECASE,  # matched against the lower-cased text: "t" as well
)


def parse_slurm_time(text: str, now: int) -> int | None:
    """Slurm's ``parse_time`` for the forms sacctmgr's Start=/End= take: ``now[+-N
    units]``, ``today``/``midnight``, ``noon``, ``tomorrow``, ``MM/DD[/YY[YY]]``,
    ``YYYY-MM-DD`` (each with ``THH:MM[:SS]``), ``HH:MM[:SS]`` (today) and epoch seconds;
    local time. None for what Slurm calls an invalid time specification."""
    low = text.strip().lower()
    try:
        match = _relative(low)
        if match:
            return _when(low, now)
    except InvalidValue:
        return None
    base = datetime.fromtimestamp(now)
    day = base.replace(hour=0, minute=0, second=0, microsecond=0)
    named = {"today": day, "midnight": day + timedelta(days=1)}
    named["noon"] = day.replace(hour=12)
    named["tomorrow"] = day + timedelta(days=1)
    if low in named:
        return int(named[low].timestamp())
    clock = re.fullmatch(r"(\d\d?):(\d\d)(?::(\d\d))?", low)
    date = _SLURM_DATE.fullmatch(low)
    try:
        if clock:
            hour, minute, sec = (int(x or 0) for x in clock.groups())
            return int(day.replace(hour=hour, minute=minute, second=sec).timestamp())
        if date:
            y, mo, d, um, ud, uy, h, mi, s = date.groups()
            if y is None:
                y, mo, d = uy or str(base.year), um, ud
                if len(y) == 2:
                    y = "20" + y
            moment = datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0))
            return int(moment.timestamp())
    except (ValueError, OverflowError):
        return None
    if re.fullmatch(r"\d{9,11}", low):
        return int(low)
    return None
