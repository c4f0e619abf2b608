"""A pytest plugin that writes each test's CPU time, to find what to mark slow.

``CPU_PER_TEST=/tmp/cpu python -m pytest -n auto -p tests.cpu_per_test`` writes
``/tmp/cpu.gw0``, ``/tmp/cpu.gw1`` (``/tmp/cpu.main`` without workers): one line a test,
``seconds<TAB>1 if marked slow else 0<TAB>node id``. The seconds are user + sys of the
test process and of the children it waited for, from the test's setup to its teardown
(a module's fixtures count in its first test). CPU, not wall time, because a busy machine
stretches wall time by how busy it is.
"""

from __future__ import annotations

import os
import resource

import pytest

_ROWS: list[tuple[float, bool, str]] = []


def _cpu() -> float:
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    began = _cpu()
    yield
    _ROWS.append((_cpu() - began, item.get_closest_marker("slow") is not None, item.nodeid))


def pytest_sessionfinish(session):
    out = os.environ.get("CPU_PER_TEST")
    if out and _ROWS:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(f"{out}.{worker}", "w") as file:
            file.writelines(f"{cpu:.4f}\t{int(slow)}\t{nodeid}\n" for cpu, slow, nodeid in _ROWS)
