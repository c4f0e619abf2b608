"""squeue import: the -O format with the TRES, and the former -o
'%i|%u|%a|%P|%q|%T|%V|%S|%l|%D|%C|%m|%b|%y'."""

from __future__ import annotations

from datetime import timedelta, timezone

import pytest

from fscli.engine.timestr import INFINITE_MINUTES
from fscli.errors import InvalidValue
from fscli.io.squeue_import import SQUEUE_FORMAT, parse_squeue

SUBMIT = 1795275485  # 2026-11-21T15:38:05Z

SAMPLE = """\
JOBID|USER|ACCOUNT|PARTITION|QOS|STATE|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|CPUS|MIN_MEMORY|TRES_PER_NODE|NICE
7|user2|px|high|qmed|PENDING|2026-11-21T15:38:05|2027-11-21T15:38:00|UNLIMITED|1|8|4G|N/A|0
12|user1|px|gpu,cpu|normal|PD|2026-11-21T15:38:05|N/A|1-00:00:00|2|32|2000M|gres/gpu:a100:2|-10

3|user4|py|low|normal|RUNNING|2026-11-21T15:38:00|2026-11-21T15:38:00|30:00|1|64|0|gres:gpu:1,gres:nic|100
"""


def test_parses_every_field():
    jobs = parse_squeue(SAMPLE, tz=timezone.utc)
    assert [j.job_id for j in jobs] == [7, 12, 3]
    first, multi, running = jobs
    assert (first.user, first.account, first.partitions, first.qos, first.state) == (
        "user2",
        "px",
        ("high",),
        "qmed",
        "pending",
    )
    assert (first.submit, first.start, first.time_limit) == (SUBMIT, None, INFINITE_MINUTES)
    assert (first.nodes, first.cpus, first.tres, first.nice) == (1, 8, {"mem": 4096}, 0)
    assert multi.partitions == ("gpu", "cpu") and multi.time_limit == 1440
    assert multi.tres == {"mem": 4000, "gres/gpu": 4, "gres/gpu:a100": 4}
    assert multi.nice == -10
    assert (running.state, running.start, running.time_limit) == ("running", SUBMIT - 5, 30)
    assert running.tres == {"gres/gpu": 1, "gres/nic": 1}


def test_times_follow_the_given_timezone():
    line = SAMPLE.splitlines()[1]
    (job,) = parse_squeue(line, tz=timezone(timedelta(hours=2)))
    assert job.submit == SUBMIT - 7200


def test_bad_lines_are_listed_by_number():
    text = "\n".join(
        [
            SAMPLE.splitlines()[1],
            "8|u|a|p|normal|PENDING|2026-11-21T15:38:05",
            "9|u|a|p|normal|WAITING|2026-11-21T15:38:05|N/A|UNLIMITED|1|1|0|N/A|0",
            "10_3|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|UNLIMITED|1|1|0|N/A|0",
            "11|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|UNLIMITED|x|1|0|N/A|0",
            "13|u|a|p|normal|PENDING|yesterday|N/A|UNLIMITED|1|1|0|N/A|0",
            "14|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|1:2:3:4|1|1|0|N/A|0",
            "15|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|UNLIMITED|1|1|4Q|N/A|0",
        ]
    )
    with pytest.raises(InvalidValue) as err:
        parse_squeue(text, tz=timezone.utc)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"not squeue -O '{SQUEUE_FORMAT}' output (7 bad lines): ")
    assert "line 2: expected 15 (or 14) '|'-separated fields, got 7" in message
    assert "line 3: unknown job state 'WAITING'" in message
    assert "line 4: job id '10_3' is not a whole number" in message
    assert "line 5: invalid node count 'x'" in message
    assert "line 6: invalid submit time 'yesterday'" in message
    assert message.endswith("; and 2 more")


@pytest.mark.parametrize(
    "field, value, problem",
    [
        (13, "gpu=two", "invalid TRES per node 'gpu=two'"),
        (14, "1.5", "invalid nice '1.5'"),
        (1, "0", "invalid job id '0': expected a whole number >= 1"),
        (11, "0", "invalid CPU count '0'"),
        (9, "1:2:3:4", "invalid time limit '1:2:3:4'"),
    ],
)
def test_each_field_is_checked(field, value, problem):
    fields = SAMPLE.splitlines()[1].split("|")
    fields[field - 1] = value
    with pytest.raises(InvalidValue, match=f"line 1: {problem}"):
        parse_squeue("|".join(fields), tz=timezone.utc)


