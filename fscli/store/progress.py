"""How the store's long loops report progress: a ``progress(done, total)`` callable that
the command line turns into a bar on a terminal (``fscli.cli.progress``), called every
:data:`EVERY` items so that 100,000 rows cost a hundred calls, not 100,000."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]
EVERY = 1000


def tick(progress: Progress | None, done: int, total: int) -> None:
    """Tell ``progress`` (if any) about item ``done`` of ``total``, every :data:`EVERY`."""
    if progress is not None and not done % EVERY:
        progress(done, total)
