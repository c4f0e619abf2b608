"""GrpWall's used time: running jobs count pass by pass on their association, every
ancestor and their QOS (× UsageFactor), decayed like usage (22.05 ``_apply_new_usage``,
``_apply_decay``); ``limits show --effective`` shows it as ``scontrol show assoc_mgr``
does (``GrpWall=N(used)``, minutes with two decimals)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "slurm-22.05" / "classic_doc"


def _check(fscli, at: str, *words: str) -> dict:
    return json.loads(fscli.ok("limits", "check", *words, "--json", at=at).stdout)


def build_wall(fscli) -> None:
    """No decay; passes every 5 minutes; account a (GrpWall=10) with users u1, u2; QOS q2
    with UsageFactor 2 and GrpWall=15. u1's job runs from 11:50 (a pass)."""
    fscli.ok("-Q", "cluster", "add", "c1")
    fscli.ok("-Q", "partition", "add", "batch", "nodes=1", "cpus=64")
    fscli.ok("-Q", "config", "set", "PriorityDecayHalfLife=0")
    fscli.ok("-Q", "qos", "add", "q2")
    fscli.ok("-Q", "limits", "set", "qos=q2", "GrpWall=15", "UsageFactor=2")
    fscli.ok("-Q", "limits", "set", "cluster=c1", "qos=normal,q2")
    fscli.ok("-Q", "account", "add", "a")
    fscli.ok("-Q", "user", "add", "u1,u2", "account=a")
    fscli.ok("-Q", "limits", "set", "account=a", "GrpWall=10")


@pytest.fixture
def wall(fscli, template):
    """The store :func:`build_wall` leaves, copied from its template."""
    return template(fscli, build_wall)


def test_a_running_job_past_the_account_s_grpwall_makes_the_next_one_pend(wall):
    """u1's job has been charged 5 minutes by the 11:55 pass (u2's job runs) and 10 by
    the 12:00 pass: u2's job pends with AssocGrpWallLimit although u1's still runs."""
    wall.ok(
        "-Q",
        "job",
        "submit",
        "user=u1",
        "partition=batch",
        "state=running",
        at="2026-05-01T11:50:00",
    )
    early = _check(wall, "2026-05-01T11:59:59", "user=u2", "partition=batch", "time=10")
    assert early["verdict"] == "run"
    late = _check(wall, "2026-05-01T12:00:00", "user=u2", "partition=batch", "time=10")
    assert (
        late["verdict"],
        late["reason"],
        late["limit"],
        late["value"],
        late["current"],
        late["level"],
        late["source"],
    ) == ("pend", "AssocGrpWallLimit", "GrpWall", 10, 10, "account", "a")
    shown = wall.ok(
        "limits", "show", "user=u2", "--effective", "-P", at="2026-05-01T12:04:59"
    ).stdout
    assert shown == "Name|TRES|Value|Level|Source|As|Used\nGrpWall||00:10:00|account|a||10.00\n"


def test_the_root_s_grpwall_counts_every_account_s_jobs(wall):
    wall.ok("-Q", "limits", "set", "account=a", "GrpWall=-1")
    wall.ok("-Q", "limits", "set", "cluster=c1", "GrpWall=10")
    wall.ok(
        "-Q",
        "job",
        "submit",
        "user=u1",
        "partition=batch",
        "state=running",
        at="2026-05-01T11:50:00",
    )
    late = _check(wall, "2026-05-01T12:00:00", "user=u2", "partition=batch", "time=10")
    assert (late["reason"], late["level"], late["current"]) == ("AssocGrpWallLimit", "root", 10)


def test_the_qos_grpwall_counts_its_jobs_times_usage_factor(wall):
    """In q2 (UsageFactor 2) the 11:55 pass counts 5 x 2 = 10 minutes (< 15: runs), the
    12:00 pass 20 (>= 15: QOSGrpWallLimit); the account's GrpWall is not checked then (the
    QOS sets the limit), and the association counts the job's minutes times 2 as well."""
    wall.ok(
        "-Q",
        "job",
        "submit",
        "user=u1",
        "partition=batch",
        "qos=q2",
        "state=running",
        at="2026-05-01T11:50:00",
    )
    assert (
        _check(wall, "2026-05-01T11:59:59", "user=u2", "partition=batch", "qos=q2", "time=10")[
            "verdict"
        ]
        == "run"
    )
    late = _check(wall, "2026-05-01T12:00:00", "user=u2", "partition=batch", "qos=q2", "time=10")
    assert (late["verdict"], late["reason"], late["current"], late["level"]) == (
        "pend",
        "QOSGrpWallLimit",
        20,
        "job-qos",
    )
    doc = json.loads(
        wall.ok(
            "limits", "show", "user=u2", "--effective", "--json", at="2026-05-01T12:00:00"
        ).stdout
    )
    assert doc["limits"] == [
        {"name": "GrpWall", "value": 10, "level": "account", "source": "a", "used": 20.0}
    ]


