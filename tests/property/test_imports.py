"""sacct/sshare usage imports and squeue job imports under hostile input."""

from __future__ import annotations

from datetime import timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscli.engine.timestr import MAX_EPOCH, MIN_EPOCH
from fscli.errors import InvalidValue
from fscli.io.squeue_import import parse_squeue
from fscli.io.usage_import import parse_sacct, parse_sshare
from tests.property.strategies import failed, hostile, near, outcome

# each property runs tens to hundreds of examples, many of them commands on a store
pytestmark = pytest.mark.slow

GOLDEN = Path(__file__).parent.parent / "data" / "golden" / "slurm-22.05"
SSHARE = (GOLDEN / "classic_doc" / "classic" / "sshare_a_l_P.txt").read_text()
SACCT = """\
JobID|User|Account|Partition|QOS|AllocCPUS|AllocTRES|ElapsedRaw|Elapsed|Start|End|State
1|user1|b|low|normal|16|cpu=16,mem=4G|60|00:01:00|2026-11-21T15:18:00|2026-11-21T15:19:00|COMPLETED
1.batch|||||16||60|00:01:00|2026-11-21T15:18:00|2026-11-21T15:19:00|COMPLETED
4|user1|b|low|normal|4||0|00:00:00|Unknown|Unknown|PENDING
"""
SACCT_ELAPSED = (
    "User|Account|Start|Elapsed|AllocCPUS|State\nu|a|2026-01-01T00:00:00|1-00:00:00|4|RUNNING\n"
)
SQUEUE = (
    "7|user2|px|high|qmed|PENDING|2026-11-21T15:38:05|2027-11-21T15:38:00|UNLIMITED|1|8|4G"
    "|N/A|0\n12|user1|px|gpu,cpu|normal|PD|2026-11-21T15:38:05|N/A|1-00:00:00|2|32|2000M"
    "|gres/gpu:a100:2|-10\n3|user4|py|low|normal|RUNNING|2026-11-21T15:38:00"
    "|2026-11-21T15:38:00|30:00|1|64|0|gres:gpu:1,gres:nic|100\n"
)
SETTINGS = settings(deadline=None, max_examples=150)


def in_range(epoch: int | None) -> bool:
    return epoch is None or MIN_EPOCH <= epoch <= MAX_EPOCH


@SETTINGS
@given(st.one_of(hostile, near(SACCT), near(SACCT_ELAPSED), hostile.map(lambda line: SACCT + line)))
def test_sacct_parses_or_one_clean_error(text):
    got = outcome(parse_sacct, text)
    if not failed(got):
        for job in got.jobs:
            assert job.user and job.account and in_range(job.start) and in_range(job.end)
            assert job.end is None or job.end >= job.start
            assert all(isinstance(v, int) and v >= 0 for v in job.tres.values())


@SETTINGS
@given(st.one_of(hostile, near(SSHARE), hostile.map(lambda line: SSHARE + line)))
def test_sshare_parses_or_one_clean_error(text):
    got = outcome(parse_sshare, text)
    if not failed(got):
        assert all(row.account and row.raw_usage >= 0 for row in got)


@SETTINGS
@given(
    st.one_of(hostile, near(SQUEUE), hostile.map(lambda line: SQUEUE + line)),
    st.sampled_from((None, timezone.utc)),
)
def test_squeue_parses_or_one_clean_error(text, tz):
    got = outcome(parse_squeue, text, tz)
    if not failed(got):
        for job in got:
            assert job.user and job.nodes >= 1 and job.cpus >= 1
            assert in_range(job.submit) and in_range(job.start)
            assert 1 <= job.job_id <= 2**63 - 1


@pytest.mark.parametrize(
    "text, message",
    [
        # Regression: a repeated column made the header shorter than a row: IndexError.
        (
            "User|Account|Start|End|AllocCPUS|User\na|b|2020-01-01T00:00:00|2020-01-01T01:00:00|4\n",
            "sacct header repeats column(s): user",
        ),
        (
            "User|Account|Start|ElapsedRaw|AllocCPUS\na|b|2020-01-01T00:00:00|" + "9" * 30 + "|4\n",
            f"line 2: invalid ElapsedRaw '{'9' * 30}': must be from 0 to 9223372036854775807",
        ),
        (
            "User|Account|Start|End|AllocCPUS\na|b|0001-01-01T00:00:00|Unknown|4\n",
            "line 2: invalid Start '0001-01-01T00:00:00'",
        ),
    ],
)
def test_sacct_lines_that_broke_the_import(text, message):
    with pytest.raises(InvalidValue) as err:
        parse_sacct(text)
    assert message in err.value.message


def test_sshare_repeated_column_is_a_clean_error():
    with pytest.raises(InvalidValue) as err:
        parse_sshare("Account|User|RawUsage|User\nroot||10\n")
    assert err.value.message == "sshare header repeats column(s): user"


@pytest.mark.parametrize(
    "line, problem",
    [
        # Regression: numbers with thousands of digits raised ValueError; year 1 in local
        # time raised ValueError; a huge GRES count overflowed the store.
        ("9" * 5000 + "|u|a|p|q|PD|2026-11-21T15:38:05|N/A|1:00|1|1|0|N/A|0", "job id '999"),
        (
            "1|u|a|p|q|PD|2026-11-21T15:38:05|N/A|1:00|" + "9" * 5000 + "|1|0|N/A|0",
            "invalid node count '999",
        ),
        (
            "1|u|a|p|q|PD|0001-01-01T00:00:00|N/A|1:00|1|1|0|N/A|0",
            "invalid submit time '0001-01-01T00:00:00'",
        ),
        (
            "1|u|a|p|q|PD|2026-11-21T15:38:05|N/A|1:00|1|1|0|gres/gpu:" + "9" * 5000 + "|0",
            "invalid TRES per node 'gres/gpu:999",
        ),
        ("1|u|a|p|q|PD|2026-11-21T15:38:05|N/A|1:00|1|1|0|N/A|" + "9" * 5000, "invalid nice '999"),
    ],
)
def test_squeue_lines_that_broke_the_import(line, problem):
    with pytest.raises(InvalidValue) as err:
        parse_squeue(line)
    assert f"(1 bad lines): line 1: {problem}" in err.value.message
