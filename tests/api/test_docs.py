"""docs/api.md's examples run, in order, as one program in an empty directory, with a
fresh home (no XDG or FSCLI variables): on a new store, as a new user runs them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.backends import BACKEND

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


@pytest.mark.skipif(BACKEND != "sqlite", reason="the examples make an SQLite file")
def test_the_examples_in_docs_api_md_run(tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert len(blocks) >= 5
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in [n for n in os.environ if n.startswith(("XDG_", "FSCLI_"))]:
        monkeypatch.delenv(name)
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)  # noqa: S102 - our own docs
    assert (tmp_path / "site.db").exists()
    home = tmp_path / "home"  # nothing written anywhere else but sprio's pass cache
    passcache = home / ".cache" / "fscli" / "passcache"
    outside = {str(p.relative_to(home)) for p in home.glob("**/*") if passcache not in p.parents}
    assert outside <= {".cache", ".cache/fscli", ".cache/fscli/passcache"}
