"""README.md's commands run, in order, as a new admin pastes them, on a fresh home.

Its ``sh`` blocks run in one bash (aliases and all) with the installed ``fscli``, in an
empty directory holding the checkout's ``completions/``, with ``HOME`` a new directory and
no ``XDG_*`` or ``FSCLI_*`` variable; then its ``python`` block. Left out: what installs
fscli or runs these tests (``python3 -m venv``, ``. .venv/bin/activate``, ``pip install``,
``python -m pytest``) and what needs a database server (``dbhost``). ``fscli demo``'s
last lines, the commands it says to go on with, run too. Any failing command, any
traceback, fails the test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.backends import BACKEND

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
SETUP = re.compile(r"^(python3? -m (venv|pytest)|\. \.venv/bin/activate|pip install)\b")


def blocks(text: str) -> list[tuple[str, str]]:
    """(language, text) of every fenced ``sh`` and ``python`` block, in order."""
    return re.findall(r"^```(sh|python)\n(.*?)^```", text, re.DOTALL | re.MULTILINE)


def pasted(block: str) -> list[str]:
    """The lines of an ``sh`` block this test runs: each command a user would paste, less
    the ``&&``-joined parts that install fscli or run the tests, less server lines."""
    lines = []
    for line in block.splitlines():
        if not line.strip() or "dbhost" in line:
            continue
        parts = [p for p in line.split(" && ") if not SETUP.match(p.strip())]
        if parts:
            lines.append(" && ".join(parts))
    return lines


def test_the_readme_blocks_are_found():
    found = blocks(README.read_text())
    assert [lang for lang, _ in found].count("python") == 1
    assert pasted("python3 -m venv .venv && . .venv/bin/activate && pip install . && fscli demo")
    assert pasted(". .venv/bin/activate && pip install -q '.[test]' && python -m pytest") == []
    shells = [line for lang, text in found if lang == "sh" for line in pasted(text)]
    assert shells[0] == "fscli demo"
    assert "alias sacctmgr='fscli sacctmgr'" in shells


@pytest.mark.slow
@pytest.mark.skipif(BACKEND != "sqlite", reason="the README's default store is an SQLite file")
@pytest.mark.skipif(
    not (BIN / "fscli").exists() or shutil.which("bash") is None,
    reason="needs the installed fscli beside this python, and bash",
)
def test_the_readme_runs_in_order_on_a_fresh_home(tmp_path):
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    (work / "completions").symlink_to(ROOT / "completions")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("XDG_", "FSCLI_", "_FSCLI_", "COMP_"))
    }
    env.update(HOME=str(home), PATH=f"{BIN}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}")
    script = [
        "set -eE -o pipefail",
        "shopt -s expand_aliases",
        "trap 'echo \"README command failed: $BASH_COMMAND\" >&2' ERR",
    ]
    for lang, text in blocks(README.read_text()):
        if lang == "sh":
            for line in pasted(text):
                script += [f"echo '$ '{_quote(line)} >&2"]
                if line.endswith("fscli demo"):  # its last lines: commands to go on with
                    script += [f"{line} 2> demo.err", "cat demo.err >&2"]
                    script += ["tail -3 demo.err | cut -c7- > next.sh"]
                    script += ["cat next.sh >&2", "bash -eE next.sh"]
                else:
                    script += [line]
        else:
            script += [f"{sys.executable} - <<'PYTHON'", text + "PYTHON"]
    result = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert "Traceback" not in output and "error" not in output.lower(), output[-4000:]
    assert (home / ".local/share/bash-completion/completions/fscli").exists()
    assert (home / ".local/share/fscli/fscli.db").exists()
    assert (work / "c1.cfg").exists() and (work / "site.db").exists()
    assert "bio|dana|1|10|high,normal" in output  # the sacctmgr block built on the one before


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"
