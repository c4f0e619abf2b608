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


_kept: list = []
_keeping = False


def keep_until_exit(*objects: object) -> None:
    """Hold ``objects`` until the process ends, when it ends without tearing its heap
    down (the ``fscli`` program: :func:`fscli.cli.main.console`). A view's answer holds a
    few hundred thousand objects; freeing them one by one as the command returns costs
    0.07 s at 100,000 jobs, just before an exit that discards them anyway. Anywhere else
    (tests, programs using the library) nothing is held."""
    if _keeping:
        _kept.extend(objects)


def exit_without_teardown() -> None:
    """This process ends with ``os._exit``: :func:`keep_until_exit` holds from now on."""
    global _keeping
    _keeping = True
