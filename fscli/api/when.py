"""Moments as the API takes them: epoch seconds, a datetime, Slurm's time words, or now.

A leaf of the API (the store, the views and the commands' ``--at`` all read moments), so
that no module has to import the store facade to learn what a moment is.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from datetime import datetime

When = Union[int, float, str, "datetime", None]
"""A moment: epoch seconds, a datetime, Slurm's time words (``now-1day``,
``2026-05-01T12:00:00``), or None for now."""


def moment(at: When, wall: int | None = None) -> int:
    """``at`` as epoch seconds (now when None)."""
    from fscli.engine.timestr import parse_when

    now = int(time.time()) if wall is None else wall
    if at is None:
        return now
    if hasattr(at, "timestamp"):  # a datetime
        return int(at.timestamp())
    if isinstance(at, (int, float)):
        return int(at)
    return parse_when(at, now)
