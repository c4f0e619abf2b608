"""``fscli lsf params|queue|group``: storage, listing, history, and bad input."""

from __future__ import annotations

import json

import pytest


def test_params_show_defaults_then_set_and_unset(fscli):
    fscli.ok("-Q", "db", "upgrade")  # a new, empty store (showing creates none)
    out = fscli.ok("lsf", "params", "show", "-P").stdout
    assert out.splitlines() == [
        "Parameter|Value|Source",
        "CPU_TIME_FACTOR|0.7|default",
        "RUN_TIME_FACTOR|0.7|default",
        "RUN_JOB_FACTOR|3|default",
        "COMMITTED_RUN_TIME_FACTOR|0|default",
        "HIST_HOURS|5|default",
        "RUN_TIME_DECAY|N|default",
        "ENABLE_HIST_RUN_TIME|N|default",
        "FAIRSHARE_ADJUSTMENT_FACTOR|0|default",
    ]
    result = fscli.ok(
        "lsf",
        "params",
        "set",
        "hist_hours=10",
        "RUN_TIME_DECAY=yes",
        "COMMITTED_RUN_TIME_FACTOR=0.5",
    )
    assert result.stderr == (
        "set LSF parameters: HIST_HOURS=10 RUN_TIME_DECAY=Y COMMITTED_RUN_TIME_FACTOR=0.5\n"
    )
    doc = json.loads(fscli.ok("lsf", "params", "show", "--json").stdout)
    values = {row["Parameter"]: row["Value"] for row in doc["params"]}
    # numbers as numbers, Y/N as text (docs/json.md)
    assert (values["HIST_HOURS"], values["CPU_TIME_FACTOR"], values["RUN_TIME_DECAY"]) == (
        10,
        0.7,
        "Y",
    )
    fscli.ok("lsf", "params", "unset", "HIST_HOURS")
    assert "HIST_HOURS|5|default" in fscli.ok("lsf", "params", "show", "-P").stdout
    actions = fscli.ok("history", "-P", "-n").stdout.splitlines()
    assert [line.split("|")[2] for line in actions] == ["set lsf params", "unset lsf params"]


def test_queue_add_modify_list_delete(fscli):
    fscli.ok("lsf", "group", "add", "phys", "members=dan,eve", "shares=[dan, 3] [eve, 1]")
    fscli.ok("lsf", "group", "add", "chem", "members=fay,gus")
    fscli.ok(
        "lsf",
        "queue",
        "add",
        "normal",
        "priority=30",
        "fairshare=USER_SHARES[[user1,2000] [phys, 500][chem@,10] [default,1000]]",
        "HIST_HOURS=10",
    )
    fscli.ok("lsf", "queue", "add", "short", "Priority=50")
    out = fscli.ok("lsf", "queue", "list", "-P").stdout
    assert out.splitlines() == [
        "Name|Priority|Fairshare|Params",
        "short|50||",
        "normal|30|USER_SHARES[[user1, 2000] [phys, 500] [chem@, 10] [default, 1000]]"
        "|HIST_HOURS=10",
    ]
    fscli.ok(
        "lsf",
        "queue",
        "modify",
        "normal",
        "set",
        "priority=60",
        "HIST_HOURS=default",
        "RUN_JOB_FACTOR=5",
        "fairshare=USER_SHARES[[others, 1]]",
    )
    fscli.ok("lsf", "queue", "modify", "short", "fairshare=none")
    assert fscli.ok("lsf", "queue", "list", "-P", "-n").stdout.splitlines() == [
        "normal|60|USER_SHARES[[others, 1]]|RUN_JOB_FACTOR=5",
        "short|50||",
    ]
    table = fscli.ok("lsf", "queue", "list").stdout
    assert "USER_SHARES[[others, 1]]" in table  # brackets are not taken for rich markup
    # a delete takes names only: a KEY=VALUE word it would ignore is refused, nothing deleted
    refused = fscli.fails("lsf", "queue", "delete", "short", "priority=50", code=2).stderr
    assert refused == (
        "fscli: error: 'priority=' cannot be used in lsf queue delete: give only what to delete\n"
    )
    fscli.ok("lsf", "queue", "delete", "short")
    assert fscli.ok("lsf", "queue", "list", "-P", "-n").stdout.count("\n") == 1
    actions = [line.split("|")[2:4] for line in fscli.ok("history", "-P", "-n").stdout.splitlines()]
    assert actions[2:] == [
        ["add lsf queue", "normal"],
        ["add lsf queue", "short"],
        ["modify lsf queue", "normal"],
        ["modify lsf queue", "short"],
        ["delete lsf queue", "short"],
    ]


def test_groups_list_modify_and_delete_rules(fscli):
    fscli.ok("lsf", "group", "add", "chem", "members=fay,gus")
    fscli.ok("lsf", "group", "add", "sci", "members=chem,hal", "shares=([chem, 2] [default, 1])")
    assert fscli.ok("lsf", "group", "list", "-P").stdout.splitlines() == [
        "Name|Members|Shares",
        "chem|fay,gus|",
        "sci|chem,hal|[chem, 2] [default, 1]",
    ]
    fscli.ok("lsf", "queue", "add", "q", "fairshare=USER_SHARES[[sci, 1]]")
    assert "used by LSF queue 'q'" in fscli.fails("lsf", "group", "delete", "sci", code=1).stderr
    assert "member of group 'sci'" in fscli.fails("lsf", "group", "delete", "chem").stderr
    fscli.ok("lsf", "group", "modify", "chem", "set", "members=fay,gus,ian")
    fscli.ok("lsf", "queue", "modify", "q", "fairshare=USER_SHARES[[default, 1]]")
    refused = fscli.fails("lsf", "group", "delete", "sci", "members=hal", code=2).stderr
    assert refused == (
        "fscli: error: 'members=' cannot be used in lsf group delete: give only what to delete\n"
    )
    fscli.ok("lsf", "group", "delete", "sci,chem")
    assert fscli.ok("lsf", "group", "list", "-P", "-n").stdout == ""


