"""``fscli sacctmgr add|modify|delete|show qos`` against real sacctmgr 22.05's answers.

``tests/data/live/sacctmgr_qos.json`` holds sequences of calls as real sacctmgr answered
them (rc, stdout, stderr), each run from a fresh cluster ``live`` (``tests/live/slurm up``,
recorded with the differential harness's ``run_real``): every Settings line of ``add
qos``, the lenient number parsing (``gracetime=abc`` is one error line, the rest is
applied), flags and preempt modes in Slurm's order, ``preempt+=``/``-=`` and the
preemption-loop refusal, conditions (names, ids, descriptions, preempt modes), the
default-QOS refusal of ``delete qos``, and ``show qos`` with every QOS field. fscli must
answer each call the same, byte for byte.
"""

from __future__ import annotations

import json
import shlex

import pytest

from tests.backends import BACKEND
from tests.conftest import DATA

CASES = json.loads((DATA / "live" / "sacctmgr_qos.json").read_text())


def replay(fscli, calls: list[dict]) -> None:
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")
    for case in calls:
        line, _, answer = case["call"].partition(" <<< ")
        words = shlex.split(line)[1:]
        got = fscli("sacctmgr", *words, input=answer + "\n" if answer else None)
        assert (got.exit_code, got.stdout, got.stderr) == (
            case["rc"],
            case["stdout"],
            case["stderr"],
        ), case["call"]


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.skipif(
    BACKEND != "sqlite",
    reason="the recorded calls name QOS by slurmdbd's ids, which follow a fresh database; "
    "the server test database keeps its sequences from test to test",
)
def test_qos_sequences_answer_as_real_sacctmgr(fscli, name):
    replay(fscli, CASES[name])


def test_add_qos_prints_the_settings_given(fscli):
    """The brief's cases, as real sacctmgr printed them."""
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")
    assert fscli.ok("sacctmgr", "-i", "add", "qos", "low").stdout == (
        " Adding QOS(s)\n  low\n Settings\n  Description    = low\n"
    )
    assert fscli.ok(
        "sacctmgr", "-i", "add", "qos", "high", "preempt=low", "maxwall=2-0"
    ).stdout == (
        " Adding QOS(s)\n  high\n Settings\n  Description    = high\n"
        "  MaxWall                  = 2-00:00:00\n  Preempt                  = low\n"
    )
    debug = [
        "debug",
        "MaxTRESPerUser=cpu=8",
        "priority=10",
        "flags=NoDecay,DenyOnLimit,OverPartQOS",
    ]
    assert fscli.ok("sacctmgr", "-i", "add", "qos", *debug).stdout == (
        " Adding QOS(s)\n  debug\n Settings\n  Description    = debug\n"
        "  Flags                    = DenyOnLimit,OverPartQOS,NoDecay\n"
        "  MaxTRESPerUser           = cpu=8\n  Priority                 = 10\n"
    )
    assert fscli.ok("sacctmgr", "-P", "show", "qos", "format=name,flags,preempt").stdout == (
        "Name|Flags|Preempt\nnormal||\nlow||\nhigh||low\ndebug|DenyOnLimit,OverPartQOS,NoDecay|\n"
    )


def test_modify_qos_refuses_a_preemption_loop(fscli):
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")
    fscli.ok("sacctmgr", "-i", "add", "qos", "high,low")
    fscli.ok("sacctmgr", "-i", "modify", "qos", "where", "name=high", "set", "preempt=low")
    loop = fscli("sacctmgr", "-i", "modify", "qos", "where", "name=low", "set", "preempt+=high")
    assert (loop.exit_code, loop.stdout, loop.stderr) == (
        1,
        "",
        "sacctmgr: error: QOS Preemption loop detected\n"
        " Error with request: QOS Preemption loop detected\n",
    )
    warned = fscli(
        "sacctmgr",
        "-i",
        "modify",
        "qos",
        "where",
        "name=high",
        "set",
        "gracetime=abc",
        "priority=20",
    )
    assert (warned.exit_code, warned.stdout, warned.stderr) == (
        0,
        " Modified qos...\n  high\n",
        "sacctmgr: error: Invalid value for GraceTime (abc)\n",
    )


def test_a_preemption_loop_is_found_before_the_broken_preempt_sql(fscli):
    # live, on a fresh cluster: the loop check comes first, QOS by QOS
    fscli.sacctmgr_i("add cluster live")
    result = fscli(
        "sacctmgr", "-i", "modify", "qos", "where", "name=normal", "set", "gracetime=1:00",
        "preempt=normal", "preempt-=normal",
    )  # fmt: skip
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        "sacctmgr: error: QOS Preemption loop detected\n"
        " Error with request: QOS Preemption loop detected\n",
    )
