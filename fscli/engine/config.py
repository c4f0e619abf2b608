"""Priority configuration with Slurm's slurm.conf key names and defaults.

The store keeps ``key -> text`` pairs (canonical key spelling); :func:`validate` checks
and normalizes one value; :class:`PriorityConfig` is the typed view the engine uses.
Durations follow slurm.conf: a bare number is minutes (``time_str2mins``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from fscli.engine import tres as tresmod
from fscli.engine.timestr import MAX_EPOCH, MIN_EPOCH, parse_date, parse_duration_mins
from fscli.errors import InvalidValue, UsageProblem, closest, did_you_mean

DEFAULT_ENFORCE = frozenset({"associations", "limits", "qos"})
RESET_AT_KEY = "PriorityUsageResetAt"
"""fscli's own setting: when ``PriorityUsageResetPeriod=NOW`` was set (epoch seconds)."""
RESET_PERIODS = ("NONE", "NOW", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY")
PRIORITY_FLAGS = (
    "ACCRUE_ALWAYS",
    "CALCULATE_RUNNING",
    "DEPTH_OBLIVIOUS",
    "NO_FAIR_TREE",
    "INCR_ONLY",
    "MAX_TRES",
    "NO_NORMAL_ALL",
    "NO_NORMAL_ASSOC",
    "NO_NORMAL_PART",
    "NO_NORMAL_QOS",
    "NO_NORMAL_TRES",
    "SMALL_RELATIVE_TO_TIME",
    "FAIR_TREE",
)
WEIGHT_KEYS = (
    "PriorityWeightAge",
    "PriorityWeightAssoc",
    "PriorityWeightFairshare",
    "PriorityWeightJobSize",
    "PriorityWeightPartition",
    "PriorityWeightQOS",
)
ALGORITHMS = ("fair_tree", "classic", "depth_oblivious", "linear")
HISTORY_KEYS = ("PriorityDecayHalfLife", "PriorityFlags", "TRESBillingWeights")
"""The settings whose earlier values the store keeps (``cluster_config_history``):
slurmctld charges a job at the billing of its start (TRESBillingWeights, PriorityFlags'
MAX_TRES) and decays each pass at the half-life then in force, so a change applies from
its moment on and leaves the usage charged before it as it was."""


def _duration(key: str, text: str) -> str:
    mins = parse_duration_mins(text, what=key)
    return "0" if mins is None else str(mins)


def _positive_minutes(key: str, text: str) -> str:
    value = _duration(key, text)
    if int(value) < 1:
        raise InvalidValue(f"invalid {key} '{text}': must be at least 1 minute")
    return value


def _weight(key: str, text: str) -> str:
    try:
        value = int(str(text).strip())
    except ValueError:
        raise InvalidValue(f"invalid {key} '{text}': expected a whole number >= 0") from None
    if value < 0 or value > 0xFFFFFFFF:
        raise InvalidValue(f"invalid {key} '{text}': expected a whole number from 0 to 4294967295")
    return str(value)


def _dampening(key: str, text: str) -> str:
    value = _weight(key, text)
    if not 1 <= int(value) <= 65535:
        raise InvalidValue(f"invalid {key} '{text}': expected a whole number from 1 to 65535")
    return value


def _flags(key: str, text: str) -> str:
    words = [w.strip().upper() for w in str(text).split(",") if w.strip()]
    for word in words:
        if word not in PRIORITY_FLAGS:
            raise InvalidValue(
                f"invalid PriorityFlags value '{word}'{did_you_mean(word, PRIORITY_FLAGS)}"
            )
    return ",".join(words)


def _choice(choices: tuple[str, ...]):
    """One of ``choices``, in any case, stored as the choice is spelled."""
    spelled = {c.upper(): c for c in choices}

    def check(key: str, text: str) -> str:
        value = spelled.get(str(text).strip().upper())
        if value is None:
            raise InvalidValue(f"invalid {key} '{text}': expected one of {', '.join(choices)}")
        return value

    return check


def _yes_no(key: str, text: str) -> str:
    value = str(text).strip().upper()
    if value in ("YES", "Y", "TRUE", "1"):
        return "YES"
    if value in ("NO", "N", "FALSE", "0"):
        return "NO"
    raise InvalidValue(f"invalid {key} '{text}': expected YES or NO")


def accounting_tres(text: str) -> list[str]:
    """The TRES names AccountingStorageTRES adds to the tracked ones, canonical, in order
    (:class:`InvalidValue` for an unknown one)."""
    return [tresmod.normalize_name(part) for part in str(text or "").split(",") if part.strip()]


def tracked_tres(text: str) -> tuple[str, ...]:
    """Slurm's tracked TRES: the defaults, then what AccountingStorageTRES (``text``) adds."""
    extra = accounting_tres(text)
    return tresmod.DEFAULT_TRES + tuple(
        dict.fromkeys(n for n in extra if n not in tresmod.DEFAULT_TRES)
    )


def _accounting_tres(key: str, text: str) -> str:
    """Checked when set or imported: a stored name fscli does not know would make every
    sshare fail later."""
    accounting_tres(text)
    return str(text).strip()


def _tres_weights(key: str, text: str) -> str:
    parse_tres_weights(text, key)
    return str(text).strip()


def _anchor(key: str, text: str) -> str:
    """A date, or whole epoch seconds of any size: the anchor is stored, and exported, as
    its epoch seconds (``38`` for passes 38 s past the minute), which must read back;
    :func:`parse_date` takes epoch seconds only as plausible moments (9 to 11 digits)."""
    raw = str(text).strip()
    if not re.fullmatch(r"-?[0-9]{1,20}", raw):
        return str(parse_date(text, key))
    if not MIN_EPOCH <= int(raw) <= MAX_EPOCH:
        raise InvalidValue(f"invalid {key} '{text}': out of range (1900 to 9999)")
    return str(int(raw))


def _text(key: str, text: str) -> str:
    return str(text).strip()


_PART_ENFORCE = {
    "YES": "ANY",
    "UP": "ANY",
    "TRUE": "ANY",
    "1": "ANY",
    "ANY": "ANY",
    "NO": "NO",
    "DOWN": "NO",
    "FALSE": "NO",
    "0": "NO",
    "ALL": "ALL",
}


def _part_enforce(key: str, text: str) -> str:
    """EnforcePartLimits as ``parse_part_enforce_type`` reads it: YES (UP, TRUE, 1) is ANY."""
    value = _PART_ENFORCE.get(str(text).strip().upper())
    if value is None:
        raise InvalidValue(f"invalid {key} '{text}': expected NO, YES, ANY or ALL")
    return value


def megabytes(key: str, text: str) -> str:
    """A memory size in MB, a whole number (slurm.conf's DefMemPerCPU etc.); 0 = unset."""
    raw = str(text).strip()
    if not re.fullmatch(r"[0-9]{1,15}", raw):
        raise InvalidValue(f"invalid {key} '{text}': expected megabytes, a whole number >= 0")
    return str(int(raw))


# canonical key -> (default text, validator)
KEYS: dict[str, tuple[str, object]] = {
    "PriorityType": ("priority/multifactor", _choice(("priority/multifactor", "priority/basic"))),
    "PriorityFlags": ("", _flags),
    "PriorityDecayHalfLife": ("10080", _duration),
    "PriorityCalcPeriod": ("5", _positive_minutes),
    "PriorityMaxAge": ("10080", _duration),
    "PriorityFavorSmall": ("NO", _yes_no),
    "PriorityUsageResetPeriod": ("NONE", _choice(RESET_PERIODS)),
    "FairShareDampeningFactor": ("1", _dampening),
    "PriorityWeightAge": ("0", _weight),
    "PriorityWeightAssoc": ("0", _weight),
    "PriorityWeightFairshare": ("0", _weight),
    "PriorityWeightJobSize": ("0", _weight),
    "PriorityWeightPartition": ("0", _weight),
    "PriorityWeightQOS": ("0", _weight),
    "PriorityWeightTRES": ("", _tres_weights),
    "PriorityCalcAnchor": ("0", _anchor),
    "TRESBillingWeights": ("", _tres_weights),
    "AccountingStorageEnforce": (",".join(sorted(DEFAULT_ENFORCE)), _text),  # in force unset
    "AccountingStorageTRES": ("", _accounting_tres),
    "ClusterName": ("", _text),
    "EnforcePartLimits": ("NO", _part_enforce),
    "DefMemPerCPU": ("0", megabytes),
    "DefMemPerNode": ("0", megabytes),
    "MaxMemPerCPU": ("0", megabytes),
}
_LOWER = {k.lower(): k for k in KEYS}
MINUTE_KEYS = frozenset(
    k for k, (_, check) in KEYS.items() if check in (_duration, _positive_minutes)
)
"""Keys stored in minutes, which people read as Slurm prints them (D-HH:MM:SS)."""


def written(key: str, stored: str) -> str:
    """A stored value as slurm.conf writes it and ``config set`` takes it: durations as
    D-HH:MM:SS (``14-00:00:00``, not the minutes stored), PriorityType in lower case."""
    from fscli.engine.timestr import format_mins

    if key in MINUTE_KEYS and str(stored).isdigit():
        return format_mins(int(stored))
    if key == "PriorityType":
        return str(stored).lower()
    return stored


def readable(key: str, stored: str) -> str:
    """A stored value as a person reads it in a change line or history: :func:`written`,
    but the pass anchor as a UTC date (files keep its epoch seconds, which read back
    exactly; in a sentence they mean nothing)."""
    from fscli.engine.timestr import utc_iso

    if key == "PriorityCalcAnchor" and re.fullmatch(r"-?[0-9]+", str(stored)):
        return utc_iso(int(stored))
    return written(key, stored)


def canonical_key(key: str) -> str:
    """The canonical spelling of a config key, or an error listing close matches."""
    found = _LOWER.get(key.strip().lower())
    if found is None:
        near = closest(key, KEYS, 3)
        hint = f"; did you mean {', '.join(near)}?" if near else f"; known keys: {', '.join(KEYS)}"
        raise UsageProblem(f"unknown config key '{key}'{hint}")
    return found


def validate(key: str, value: str) -> tuple[str, str]:
    """(canonical key, normalized value text) or :class:`InvalidValue`."""
    canon = canonical_key(key)
    checker = KEYS[canon][1]
    return canon, checker(canon, value)  # type: ignore[operator]


def parse_tres_weights(text: str, key: str = "TRESBillingWeights") -> dict[str, float]:
    """``"CPU=1.0,Mem=0.25G,GRES/gpu=2.0"`` → weights per base unit (MB for memory)."""
    weights: dict[str, float] = {}
    if not str(text or "").strip():
        return weights
    for item in str(text).split(","):
        name, sep, raw = item.partition("=")
        if not sep:
            raise InvalidValue(f"invalid {key} item '{item}': expected NAME=WEIGHT")
        canon = tresmod.normalize_name(name)
        raw = raw.strip()
        unit = raw[-1:].lower() if raw[-1:].isalpha() else ""
        number = raw[:-1] if unit else raw
        try:
            weight = float(number)
        except ValueError:
            raise InvalidValue(f"invalid {key} weight '{raw}' for {canon}") from None
        if not 0 <= weight < float("inf"):  # NaN fails too
            raise InvalidValue(
                f"invalid {key} weight '{raw}' for {canon}: must be a finite number >= 0"
            )
        if unit:
            if unit not in tresmod.UNIT_POWER:
                raise InvalidValue(f"invalid unit '{unit}' in {key} weight '{raw}'")
            base = 2 if tresmod.is_mb_based(canon) else 0
            weight /= 1024 ** (tresmod.UNIT_POWER[unit] - base)
        weights[canon] = weight
    return weights


def enforce_flags(text: str) -> frozenset[str]:
    """AccountingStorageEnforce as the checker reads it (``safe`` implies ``limits``,
    ``limits`` and ``qos`` imply ``associations``); unset = associations,limits,qos."""
    words = {w.strip().lower() for w in text.split(",") if w.strip()}
    if not words:
        return DEFAULT_ENFORCE
    if "safe" in words:
        words.add("limits")
    if words & {"limits", "qos"}:
        words.add("associations")
    return frozenset(words)


@dataclass
class PriorityConfig:
    """Typed priority configuration (durations in seconds)."""

    flags: frozenset[str] = frozenset()
    decay_half_life: int = 604800
    calc_period: int = 300
    max_age: int = 604800
    favor_small: bool = False
    usage_reset_period: str = "NONE"
    dampening: int = 1
    weights: dict[str, int] = field(default_factory=dict)
    tres_weights: dict[str, float] = field(default_factory=dict)
    calc_anchor: int = 0
    billing_weights: dict[str, float] = field(default_factory=dict)
    priority_type: str = "priority/multifactor"
    weight_tres_text: str = ""  # PriorityWeightTRES as set, for sprio's header
    enforce: frozenset[str] = DEFAULT_ENFORCE  # AccountingStorageEnforce, as the checker reads it
    accounting_tres: str = ""  # AccountingStorageTRES: the TRES sshare lists beyond the base ones
    enforce_part_limits: bool = False  # EnforcePartLimits: refuse at submission (ANY/ALL)
    def_mem_per_cpu: int = 0  # MB; 0 = not set
    def_mem_per_node: int = 0
    max_mem_per_cpu: int = 0
    usage_reset_at: int | None = None  # when PriorityUsageResetPeriod=NOW was set
    earlier: tuple[tuple[int, PriorityConfig], ...] = ()
    """The settings in force before each change of a :data:`HISTORY_KEYS` key, oldest
    first: ``(until, settings)``, each in force up to (not at) ``until``; these settings
    from the last ``until`` on. Usage is charged and decayed under them (billing at a
    job's start, each pass's half-life); everything else (the algorithm, the weights of
    job priority) is computed under the current settings, at any moment viewed. Empty
    (the engine's fast path) unless a change found usage charged before it."""

    def at(self, moment: int) -> PriorityConfig:
        """The settings in force at ``moment`` (without their own history)."""
        for until, settings in self.earlier:
            if moment < until:
                return settings
        return self

    @classmethod
    def from_mapping(
        cls, values: dict[str, str], history: Iterable[tuple[str, int, str]] = ()
    ) -> PriorityConfig:
        """Build from stored texts; missing keys take Slurm's defaults. ``history``: the
        replaced values, as ``(key, replaced at, value)`` (``cluster_config_history``)."""
        current = cls._of(values)
        by_key: dict[str, list[tuple[int, str]]] = {}
        for key, until, value in history:
            by_key.setdefault(key, []).append((until, value))
        if not by_key:
            return current
        for changes in by_key.values():
            changes.sort()
        earlier = []
        for until in sorted({u for changes in by_key.values() for u, _ in changes}):
            then = dict(values)
            for key, changes in by_key.items():
                # in force just before ``until``: the first value replaced at or after it
                found = next((v for u, v in changes if u >= until), None)
                if found is not None:
                    then[key] = found
            earlier.append((until, cls._of(then)))
        current.earlier = tuple(earlier)
        return current

    @classmethod
    def _of(cls, values: dict[str, str]) -> PriorityConfig:
        merged = {k: d for k, (d, _) in KEYS.items()}
        merged.update(values)
        flags_text = merged["PriorityFlags"].upper()
        # Slurm matches flags by substring on the whole string (xstrcasestr).
        flags = frozenset(f for f in PRIORITY_FLAGS if f in flags_text)
        return cls(
            flags=flags,
            decay_half_life=int(merged["PriorityDecayHalfLife"]) * 60,
            calc_period=int(merged["PriorityCalcPeriod"]) * 60,
            max_age=int(merged["PriorityMaxAge"]) * 60,
            favor_small=merged["PriorityFavorSmall"] == "YES",
            usage_reset_period=merged["PriorityUsageResetPeriod"],
            dampening=int(merged["FairShareDampeningFactor"]),
            weights={k: int(merged[k]) for k in WEIGHT_KEYS},
            tres_weights=parse_tres_weights(merged["PriorityWeightTRES"], "PriorityWeightTRES"),
            calc_anchor=int(merged["PriorityCalcAnchor"]),
            billing_weights=parse_tres_weights(merged["TRESBillingWeights"]),
            priority_type=merged["PriorityType"].lower(),
            weight_tres_text=merged["PriorityWeightTRES"],
            enforce=enforce_flags(merged["AccountingStorageEnforce"]),
            accounting_tres=merged["AccountingStorageTRES"],
            enforce_part_limits=merged["EnforcePartLimits"].upper() != "NO",
            def_mem_per_cpu=int(merged["DefMemPerCPU"] or 0),
            def_mem_per_node=int(merged["DefMemPerNode"] or 0),
            max_mem_per_cpu=int(merged["MaxMemPerCPU"] or 0),
            usage_reset_at=int(merged.get(RESET_AT_KEY) or 0) or None,
        )

    @property
    def algorithm(self) -> str:
        """fair_tree unless NO_FAIR_TREE (classic) or DEPTH_OBLIVIOUS."""
        if "DEPTH_OBLIVIOUS" in self.flags:
            return "depth_oblivious"
        if "NO_FAIR_TREE" in self.flags:
            return "classic"
        return "fair_tree"
