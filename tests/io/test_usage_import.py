"""Imports of real sacct -P and sshare -P/-p output."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from fscli.engine.config import PriorityConfig
from fscli.engine.usage import Run, billable
from fscli.errors import InvalidValue
from fscli.io.usage_import import parse_sacct, parse_sshare
from tests.engine.adapt import run_usage

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "slurm-22.05"

# The job table of the classic_doc capture (notes.md), with steps and a pending job added.
SACCT = """\
JobID|User|Account|Partition|QOS|AllocCPUS|ElapsedRaw|Start|End|State|Priority
1|user1|b|low|normal|16|60|2026-11-21T15:18:00|2026-11-21T15:19:00|COMPLETED|10725
1.batch|||||16|60|2026-11-21T15:18:00|2026-11-21T15:19:00|COMPLETED|
2|user2|c|low|normal|20|60|2026-11-21T15:18:00|2026-11-21T15:19:00|COMPLETED|10756
3|user4|e|low|normal|20|60|2026-11-21T15:18:00|2026-11-21T15:19:00|COMPLETED|10756
4|user1|b|low|normal|4|0|Unknown|Unknown|PENDING|2631
"""


@pytest.fixture
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_sacct_jobs_reproduce_the_captured_raw_usage(utc) -> None:
    imported = parse_sacct(SACCT)
    assert imported.skipped == 2
    assert [(j.job_id, j.user, j.account, j.tres) for j in imported.jobs] == [
        ("1", "user1", "b", {"cpu": 16}),
        ("2", "user2", "c", {"cpu": 20}),
        ("3", "user4", "e", {"cpu": 20}),
    ]
    job = imported.jobs[0]
    assert (job.start, job.end, job.partition, job.qos) == (1795274280, 1795274340, "low", "normal")
    # PriorityDecayHalfLife=0, PriorityCalcPeriod=1 as in the capture: RawUsage 960/1200/1200
    conf = PriorityConfig.from_mapping({"PriorityDecayHalfLife": "0", "PriorityCalcPeriod": "1"})
    got = [
        run_usage(Run(0, j.start, j.end, billable(j.tres)), j.end + 600, conf)
        for j in imported.jobs
    ]
    capture = (GOLDEN / "classic_doc/classic/sshare_a_l_P.txt").read_text()
    captured = {(r.account, r.user): r.raw_usage for r in parse_sshare(capture)}
    assert got == [captured[("b", "user1")], captured[("c", "user2")], captured[("e", "user4")]]


def test_sacct_running_jobs_elapsed_and_alloctres(utc) -> None:
    text = (
        "User|Account|Start|End|AllocTRES|State\n"
        "ann|phys|2026-01-01T00:00:00|Unknown|billing=8,cpu=8,mem=62.50G,node=1|RUNNING\n"
        "bob|chem|2026-01-01T00:00:00|None|cpu=2|RUNNING\n"
    )
    jobs = parse_sacct(text).jobs
    assert jobs[0].end is None and jobs[0].tres == {"billing": 8, "cpu": 8, "mem": 64000, "node": 1}
    assert jobs[1].end is None
    elapsed = (
        "User|Account|Start|Elapsed|AllocCPUS|State\n"
        "ann|phys|2026-01-01T00:00:00|1-01:00:00|4|COMPLETED\n"
        "ann|phys|2026-01-01T00:00:00|00:10:00|4|RUNNING\n"
    )
    done, running = parse_sacct(elapsed).jobs
    assert done.end - done.start == 25 * 3600 and running.end is None


def test_sacct_reports_every_bad_line_at_once() -> None:
    text = (
        "User|Account|Start|End|AllocCPUS\n"
        "ann|phys|2026-01-01T00:00:00|2026-01-01T01:00:00|four\n"
        "ann|phys|2026-01-01T00:00:00|2026-01-01T01:00:00|4\n"
        "ann|phys|yesterday|2026-01-01T01:00:00|4\n"
        "ann|phys|2026-01-01T02:00:00|2026-01-01T01:00:00|4\n"
        "|phys|2026-01-01T00:00:00|2026-01-01T01:00:00|4\n"
        "ann|phys|2026-01-01T00:00:00\n"
        "ann|phys|now-1hour|now|4\n"
        "ann|phys|2026-01-01T00:00:00|1800-01-01T00:00:00Z|4\n"
    )
    with pytest.raises(InvalidValue) as err:
        parse_sacct(text)
    assert err.value.message == (
        "7 bad line(s) in sacct input: line 2: invalid AllocCPUS 'four': expected a whole "
        "number; line 4: invalid Start 'yesterday': expected a date (2026-05-01T12:00:00) or "
        "epoch seconds; line 5: End 2026-01-01T01:00:00 is before Start "
        "2026-01-01T02:00:00; line 6: User and Account must not be empty; "
        "line 7: 3 fields, header has 5; line 8: invalid Start 'now-1hour': expected a date "
        "(2026-05-01T12:00:00) or epoch seconds; line 9: invalid End '1800-01-01T00:00:00Z': out of "
        "range (1900 to 9999)"
    )


def test_sacct_missing_columns() -> None:
    with pytest.raises(
        InvalidValue,
        match="lacks column\\(s\\): End or Elapsed or ElapsedRaw, AllocTRES or AllocCPUS",
    ):
        parse_sacct("User|Account|Start\nann|phys|2026-01-01T00:00:00\n")
    with pytest.raises(InvalidValue, match="empty sacct file"):
        parse_sacct("\n\n")


@pytest.mark.parametrize("name", ["sshare_a_l_P.txt", "sshare_a_P.txt"])
def test_sshare_parsable_capture(name: str) -> None:
    rows = parse_sshare((GOLDEN / "sprio/fairtree" / name).read_text())
    assert [(r.account, r.user, r.raw_usage) for r in rows] == [
        ("root", None, 3872.0),
        ("root", "root", 0.0),
        ("px", None, 960.0),
        ("px", "user1", 960.0),
        ("px", "user2", 0.0),
        ("py", None, 2912.0),
        ("py", "user3", 480.0),
        ("py", "user4", 2432.0),
    ]


def test_sshare_trailing_bar_form_and_errors() -> None:
    text = "Account|User|RawUsage|\nroot||10|\n a|u1|10|\n"
    assert [(r.account, r.user, r.raw_usage, r.line) for r in parse_sshare(text)] == [
        ("root", None, 10.0, 2),
        ("a", "u1", 10.0, 3),
    ]
    bad = "Account|User|RawUsage\n a|u1|-5\n a|u2|lots\n|u3|1\n a|u4\n"
    with pytest.raises(InvalidValue) as err:
        parse_sshare(bad)
    assert err.value.message == (
        "4 bad line(s) in sshare input: line 2: RawUsage '-5' must be a finite number >= 0; "
        "line 3: invalid RawUsage 'lots'; line 4: empty Account; "
        "line 5: 2 fields, header has 3"
    )
    with pytest.raises(InvalidValue, match="lacks column\\(s\\): RawUsage"):
        parse_sshare("Account|User\nroot|\n")
    # two RawUsage values near DBL_MAX would sum to infinity in their parent's row
    with pytest.raises(InvalidValue) as err:
        parse_sshare("Account|User|RawUsage\n a|u1|1e308\n a|u2|9223372036854775807\n")
    assert err.value.message == (
        "1 bad line(s) in sshare input: line 2: RawUsage '1e308' is out of range "
        "(at most 9223372036854775807)"
    )
