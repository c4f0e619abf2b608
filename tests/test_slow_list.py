"""Every line of ``tests/slow.txt`` names a test function that exists: a test renamed or
removed must leave the list too (else the list would silently mark nothing)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import slow_list

ROOT = Path(__file__).resolve().parents[1]


def test_every_listed_slow_test_exists():
    listed = slow_list()
    assert len(listed) > 100
    missing = []
    for entry in sorted(listed):
        path, _, name = entry.partition("::")
        text = (ROOT / path).read_text() if (ROOT / path).is_file() else ""
        if not re.search(rf"^(async )?def {re.escape(name)}\(", text, re.MULTILINE):
            missing.append(entry)
    assert missing == []