def test_decayed_like_usage(wall):
    """Half-life 10 minutes, D = 1 - 0.693/600 per second: the 11:55 pass charges
    300 x D^300 s and the 12:00 pass decays that by D^300 and adds as much again:
    (300 D^600 + 300 D^300) / 60 = 5 x (0.499873 + 0.707017) = 6.0345 minutes."""
    wall.ok("-Q", "config", "set", "PriorityDecayHalfLife=10")
    wall.ok(
        "-Q",
        "job",
        "submit",
        "user=u1",
        "partition=batch",
        "state=running",
        at="2026-05-01T11:50:00",
    )
    d = 1 - 0.693 / 600
    expected = 5 * (d**600 + d**300)
    doc = json.loads(
        wall.ok(
            "limits", "show", "account=a", "--effective", "--json", at="2026-05-01T12:00:00"
        ).stdout
    )
    assert doc["limits"][0]["used"] == round(expected, 2) == 6.03
    assert (
        _check(wall, "2026-05-01T12:00:00", "user=u2", "partition=batch", "time=1")["verdict"]
        == "run"
    )


def _golden_used() -> dict[tuple[str, str | None], str]:
    """(account, user) -> the used minutes scontrol show assoc_mgr printed."""
    text = (GOLDEN / "classic" / "scontrol_show_assoc_mgr.txt").read_text()
    found = {}
    for record in re.split(r"\n(?=ClusterName=)", text):
        head = re.search(r"Account=(\S+) UserName=(\S*)", record)
        used = re.search(r"GrpWall=N\(([0-9.]+)\)", record)
        if head and used:
            user = head.group(2).split("(")[0] or None
            found[(head.group(1), user)] = used.group(1)
    return found


def test_used_wall_equals_real_slurm_on_the_classic_capture(fscli):
    """Three 60 s jobs (user1@b, user2@c, user4@e): root 3.00, a 2.00, b 1.00, ...
    (golden/slurm-22.05/classic_doc/classic/scontrol_show_assoc_mgr.txt)."""
    fscli.ok("-Q", "cluster", "add", "oracle")
    fscli.ok("-Q", "partition", "add", "low", "nodes=1", "cpus=64")
    fscli.ok(
        "-Q",
        "config",
        "set",
        "PriorityDecayHalfLife=0",
        "PriorityCalcPeriod=1",
        "PriorityFlags=NO_FAIR_TREE",
    )
    for name, parent, shares in (
        ("a", "root", 40),
        ("b", "a", 30),
        ("c", "a", 10),
        ("d", "root", 60),
        ("e", "d", 25),
        ("f", "d", 35),
    ):
        fscli.ok("-Q", "account", "add", name, f"parent={parent}", f"fairshare={shares}")
    for user, account in (
        ("user1", "b"),
        ("user2", "c"),
        ("user3", "c"),
        ("user4", "e"),
        ("user5", "f"),
    ):
        fscli.ok("-Q", "user", "add", user, f"account={account}")
    for user, account, cpus in (("user1", "b", 16), ("user2", "c", 20), ("user4", "e", 20)):
        fscli.ok(
            "-Q",
            "job",
            "submit",
            f"user={user}",
            f"account={account}",
            "partition=low",
            f"cpus={cpus}",
            "state=completed",
            "start=2026-11-21T15:18:00",
            "end=2026-11-21T15:19:00",
            at="2026-11-21T15:18:00",
        )
    golden = _golden_used()
    fscli.ok("-Q", "limits", "set", "cluster=oracle", "GrpWall=1000")
    for account, user in golden:
        target = [f"account={account}"] + ([f"user={user}"] if user else [])
        if account != "root":
            fscli.ok("-Q", "limits", "set", *target, "GrpWall=1000")
    ours = {}
    for account, user in golden:
        if account == "root":
            continue
        target = [f"account={account}"] + ([f"user={user}"] if user else [])
        shown = fscli.ok(
            "limits", "show", *target, "--effective", "-P", at="2026-11-21T15:20:13"
        ).stdout.splitlines()[1:]
        for line in shown:
            name, _, _, level, source, _, used = line.split("|")
            key = (
                ("root", None)
                if level == "root"
                else (
                    (source.split("@")[1], source.split("@")[0])
                    if "@" in source
                    else (source, None)
                )
            )
            ours[key] = used
    assert len(golden) == 12 and ours == golden
