"""docs/fidelity.md names only tests that exist: a pinned behaviour must stay pinned."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _references(text: str) -> list[tuple[str, str | None]]:
    """(test file, test function or None) for every `tests/...py[::name]` and every
    following `::name` (which names a test of the file named before it)."""
    refs: list[tuple[str, str | None]] = []
    path = None
    for full, name, short in re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`|`::(\w+)`", text):
        path = full or path
        refs.append((path, name or short or None))
    return refs


def test_every_test_the_fidelity_document_names_exists():
    refs = _references((ROOT / "docs" / "fidelity.md").read_text())
    assert len(refs) > 40
    missing = [
        f"{path}::{name}" if name else path
        for path, name in refs
        if not (ROOT / path).is_file()
        or (name and not re.search(rf"^def {name}\(", (ROOT / path).read_text(), re.MULTILINE))
    ]
    assert missing == []
