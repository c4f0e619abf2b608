"""The one registry of limit names.

Every limit that an association or a QOS can carry is described once here; the CLI
parses ``key=value`` words with it, the store names its columns after ``attr``, the
dump/load and YAML formats write ``name``, and limit resolution walks it.

Kinds:
- ``count``: a non-negative integer (jobs, priority);
- ``tres``: a TRES dict (``cpu=4,mem=8G``), memory in MB;
- ``tres_mins``: a TRES dict whose values are minutes of that TRES (plain numbers);
- ``minutes``: a wall time given as a Slurm time string, kept in minutes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from fscli.engine import tres as tresmod
from fscli.engine.timestr import format_mins, parse_duration_mins
from fscli.errors import InvalidValue

ASSOC = "assoc"
QOS = "qos"

CLEAR = object()
"""Returned by :func:`parse_limit` for ``-1``: remove the limit."""


class LimitDef(NamedTuple):
    """One limit: its Slurm name, store column (``attr``), value kind, where it can be set, other spellings."""

    name: str
    attr: str
    kind: str
    scopes: frozenset[str]
    aliases: tuple[str, ...] = ()


def _d(name: str, attr: str, kind: str, scopes: tuple[str, ...], *aliases: str) -> LimitDef:
    return LimitDef(name, attr, kind, frozenset(scopes), tuple(aliases))


BOTH = (ASSOC, QOS)
LIMITS: tuple[LimitDef, ...] = (
    _d("GrpJobs", "grp_jobs", "count", BOTH),
    _d("GrpJobsAccrue", "grp_jobs_accrue", "count", BOTH),
    _d("GrpSubmitJobs", "grp_submit_jobs", "count", BOTH, "GrpSubmit"),
    _d("GrpTRES", "grp_tres", "tres", BOTH),
    _d("GrpTRESMins", "grp_tres_mins", "tres_mins", BOTH),
    _d("GrpTRESRunMins", "grp_tres_run_mins", "tres_mins", BOTH),
    _d("GrpWall", "grp_wall", "minutes", BOTH),
    _d("MaxJobs", "max_jobs", "count", (ASSOC,)),
    _d("MaxJobsAccrue", "max_jobs_accrue", "count", (ASSOC,)),
    _d("MaxSubmitJobs", "max_submit_jobs", "count", (ASSOC,), "MaxSubmit"),
    _d("MaxTRESPerJob", "max_tres_per_job", "tres", BOTH, "MaxTRES"),
    _d("MaxTRESMinsPerJob", "max_tres_mins_per_job", "tres_mins", BOTH, "MaxTRESMins"),
    _d("MaxTRESPerNode", "max_tres_per_node", "tres", BOTH),
    _d("MaxTRESRunMins", "max_tres_run_mins", "tres_mins", (ASSOC,)),
    _d("MaxWallDurationPerJob", "max_wall", "minutes", BOTH, "MaxWall"),
    _d("MinPrioThreshold", "min_prio_threshold", "count", (ASSOC,), "MinPrioThresh"),
    _d("MaxJobsPerUser", "max_jobs_per_user", "count", (QOS,), "MaxJobsPU"),
    _d("MaxJobsPerAccount", "max_jobs_per_account", "count", (QOS,), "MaxJobsPA"),
    _d("MaxJobsAccruePerUser", "max_jobs_accrue_per_user", "count", (QOS,)),
    _d("MaxJobsAccruePerAccount", "max_jobs_accrue_per_account", "count", (QOS,)),
    _d("MaxSubmitJobsPerUser", "max_submit_jobs_per_user", "count", (QOS,), "MaxSubmitPU"),
    _d("MaxSubmitJobsPerAccount", "max_submit_jobs_per_account", "count", (QOS,), "MaxSubmitPA"),
    _d("MaxTRESPerUser", "max_tres_per_user", "tres", (QOS,), "MaxTRESPU"),
    _d("MaxTRESPerAccount", "max_tres_per_account", "tres", (QOS,), "MaxTRESPA"),
    _d("MaxTRESRunMinsPerUser", "max_tres_run_mins_per_user", "tres_mins", (QOS,)),
    _d("MaxTRESRunMinsPerAccount", "max_tres_run_mins_per_account", "tres_mins", (QOS,)),
    _d("MinTRESPerJob", "min_tres_per_job", "tres", (QOS,), "MinTRES"),
)

BY_NAME: dict[str, LimitDef] = {}
for _def in LIMITS:
    for _n in (_def.name, *_def.aliases):
        BY_NAME[_n.lower()] = _def

ASSOC_LIMITS = tuple(d for d in LIMITS if ASSOC in d.scopes)
QOS_LIMITS = tuple(d for d in LIMITS if QOS in d.scopes)


def lookup(key: str) -> LimitDef | None:
    """The limit a (case-insensitive) key names, or ``None``."""
    return BY_NAME.get(key.lower())


def named(name: str) -> LimitDef:
    """The limit a canonical name (a key of a limits dict) names: always one."""
    return BY_NAME[name.lower()]


def all_names() -> list[str]:
    return [n for d in LIMITS for n in (d.name, *d.aliases)]


def parse_limit(defn: LimitDef, text: str) -> Any:
    """Parse a value for one limit. Returns ``CLEAR`` for -1 (whole limit cleared).

    TRES kinds return a dict that may hold ``tres.CLEAR`` for single TRES to remove.
    """
    raw = str(text).strip()
    if raw == "-1":
        return CLEAR
    if defn.kind == "count":
        try:
            value = int(raw)
        except ValueError:
            raise InvalidValue(
                f"invalid value for {defn.name}: '{text}' is not a whole number"
            ) from None
        if value < -1:
            raise InvalidValue(f"invalid value for {defn.name}: {value} (use -1 to clear)")
        if value > 0xFFFFFFFE:
            raise InvalidValue(f"invalid value for {defn.name}: {value} is too large")
        return value
    if defn.kind in ("tres", "tres_mins"):
        try:
            return tresmod.parse_tres(raw)
        except InvalidValue as exc:
            raise InvalidValue(f"invalid {defn.name}: {exc.message}") from None
    if defn.kind == "minutes":
        mins = parse_duration_mins(raw, what=defn.name)
        return CLEAR if mins is None else mins
    raise AssertionError(defn.kind)  # pragma: no cover


def format_limit(defn: LimitDef, value: Any) -> str:
    """Text of a stored limit value as sacctmgr shows it (times as D-HH:MM:SS)."""
    if value is None:
        return ""
    if defn.kind in ("tres", "tres_mins"):
        return tresmod.format_tres(value, units=defn.kind == "tres")
    if defn.kind == "minutes":
        return format_mins(value)
    return str(value)


def change_text(defn: LimitDef, value: Any) -> str:
    """A change (from :func:`parse_limit`) as the word that asks for it: ``-1`` clears the
    limit or one TRES of it; TRES in the order given."""
    if value is CLEAR:
        return "-1"
    if defn.kind in ("tres", "tres_mins"):
        units = defn.kind == "tres"
        return ",".join(
            f"{k}={'-1' if v == tresmod.CLEAR else tresmod.format_value(k, v, units)}"
            for k, v in value.items()
        )
    return format_limit(defn, value)


def apply_change(defn: LimitDef, old: Any, change: Any) -> Any:
    """New stored value after ``change`` (from :func:`parse_limit`); ``None`` = unset."""
    if change is CLEAR:
        return None
    if defn.kind in ("tres", "tres_mins"):
        merged = tresmod.merge_tres(old, change)
        return merged or None
    return change


def limit_text(name: str, tres: str | None, value: Any) -> str:
    """A value of limit ``name`` (a LimitEntry's or a violation's) as people read it, in
    the units Slurm prints: memory with units, times as D-HH:MM:SS, infinity UNLIMITED."""
    from fscli.engine.timestr import format_secs

    if value is None:
        return ""
    if value == float("inf"):
        return "UNLIMITED"
    if isinstance(value, float):
        value = int(value) if value.is_integer() else round(value, 2)
    defn = lookup(name)
    if name == "MaxTime" or (defn is not None and defn.kind == "minutes"):
        return format_mins(value)
    if name == "GraceTime":
        return format_secs(value)
    if defn is not None and defn.kind == "tres" and tres and isinstance(value, int):
        return tresmod.format_value(tres, value)
    return str(value)
