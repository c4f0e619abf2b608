"""A progress bar on stderr for work that can take more than a second on a big store.

Only on a terminal (stderr, as :func:`fscli.render.tables.is_terminal` sees it) and not
with ``-Q``; into a pipe or a file nothing at all is written, so logs and scripts see the
same bytes as before. The bar shows once the work has run for :data:`DELAY` seconds
(quick commands never flash one) and is wiped when it ends. Work that reports its steps
gets a bar with a count; work that cannot (one big query) gets a moving bar.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Step = Callable[[int, int], None]
"""``step(done, total)``: what the API, store and io loops call every few hundred items."""

DELAY = 1.0


@contextmanager
def progress(app, label: str) -> Iterator[Step | None]:
    """Yields a ``step(done, total)`` callback that moves the bar, or None (no bar here:
    the loops then skip the call)."""
    import sys

    from fscli.render.tables import is_terminal

    if app.quiet or not is_terminal(sys.stderr):
        yield None
        return
    bar = _bar()
    task = bar.add_task(label, total=None)
    bar.start()

    def step(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    try:
        yield step
    finally:
        bar.stop()


def _bar():
    """A transient rich Progress on stderr that draws nothing before :data:`DELAY`."""
    from rich.progress import Progress

    from fscli.render.tables import console

    class Delayed(Progress):
        began = time.monotonic()  # this class is made for one bar, when it is needed

        def get_renderables(self):
            if time.monotonic() - self.began >= DELAY:
                yield from super().get_renderables()

    return Delayed(console=console(stderr=True), transient=True)
