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


def test_apply_holds_the_trees_it_read_until_the_exit(monkeypatch, fscli, tmp_path):
    """The plan (with the tree read from the file), what reading the file made, and the
    cluster as stored: 0.02-0.07 s each to free at 100,000 associations."""
    monkeypatch.setattr(heap, "_kept", [])
    monkeypatch.setattr(heap, "_keeping", True)
    tree = tmp_path / "c1.yaml"
    tree.write_text("cluster:\n  name: c1\naccounts:\n  chem: {}\nusers:\n  ann:\n")
    tree.write_text(tree.read_text() + "    associations:\n    - account: chem\n")
    fscli.ok("-Q", "apply", str(tree))
    kept = [type(kept).__name__ for kept in heap._kept]
    assert sorted(kept) == ["Composer", "MappingNode", "Plan", "_Users"]  # c1 was not stored
    tree.write_text(tree.read_text().replace("chem: {}", "chem: {fairshare: 2}"))
    heap._kept.clear()
    fscli.ok("-Q", "apply", str(tree))
    kept = [type(kept).__name__ for kept in heap._kept]
    assert sorted(kept) == ["Composer", "MappingNode", "Plan", "TreeSpec", "_Users"]
