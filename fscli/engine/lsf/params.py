"""lsb.params: the parameters of the dynamic priority, their defaults and checks."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fscli.errors import InvalidValue, UsageProblem, closest


def _number(name: str, text: str, low: float = 0.0, high: float | None = None) -> str:
    try:
        value = float(str(text).strip())
    except ValueError:
        raise InvalidValue(f"invalid {name} '{text}': expected a number") from None
    if not math.isfinite(value):
        raise InvalidValue(f"invalid {name} '{text}': expected a finite number")
    if value < low or (high is not None and value > high):
        span = f"from {low:g} to {high:g}" if high is not None else f">= {low:g}"
        raise InvalidValue(f"invalid {name} '{text}': must be {span}")
    return f"{value:.12g}"


def _fraction(name: str, text: str) -> str:
    return _number(name, text, 0.0, 1.0)


def _yes_no(name: str, text: str) -> str:
    value = str(text).strip().upper()
    if value in ("Y", "YES"):
        return "Y"
    if value in ("N", "NO"):
        return "N"
    raise InvalidValue(f"invalid {name} '{text}': expected Y or N")


PARAMS: dict[str, tuple[str, object]] = {
    "CPU_TIME_FACTOR": ("0.7", _number),
    "RUN_TIME_FACTOR": ("0.7", _number),
    "RUN_JOB_FACTOR": ("3", _number),
    "COMMITTED_RUN_TIME_FACTOR": ("0", _fraction),
    "HIST_HOURS": ("5", _number),
    "RUN_TIME_DECAY": ("N", _yes_no),
    "ENABLE_HIST_RUN_TIME": ("N", _yes_no),
    "FAIRSHARE_ADJUSTMENT_FACTOR": ("0", _number),
}
"""Canonical LSF parameter name -> (LSF default as text, validator)."""

PARAM_DEFAULTS: dict[str, str] = {name: default for name, (default, _) in PARAMS.items()}


def canonical_param(name: str) -> str:
    """The canonical (upper-case) spelling of an LSF parameter, or :class:`UsageProblem`."""
    canon = str(name).strip().upper()
    if canon not in PARAMS:
        near = closest(str(name).strip(), PARAMS, 3)
        hint = f"; did you mean {', '.join(near)}?" if near else f"; known: {', '.join(PARAMS)}"
        raise UsageProblem(f"unknown LSF parameter '{name}'{hint}")
    return canon


def validate_param(name: str, value: str) -> tuple[str, str]:
    """(canonical name, normalized value text), or :class:`InvalidValue` for a bad value."""
    canon = canonical_param(name)
    return canon, PARAMS[canon][1](canon, value)  # type: ignore[operator]


@dataclass(frozen=True, slots=True)
class LsfParams:
    """Typed fairshare parameters; field names are the LSF names in lower case."""

    cpu_time_factor: float = 0.7
    run_time_factor: float = 0.7
    run_job_factor: float = 3.0
    committed_run_time_factor: float = 0.0
    hist_hours: float = 5.0
    run_time_decay: bool = False
    enable_hist_run_time: bool = False
    fairshare_adjustment_factor: float = 0.0

    @classmethod
    def from_mapping(cls, *layers: Mapping[str, str] | None) -> LsfParams:
        """Validate and merge layers of ``name -> text``; later layers win.

        Pass the global (lsb.params) values first and the queue's overrides after them.
        """
        merged = dict(PARAM_DEFAULTS)
        for layer in layers:
            for key, value in (layer or {}).items():
                canon, text = validate_param(key, value)
                merged[canon] = text
        values: dict[str, Any] = {
            k.lower(): (v == "Y" if v in ("Y", "N") else float(v)) for k, v in merged.items()
        }
        return cls(**values)


def params_text(params: Mapping[str, str]) -> str:
    """A queue's parameter overrides as lsb.queues writes them (``HIST_HOURS=10
    RUN_JOB_FACTOR=5``, by name): how the store keeps them and ``queue list`` shows them."""
    return " ".join(f"{k}={v}" for k, v in sorted(params.items()))


def parse_params_text(text: str | None) -> dict[str, str]:
    """:func:`params_text` read back."""
    return dict(word.split("=", 1) for word in (text or "").split())
