"""TRES (trackable resource) strings: ``cpu=10,mem=20G,node=2,gres/gpu:a100=2``.

Values are kept as integers in the TRES base unit: memory and burst buffers in
megabytes, everything else as a count. Parsing follows Slurm: ``K``/``M`` on memory
leave the number as megabytes, ``G``/``T``/``P`` multiply by 1024 steps; on other
TRES a suffix ``K`` multiplies by 1024, ``M`` by 1024², ... A value of ``-1`` means
"clear this TRES" and is kept as ``CLEAR`` so that ``modify`` can drop it.
"""

from __future__ import annotations

import re

from fscli.errors import InvalidValue

CLEAR = -1
DEFAULT_TRES = ("cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages")
"""Slurm's always-tracked TRES, in the order of their ids (1 to 8): the names a TRES list
(sshare's TRESRunMins, GrpTRESRaw) shows, zeros included, before AccountingStorageTRES's."""
PREFIX_TYPES = ("gres/", "license/", "bb/")
KNOWN_HELP = (
    "cpu, mem, node, energy, billing, fs/disk, vmem, pages, gres/NAME[:TYPE], license/NAME, bb/NAME"
)

UNIT_POWER = {"k": 1, "m": 2, "g": 3, "t": 4, "p": 5}
"""Powers of 1024 of the unit suffixes (K, M, G, T, P)."""
MAX_VALUE = 2**63 - 1  # the largest amount a 64-bit column holds
_VALUE = re.compile(r"(\d+(?:\.\d+)?)([kmgtpKMGTP]?)")
_NAME = re.compile(r"[a-z0-9_.+-]+(?::[a-z0-9_.+-]+)?")


def normalize_name(name: str) -> str:
    """Canonical TRES name, or :class:`InvalidValue` listing the known names."""
    key = name.strip().lower()
    if key in DEFAULT_TRES:
        return key
    for prefix in PREFIX_TYPES:
        if key.startswith(prefix) and _NAME.fullmatch(key[len(prefix) :]):
            return key
    if key == "gpu" or key.startswith("gpu:"):
        raise InvalidValue(f"unknown TRES '{name}': GPUs are named gres/{key}")
    raise InvalidValue(f"unknown TRES '{name}': known TRES are {KNOWN_HELP}")


def is_mb_based(name: str) -> bool:
    return name in ("mem", "vmem") or name.startswith("bb/")


def parse_value(name: str, text: str) -> int:
    """One TRES amount in base units (MB for memory); ``CLEAR`` for -1."""
    raw = text.strip()
    if raw == "-1":
        return CLEAR
    match = _VALUE.fullmatch(raw)
    if not match:
        raise InvalidValue(
            f"invalid value '{text}' for TRES {name}: expected a number like 8, 64G or -1"
        )
    digits, unit = match.group(1), match.group(2).lower()
    if is_mb_based(name):
        power = max(UNIT_POWER.get(unit, 2) - 2, 0) if unit else 0
    else:
        power = UNIT_POWER[unit] if unit else 0
    exact = digits.isdigit() and len(digits) < 20  # whole numbers exactly; float can be inf
    value = (int(digits) if exact else float(digits)) * (1024**power)
    if value > MAX_VALUE:
        raise InvalidValue(f"invalid value '{text}' for TRES {name}: at most {MAX_VALUE}")
    if value != int(value) and not is_mb_based(name):
        raise InvalidValue(f"invalid value '{text}' for TRES {name}: expected a whole number")
    return round(value)


def parse_tres(text: str, allow_clear: bool = True) -> dict[str, int]:
    """``"cpu=4,mem=8G"`` → ``{"cpu": 4, "mem": 8192}``."""
    result: dict[str, int] = {}
    if text is None or not str(text).strip():
        raise InvalidValue(
            "empty TRES string: expected NAME=COUNT[,NAME=COUNT...] like cpu=4,mem=8G"
        )
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            raise InvalidValue(f"invalid TRES string '{text}': empty item")
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise InvalidValue(f"invalid TRES item '{item}': expected NAME=COUNT like cpu=4")
        key = normalize_name(name)
        amount = parse_value(key, value)
        if amount == CLEAR and not allow_clear:
            raise InvalidValue(f"invalid TRES item '{item}': -1 (clear) is not allowed here")
        if key in result:
            raise InvalidValue(f"TRES '{key}' given twice in '{text}'")
        result[key] = amount
    return result


# Slurm's TRES ids
_SLURM_IDS = {
    "cpu": 1,
    "mem": 2,
    "energy": 3,
    "node": 4,
    "billing": 5,
    "fs/disk": 6,
    "vmem": 7,
    "pages": 8,
}


def _tres_sort_key(name: str) -> tuple[int, str]:
    """Plain TRES by Slurm's id, then the others (gres/, license/, bb/) by name."""
    return (_SLURM_IDS.get(name, 100), name)


def tres_order(names) -> list[str]:
    """TRES names in Slurm's TRES-id order (cpu, mem, energy, node, billing, ..., gres)."""
    return sorted(names, key=_tres_sort_key)


def format_mb(value: int) -> str:
    """Memory in MB the way sacctmgr shows it, but never lossy: 1000M, 2G, 64000M, 1T."""
    for suffix, power in (("P", 3), ("T", 2), ("G", 1)):
        unit = 1024**power
        if value >= unit and value % unit == 0:
            return f"{value // unit}{suffix}"
    return f"{value}M"


def format_value(name: str, value: int, units: bool = True) -> str:
    if units and is_mb_based(name):
        return format_mb(value)
    return str(value)


def format_tres(tres: dict[str, int] | None, units: bool = True) -> str:
    """Canonical text in Slurm's TRES order (cpu, mem, energy, node, billing, ..., gres)."""
    if not tres:
        return ""
    return ",".join(f"{n}={format_value(n, tres[n], units)}" for n in tres_order(tres))


def merge_tres(old: dict[str, int] | None, change: dict[str, int]) -> dict[str, int]:
    """Apply a ``modify``: new values replace, ``CLEAR`` drops a TRES."""
    merged = dict(old or {})
    for name, value in change.items():
        if value == CLEAR:
            merged.pop(name, None)
        else:
            merged[name] = value
    return merged


def request_tres(
    cpus: int = 1, nodes: int = 1, tres: dict[str, int] | None = None
) -> dict[str, int]:
    """A job's TRES request: ``cpu`` and ``node`` from the counts unless ``tres`` names them."""
    out = {"cpu": cpus, "node": nodes}
    out.update(tres or {})
    return out
