"""``fscli.heap``: what the program holds until it exits without tearing its heap down."""

from __future__ import annotations

import weakref

from fscli import heap


class Thing:
    """Something weak references can follow."""


def test_answers_are_held_only_by_a_process_that_exits_without_teardown(monkeypatch):
    monkeypatch.setattr(heap, "_kept", [])
    monkeypatch.setattr(heap, "_keeping", False)
    freed = Thing()
    gone = weakref.ref(freed)
    heap.keep_until_exit(freed)
    del freed
    assert gone() is None  # the library and the tests hold nothing
    heap.exit_without_teardown()  # what the fscli program does first
    held = Thing()
    kept = weakref.ref(held)
    heap.keep_until_exit(held)
    del held
    assert kept() is not None
