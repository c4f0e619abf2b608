"""Every line of ``tests/slow.txt`` names a test function that exists: a test renamed or
removed must leave the list too (else the list would silently mark nothing)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import slow_list

ROOT = Path(__file__).resolve().parents[1]


def _tests(path: Path) -> set[str]:
    """``test_x`` and ``TestY::test_x`` for the test functions of one module."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {f"{node.name}::{f.name}" for f in node.body if hasattr(f, "name")}
    return {name for name in names if name.split("::")[-1].startswith("test")}


def test_every_listed_slow_test_exists():
    listed = slow_list()
    assert len(listed) > 100
    paths = {entry.split("::", 1)[0] for entry in listed}
    found = {
        f"{path}::{name}"
        for path in paths
        if (ROOT / path).is_file()
        for name in _tests(ROOT / path)
    }
    assert sorted(listed - found) == []