def test_node_count_comes_from_the_tres_not_squeue_s_guess():
    """A pending ``sbatch -n1 -c4``: squeue's NumNodes (%D) guesses 2 from the CPUs, its
    TRES (tres_req_str) hold node=1, the minimum the job-size factor uses."""
    line = (
        "41|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|1:00:00|2|4|400M|N/A|0|"
        "cpu=4,mem=400M,node=1,billing=4"
    )
    (job,) = parse_squeue(line, tz=timezone.utc)
    assert (job.nodes, job.cpus, job.tres) == (1, 4, {"mem": 400})
    (former,) = parse_squeue(line.rsplit("|", 1)[0], tz=timezone.utc)
    assert (former.nodes, former.tres) == (2, {"mem": 800})
    (no_tres,) = parse_squeue(line.rsplit("|", 1)[0] + "|N/A", tz=timezone.utc)
    assert no_tres.nodes == 2


def test_bad_tres_field_is_named():
    line = "41|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|1:00:00|2|4|0|N/A|0|"
    with pytest.raises(InvalidValue, match="line 1: invalid TRES 'cpu4'"):
        parse_squeue(line + "cpu4", tz=timezone.utc)
    with pytest.raises(InvalidValue, match="line 1: invalid TRES node count 'x'"):
        parse_squeue(line + "cpu=4,node=x", tz=timezone.utc)


def test_documented_format_is_what_job_import_help_gives():
    from click.testing import CliRunner

    from fscli.cli.main import cli

    text = CliRunner().invoke(cli, ["job", "import", "--help"]).output
    assert f"squeue -h -O '{SQUEUE_FORMAT}' > jobs.txt" in text


_SHAPE = "1:00:00|2|8|4G|gres/gpu:2|0"
GOOD = [
    f"1|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|{_SHAPE}",
    f"2|v|a|p|normal|RUNNING|2026-11-21T15:38:05|2026-11-21T15:40:00|{_SHAPE}",
    " 3 | w | a | p | normal | PD | 2026-11-21T15:38:05 | N/A | 1:00:00 | 2 | 8 | 4G | gpu:2 | 0",
    f"4|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|{_SHAPE}|cpu=8,node=1",
    f"5|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|{_SHAPE}|N/A",
    f"6|u||p,q||R|2026-11-21T15:38:05|N/A|{_SHAPE}",
]
BAD = [
    f"7|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|{_SHAPE.replace('|2|', '|0|')}",
    f"8|u|a|p|normal|RUNNING|2026-11-21T15:38:05|later|{_SHAPE.replace('|2|', '|0|')}",
    f"9|u|a|p|normal|RUNNING|2026-11-21T15:38:05|later|{_SHAPE}",
    f"10|u|a|p|normal|PENDING|never|N/A|{_SHAPE.replace('|8|', '|x|')}",
    f"11|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|{_SHAPE.replace('|0', '|x')}",
    f"12|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|{_SHAPE}|cpu=8,node=0",
    f"13|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|{_SHAPE}|cpu=8|x",
    f"14|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|{_SHAPE.replace('4G', '-4G')}",
    f"15|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|{_SHAPE.replace('gres/gpu:2', '!')}",
    f"16|u|a|p|normal|WAITING|2026-11-21T15:38:05|N/A|{_SHAPE.replace('|2|', '|0|')}",
    f"0|u|a|p|normal|PENDING|2026-11-21T15:38:05|N/A|{_SHAPE}",
    f"17||a|p|normal|PENDING|2026-11-21T15:38:05|N/A|{_SHAPE}",
    f"18|u|a|p|normal|PENDING|1800-01-01T00:00:00|N/A|{_SHAPE}",
    f"19|u|a|p|normal|PENDING|N/A|N/A|{_SHAPE.replace('1:00:00', 'soon')}",
]


def test_a_line_reads_the_same_alone_and_after_others():
    """The file's caches (each time, and each text of the fields after the start time,
    read once) give every line what it gives alone: the same job, or the same first
    problem, found in the same order of fields."""
    together = parse_squeue("\n".join(GOOD), tz=timezone.utc)
    assert together == [parse_squeue(line, tz=timezone.utc)[0] for line in GOOD]
    assert together[2].tres == together[0].tres and together[2].tres is not together[0].tres
    for bad in BAD:
        with pytest.raises(InvalidValue) as alone:
            parse_squeue(bad, tz=timezone.utc)
        with pytest.raises(InvalidValue) as after:
            parse_squeue("\n".join([*GOOD, bad]), tz=timezone.utc)
        assert after.value.message == alone.value.message.replace(
            "line 1:", f"line {len(GOOD) + 1}:"
        )
