"""The suite does not depend on the caller's environment: a representative part of it
runs in a child pytest under hostile terminal, colour, locale, time-zone and home values
(tests/conftest.py normalises what the tests compare; the product's answers to these
variables are tested where they matter, e.g. tests/cli/test_tree.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PART = [
    "tests/cli/test_trees.py",
    "tests/cli/test_tree.py",
    "tests/cli/test_finish.py",
    "tests/cli/test_usage_history.py",
    "tests/render",
    "tests/io/test_usage_import.py",
]
"""Tests that print tables, trees, plans and colours, read times and write files."""
CHILD = ["-q", "-p", "no:cacheprovider", "-x", "-m", "not slow"]
"""The part's slow tests start processes that read no terminal, locale or clock: the
suite itself runs them."""

HOSTILE = {
    "narrow-dumb-chatham": {
        "NO_COLOR": "1",
        "FORCE_COLOR": "1",
        "COLUMNS": "40",
        "LINES": "5",
        "TERM": "dumb",
        "TZ": "Pacific/Chatham",  # +12:45/+13:45
        "LANG": "tr_TR.ISO-8859-9",
        "LC_ALL": "C",
        "HOME": "/dev/null",  # unwritable even for root: not a directory
    },
    "wide-colour-newfoundland": {
        "CLICOLOR_FORCE": "1",
        "COLUMNS": "300",
        "TERM": "xterm-256color",
        "TZ": "America/St_Johns",  # -03:30/-02:30
        "LC_ALL": "tr_TR.UTF-8",  # dotless i
        "LANGUAGE": "tr",
        "HOME": None,  # unset
    },
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_suite_passes_in_a_hostile_environment(name, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    for key, value in HOSTILE[name].items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *CHILD, *PART],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
