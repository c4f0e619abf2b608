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
    "tests/render",
    "tests/cli/test_tree.py",
    "tests/cli/test_finish.py",
    "tests/cli/test_report.py",
    "tests/cli/test_usage_history.py",
    "tests/io/test_usage_import.py",
    *(
        f"tests/cli/test_trees.py::{name}"
        for name in (
            "test_apply_prints_plan_then_second_apply_is_empty",
            "test_the_plan_is_a_tree_on_a_terminal",
            "test_a_long_plan_is_summed_up_unless_full_plan_and_quiet_prints_none",
            "test_export_to_a_file_is_all_or_nothing",
            "test_dump_default_file_name",
        )
    ),
]
"""One part per way the product meets the environment, each renderer at least once:
tables, trees, sacctmgr's and sreport's texts, sshare, sprio, bqueues and what-if
(``tests/render``, and through the CLI ``fscli tree``, ``fscli demo`` and ``sshare`` in
test_finish, ``fscli report``), a plan on a terminal and in a pipe (test_trees), moments
read and printed (usage history and import) and files written (export, dump). The rest
of test_trees applies, loads and dumps trees whose output no terminal setting shapes.
(``tests/render`` includes the charts: dates on their axes, drawn by matplotlib.)"""
CHILD = ["-q", "-p", "no:cacheprovider", "-x"]
"""The part runs whole, its tests marked slow too (drawn charts, a demo at 100 columns)."""

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
