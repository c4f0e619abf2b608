"""sshare and sprio between decay passes with a running job (classic, depth-oblivious).

The store holds the scenario of tests/engine/test_fairshare_pass.py: u2 runs a 1-CPU job
from 11:50 (a pass), u3 was charged 600 at 11:00, no decay, passes every 5 minutes. At
12:01:40 the passes at 11:55 and 12:00 have charged the job 300 + 300; the account rows
are those of the usage as the 12:00 pass began (u2 300), the user rows current.
"""

from __future__ import annotations

import pytest

AT = "2026-05-01T12:01:40"
COLUMNS = "Account,User,RawUsage,NormUsage,EffectvUsage,FairShare"


def build_running(fscli) -> None:
    fscli.ok("-Q", "cluster", "add", "c1")
    fscli.ok("-Q", "partition", "add", "batch", "nodes=1", "cpus=4", "maxtime=1-0")
    fscli.ok("-Q", "account", "add", "a,b", "fairshare=1")
    fscli.ok("-Q", "user", "add", "u1,u2", "account=a", "fairshare=1")
    fscli.ok("-Q", "user", "add", "u3", "account=b", "fairshare=1")
    fscli.ok(
        "-Q",
        "config",
        "set",
        "PriorityDecayHalfLife=0",
        "PriorityFlags=NO_FAIR_TREE",
        "PriorityWeightFairshare=1000",
    )
    fscli.ok("-Q", "usage", "add", "user=u3", "account=b", "raw=600", "at=2026-05-01T11:00:00")
    fscli.ok(
        "-Q",
        "job",
        "submit",
        "user=u2",
        "account=a",
        "partition=batch",
        "state=running",
        at="2026-05-01T11:50:00",
    )
    for user, account in (("u3", "b"), ("u2", "a")):
        fscli.ok(
            "-Q", "job", "submit", f"user={user}", f"account={account}", "partition=batch", at=AT
        )


@pytest.fixture
def running(fscli, template):
    """The store :func:`build_running` leaves, copied from its template."""
    return template(fscli, build_running)


def test_classic_sshare_account_rows_lag_one_pass(running):
    """a: 300/900 -> 1/3, F 2^(-2/3); b: 600/900; u2: UE 0.5 + (1/3 - 0.5)/2 = 5/12;
    u3: UE = b's 2/3, F 2^(-4/3) = 0.396850 (0.5 with no lag)."""
    out = running.ok("sshare", "-a", "-P", "-o", COLUMNS, at=AT).stdout
    assert out.splitlines() == [
        "Account|User|RawUsage|NormUsage|EffectvUsage|FairShare",
        "root||1200||1.000000|0.500000",
        " a||600|0.333333|0.333333|0.629961",
        "  a|u1|0|0.000000|0.166667|0.629961",
        "  a|u2|600|0.500000|0.416667|0.314980",
        " b||600|0.666667|0.666667|0.396850",
        "  b|u3|600|0.500000|0.666667|0.396850",
    ]


def test_classic_sprio_fairshare_uses_the_lagging_parent(running):
    """FAIRSHARE = 1000 x the user's factor: u3 396.850 -> 397, u2 314.980 -> 315;
    PRIORITY is the truncated sum (396, 314)."""
    rows = running.ok("sprio", "-o", "%.6i %.8u %.10Y %.10F", at=AT).stdout.splitlines()
    assert rows == [
        " JOBID     USER   PRIORITY  FAIRSHARE",
        "     2       u3        396        397",
        "     3       u2        314        315",
    ]


def test_depth_oblivious_sshare_with_the_running_job(running):
    """u2: ratio_p = (1/3)/0.5, ratio_l = 2, k = 0.195693 -> UE 0.190879, F 0.589059."""
    running.ok("-Q", "config", "set", "PriorityFlags=DEPTH_OBLIVIOUS")
    out = running.ok("sshare", "-a", "-P", "-o", COLUMNS, at=AT).stdout
    assert out.splitlines()[2:] == [
        " a||600|0.333333|0.333333|0.629961",
        "  a|u1|0|0.000000|0.000000|1.000000",
        "  a|u2|600|0.500000|0.190879|0.589059",
        " b||600|0.666667|0.666667|0.396850",
        "  b|u3|600|0.500000|0.666667|0.396850",
    ]


def test_just_before_the_pass_the_account_rows_are_a_pass_older(running):
    """At 11:59:59 the last pass (11:55) began with nothing charged to u2: a's NormUsage 0,
    b's 600/600; the 11:55 pass charged u2 300, which u2's row shows (300/900)."""
    out = running.ok("sshare", "-a", "-P", "-o", COLUMNS, at="2026-05-01T11:59:59").stdout
    assert out.splitlines()[2:] == [
        " a||300|0.000000|0.000000|1.000000",
        "  a|u1|0|0.000000|0.000000|1.000000",
        "  a|u2|300|0.333333|0.166667|0.629961",
        " b||600|1.000000|1.000000|0.250000",
        "  b|u3|600|0.666667|1.000000|0.250000",
    ]


def test_fair_tree_unchanged_by_the_pass(running):
    running.ok("-Q", "config", "set", "PriorityFlags=")
    out = running.ok("sshare", "-a", "-P", "-o", "Account,User,EffectvUsage,LevelFS", at=AT).stdout
    assert out.splitlines()[2:4] == [" a||0.500000|1.000000", "  a|u1|0.000000|inf"]


def test_explain_names_the_usage_each_row_was_computed_from(running):
    out = running.ok("sshare", "--explain", "u3/b", at=AT).stdout.splitlines()
    assert out[3:5] == [
        (
            "  account b: UN = 600 / 900 (usage as the last pass began) = 0.666667; UE = UN = "
            "0.666667 (child of root)"
        ),
        (
            "  user u3 (account b): UN = 600 / 1200 = 0.500000; UE = UN + (UE_parent - UN) x 1/1 "
            "= 0.500000 + (0.666667 - 0.500000) x 1/1 = 0.666667"
        ),
    ]