def test_dry_run_changes_nothing(fscli):
    fscli.ok("db", "upgrade")  # a dry run would not create the store
    result = fscli.ok("lsf", "queue", "add", "normal", "--dry-run")
    assert result.stderr == "would have added LSF queue normal\n"
    assert fscli.ok("lsf", "queue", "list", "-P", "-n").stdout == ""


@pytest.mark.parametrize(
    "fairshare, message",
    [
        (
            "USER_SHARES[[user1, 10] [user2, 5]",
            "unbalanced brackets: '[' is never closed at character 12",
        ),
        (
            "USER_SHARES[[user1, 10]]]",
            "unbalanced brackets: ']' has no matching '[' at character 25",
        ),
        ("USER_SHARES[[user1]]", "missing share for 'user1' (expected ', shares') at character 19"),
        ("USER_SHARES[[user1, ]]", "missing share for 'user1' at character 21"),
        ("USER_SHARES[[user1, 1.5]]", "share for 'user1' is '1.5': expected a whole number > 0"),
        ("USER_SHARES[[user1, ten]]", "share for 'user1' is 'ten': expected a whole number > 0"),
        ("USER_SHARES[[user1, 0]]", "share for 'user1' is 0: must be > 0"),
        ("USER_SHARES[[user1, -4]]", "share for 'user1' is -4: must be > 0"),
        ("USER_SHARES[[physics@, 4]]", "unknown user group 'physics' in 'physics@'"),
        ("USER_SHARES[[user1, 1] [user2, 2] [user1, 3]]", "'user1' is listed twice"),
        ("[[user1, 1]]", "expected 'USER_SHARES[[name, shares] ...]' at character 1"),
    ],
)
def test_bad_user_shares_are_refused(fscli, fairshare, message):
    fscli.ok("db", "upgrade")
    err = fscli.fails("lsf", "queue", "add", "normal", f"fairshare={fairshare}", code=1).stderr
    assert err.startswith("fscli: error: invalid USER_SHARES: ")
    assert message in err
    assert fscli.ok("lsf", "queue", "list", "-P", "-n").stdout == ""


@pytest.mark.parametrize(
    "args, code, message",
    [
        (
            ("lsf", "params", "set", "CPU_TIME=1"),
            2,
            "unknown LSF parameter 'CPU_TIME'; did you mean",
        ),
        (
            ("lsf", "params", "set", "RUN_JOB_FACTOR=-3"),
            1,
            "invalid RUN_JOB_FACTOR '-3': must be >= 0",
        ),
        (("lsf", "params", "set", "CPU_TIME_FACTOR=fast"), 1, "expected a number"),
        (("lsf", "params", "set", "COMMITTED_RUN_TIME_FACTOR=2"), 1, "must be from 0 to 1"),
        (("lsf", "params", "set", "RUN_TIME_DECAY=maybe"), 1, "expected Y or N"),
        (("lsf", "params", "set", "HIST_HOURS"), 2, "expected NAME=VALUE"),
        (("lsf", "params", "unset", "NOPE"), 2, "unknown LSF parameter 'NOPE'"),
        (("lsf", "queue", "add", "q", "RUN_TIME_FACTOR=-0.1"), 1, "must be >= 0"),
        (("lsf", "queue", "add", "q", "SPEED=3"), 2, "unknown key 'SPEED' for lsf queue add"),
        (("lsf", "queue", "add", "q", "priority=0"), 1, "invalid priority '0': must be >= 1"),
        (
            ("lsf", "queue", "add", "q", "priority=99999999999999999999"),
            1,
            "invalid priority '99999999999999999999': at most 2147483647",
        ),
        (
            ("lsf", "queue", "add", "q", "priority=2147483648"),
            1,
            "invalid priority '2147483648': at most 2147483647",
        ),
        (("lsf", "queue", "add", "q", "priority=high"), 1, "expected a whole number >= 1"),
        (("lsf", "queue", "add", "q,r"), 2, "lsf queue add takes one name, got 2"),
        (
            ("lsf", "queue", "modify", "nosuch", "priority=3"),
            1,
            "LSF queue 'nosuch' does not exist",
        ),
        (("lsf", "queue", "modify", "normal"), 2, "nothing to set"),
        (("lsf", "group", "add", "g"), 2, "members=user1,user2"),
        (
            ("lsf", "group", "add", "g", "members=a,b", "shares=[c, 1]"),
            1,
            "'c' in its shares is not one of its members",
        ),
        (("lsf", "group", "add", "g", "members=a,a"), 1, "a member is listed twice"),
        (("lsf", "group", "add", "g", "members=g"), 1, "contains itself"),
        (("lsf", "group", "modify", "nosuch", "members=a"), 1, "unknown user group 'nosuch'"),
    ],
)
def test_bad_input(fscli, args, code, message):
    fscli.ok("lsf", "queue", "add", "normal")
    assert message in fscli.fails(*args, code=code).stderr
    assert fscli.ok("lsf", "queue", "list", "-P", "-n").stdout == "normal|1||\n"
    assert fscli.ok("lsf", "group", "list", "-P", "-n").stdout == ""


def test_existing_names_conflict(fscli):
    fscli.ok("lsf", "queue", "add", "normal")
    assert "already exists" in fscli.fails("lsf", "queue", "add", "NORMAL", code=1).stderr
    fscli.ok("lsf", "group", "add", "g", "members=a")
    assert "already exists" in fscli.fails("lsf", "group", "add", "g", "members=b").stderr
