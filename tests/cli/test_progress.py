"""Progress bars of long commands: on stderr when it is a terminal, never into a pipe or a
file, never with -Q; stdout is the same either way."""

from __future__ import annotations

import pytest

from fscli.cli import progress
from fscli.store.progress import EVERY, tick

HEADER = "JobID|User|Account|Partition|QOS|AllocCPUS|ElapsedRaw|Start|End|State\n"
JOBS = 2500


@pytest.fixture
def sacct(fscli, tmp_path):
    """A store with one user, and an sacct file of 2,500 of its jobs."""
    fscli.ok("-Q", "cluster", "add", "c")
    fscli.ok("-Q", "account", "add", "a")
    fscli.ok("-Q", "user", "add", "u1", "account=a")
    path = tmp_path / "sacct.txt"
    path.write_text(
        HEADER
        + "".join(
            f"{i}|u1|a|low|normal|1|60|2026-05-01T10:00:00|2026-05-01T10:01:00|COMPLETED\n"
            for i in range(1, JOBS + 1)
        )
    )
    return str(path)


SUMMARY = "imported 2500 job(s) on c (2500 completed, 0 running)\n"


def test_into_a_pipe_there_is_no_bar(fscli, sacct):
    result = fscli.ok("usage", "import", sacct)
    assert (result.stdout, result.stderr) == ("", SUMMARY)


def test_on_a_terminal_the_bar_is_on_stderr(fscli, sacct, monkeypatch):
    monkeypatch.setattr("fscli.render.tables.is_terminal", lambda stream: True)
    monkeypatch.setattr(progress, "DELAY", 0.0)  # show at once, not after a second
    result = fscli.ok("usage", "import", sacct)
    assert result.stdout == ""
    assert "importing usage" in result.stderr and "\x1b[" in result.stderr
    assert result.stderr.endswith(SUMMARY)


def test_quiet_means_no_bar_on_a_terminal_either(fscli, sacct, monkeypatch):
    monkeypatch.setattr("fscli.render.tables.is_terminal", lambda stream: True)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    result = fscli.ok("-Q", "usage", "import", sacct)
    assert (result.stdout, result.stderr) == ("", "")


def test_a_quick_command_on_a_terminal_shows_no_bar(fscli, sacct, monkeypatch):
    """Under a second (DELAY) nothing is drawn: quick commands do not flash a bar."""
    monkeypatch.setattr("fscli.render.tables.is_terminal", lambda stream: True)
    monkeypatch.setattr(progress, "DELAY", 3600.0)
    result = fscli.ok("usage", "import", sacct)
    assert "importing" not in result.stderr and result.stderr.endswith(SUMMARY)


def test_export_shows_a_bar_on_a_terminal_and_the_same_stdout(fscli, sacct, monkeypatch):
    piped = fscli.ok("export").stdout
    monkeypatch.setattr("fscli.render.tables.is_terminal", lambda stream: True)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    result = fscli.ok("export")
    assert result.stdout == piped and "exporting" in result.stderr


def test_loops_report_every_thousand_items():
    calls = []
    for i in range(2500):
        tick(lambda done, total: calls.append((done, total)), i, 2500)
    tick(None, 0, 1)  # no callback: nothing to do
    assert EVERY == 1000 and calls == [(0, 2500), (1000, 2500), (2000, 2500)]
