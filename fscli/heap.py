"""Keep Python's cyclic garbage collector away from one command's bulk data.

A view loads and computes hundreds of thousands of small objects (associations,
charges, rows) that all live until the command ends and form no reference cycles.
Left alone, the collector rescans the growing heap again and again (a third of
``sshare``'s run time at 100,000 associations). :func:`bulk` pauses it while they are
built and then freezes them (``gc.freeze``): later collections skip them, and reference
counting still frees them when they are dropped.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def bulk() -> Iterator[None]:
    """Pause the cyclic collector while the block builds long-lived, acyclic data."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
