"""The answer cache: a read command's printed answer, replayed while it provably holds.

slurmctld answers ``sshare`` from memory; fscli starts a new process per command, and on
a small store most of its time goes to Python's imports before a row is read. So the
``fscli`` program (:mod:`fscli.cli.answers`) keeps the bytes a read command printed, with
what they depend on, and a repeated question is answered from them before click or any
heavy module is imported:

- the question: the whole command line and every input that can change a printed byte
  (the key, which the CLI makes);
- the store state the answer was read at (:mod:`fscli.store.answers`): a replay reads
  the store file's stamp again, one query, and any write since (by fscli or any other
  program) makes the entry stale;
- the wall-clock window ``[lo, hi)`` in which the answer holds (None: unbounded). For
  ``sshare`` it is the stretch of the decay pass around "now" in which nothing the
  fair-share depends on happens (:func:`fscli.api.pass_state.answer_window`, noted by
  :func:`note_window` as the view computes).

This module is what the CLI reaches the store side through; it imports the standard
library and :mod:`fscli.store.answers` only.
"""

from __future__ import annotations

from fscli.store import answers as entries
from fscli.store import read_states

Window = tuple  # (lo, hi): epoch seconds, hi excluded; either may be None (unbounded)

_window: list[int] | None = None
"""The window noted while recording (:func:`note_window`), narrowed by each note."""


def listen() -> None:
    """Note the store state of every read, and the windows the views note, from now on."""
    global _window
    _window = None
    read_states.listen()


def listening() -> bool:
    """Whether a command that may be recorded runs (:func:`listen`)."""
    return read_states.listening()


def note_window(lo: int, hi: int) -> None:
    """The answer being computed holds for "now" in ``[lo, hi)`` (narrowing what an
    earlier note said)."""
    global _window
    _window = [lo, hi] if _window is None else [max(_window[0], lo), min(_window[1], hi)]


def noted_window() -> Window | None:
    """What :func:`note_window` said since :func:`listen`; None if nothing."""
    return None if _window is None else (_window[0], _window[1])


def record(name: str, key: tuple, answer: bytes, window: Window) -> bool:
    """Keep ``answer`` under ``name`` for the question ``key``, holding in ``window``,
    if every read of this process saw one store state; whether it was kept."""
    state = read_states.state_read()
    if state is None:
        return False
    lo, hi = window
    if lo is not None and hi is not None and lo >= hi:
        return False
    entries.write_entry(name, (key, entries.entry_state(state), lo, hi), answer)
    return True


def replay(name: str, key: tuple, now: float) -> bytes | None:
    """The answer kept under ``name`` for ``key``, if it holds at ``now`` (epoch seconds)
    on the store as it is now; None otherwise (then the command runs)."""
    found = entries.read_entry(name)
    if found is None:
        return None
    head, answer = found
    try:
        _, entry_key, state, lo, hi = head
        if entry_key != key:
            return None
        second = int(now)
        if (lo is not None and second < lo) or (hi is not None and second >= hi):
            return None
        if entries.current_state(state) != state[0]:
            return None
    except (TypeError, ValueError, IndexError):
        return None  # not an entry this code wrote
    return answer
