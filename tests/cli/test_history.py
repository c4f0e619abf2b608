"""``fscli history`` as an audit log: each change's old and new values, in the units the
commands take, for every kind of object, and filters by cluster, object, actor, action
and time (issue 35)."""

from __future__ import annotations

import json

import pytest

from fscli.api.store import process_user

DAY = "2030-01-0{}T00:00:00"


def build_changed(fscli) -> None:
    """Two clusters, then one change of each kind, a day apart, on cluster c1 (c2 once)."""
    for words in (
        ("cluster", "add", "c1"),
        ("cluster", "add", "c2"),
        ("--cluster", "c1", "account", "add", "science", "fairshare=40"),
        ("--cluster", "c1", "account", "add", "chem", "parent=science", "GrpTRES=cpu=128"),
        ("--cluster", "c1", "user", "add", "alice", "account=chem"),
        ("--cluster", "c1", "user", "add", "alice", "account=science"),
        ("qos", "add", "high"),
        ("--cluster", "c1", "partition", "add", "batch", "maxtime=1-0"),
        ("--cluster", "c2", "account", "add", "chem"),
    ):
        fscli.ok("-Q", *words, at="2029-12-31T00:00:00")
    for day, words in (
        (1, ("account", "modify", "chem", "set", "fairshare=70", "GrpTRES=cpu=256,mem=1T")),
        (2, ("account", "modify", "chem", "set", "parent=root", "description=Chemistry")),
        (3, ("user", "modify", "alice", "set", "defaultaccount=science")),
        (3, ("user", "modify", "alice", "account=chem", "set", "MaxJobs=4", "qos+=high")),
        (4, ("limits", "set", "qos=high", "MaxWall=4:00:00", "priority=100")),
        (4, ("limits", "set", "partition=batch", "MaxTime=2-0")),
        (5, ("config", "set", "PriorityDecayHalfLife=14-0", "TRESBillingWeights=CPU=1,Mem=0.25G")),
        (6, ("config", "set", "PriorityDecayHalfLife=1-12")),
        (6, ("sacctmgr", "-i", "add", "coordinator", "alice", "account=chem,science")),
        (7, ("sacctmgr", "-i", "delete", "coordinator", "alice", "account=science")),
        (9, ("user", "delete", "alice", "account=chem")),
        (9, ("account", "delete", "chem")),
        (9, ("qos", "delete", "high")),
        (9, ("partition", "delete", "batch")),
    ):
        fscli.ok("-Q", "--cluster", "c1", *words, at=DAY.format(day))
    fscli.ok(
        "-Q", "--cluster", "c2", "account", "modify", "chem", "set", "fairshare=5", at=DAY.format(8)
    )


@pytest.fixture
def changed(fscli, template):
    """The store :func:`build_changed` leaves, copied from its template."""
    return template(fscli, build_changed)


def rows(fscli, *words: str) -> list[str]:
    """History rows from day 1 on, without their actor, as ``-P -n`` prints them."""
    out = fscli.ok("history", "-P", "-n", "--since", DAY.format(1), *words).stdout
    return [line.replace(f"|{process_user()}|", "|", 1) for line in out.splitlines()]


def test_every_kind_of_change_keeps_old_and_new_values(changed):
    assert rows(changed) == [
        "2030-01-01T00:00:00|modify account|chem@c1|fairshare=1 -> 70 "
        "GrpTRES=cpu=128 -> cpu=256,mem=1T",
        "2030-01-02T00:00:00|modify account|chem@c1|parent=science -> root "
        "description=chem -> Chemistry",
        "2030-01-03T00:00:00|modify user|alice|defaultaccount=chem -> science",
        "2030-01-03T00:00:00|modify association|alice/chem@c1|qos=- -> +high MaxJobs=- -> 4",
        "2030-01-04T00:00:00|modify qos|high|priority=0 -> 100 MaxWallDurationPerJob=- -> 04:00:00",
        "2030-01-04T00:00:00|modify partition|batch@c1|maxtime=1-00:00:00 -> 2-00:00:00",
        # durations as config set takes them (not the minutes stored), the default named
        "2030-01-05T00:00:00|config set|PriorityDecayHalfLife@c1|"
        "PriorityDecayHalfLife=7-00:00:00 -> 14-00:00:00",
        "2030-01-05T00:00:00|config set|TRESBillingWeights@c1|"
        "TRESBillingWeights=- -> CPU=1,Mem=0.25G",
        "2030-01-06T00:00:00|config set|PriorityDecayHalfLife@c1|"
        "PriorityDecayHalfLife=14-00:00:00 -> 1-12:00:00",
        "2030-01-06T00:00:00|add coordinator|alice|coordinator=- -> chem,science",
        "2030-01-07T00:00:00|remove coordinator|alice|coordinator=chem,science -> chem",
        # a delete keeps what went
        "2030-01-09T00:00:00|delete user association|alice/chem@c1|"
        "fairshare=1 -> - qos=+high -> - MaxJobs=4 -> -",
        "2030-01-09T00:00:00|delete association|chem/@c1|"
        "fairshare=70 -> - GrpTRES=cpu=256,mem=1T -> -",
        "2030-01-09T00:00:00|delete qos|high|"
        "priority=100 -> - usagefactor=1 -> - MaxWallDurationPerJob=04:00:00 -> -",
        "2030-01-09T00:00:00|delete partition|batch@c1|"
        "priorityjobfactor=1 -> - prioritytier=1 -> - maxtime=2-00:00:00 -> -",
        "2030-01-08T00:00:00|modify account|chem@c2|fairshare=1 -> 5",  # the last one made
    ]


def test_a_change_to_the_same_value_is_not_a_change(changed):
    changed.ok("--cluster", "c2", "account", "modify", "chem", "set", "fairshare=5", "MaxJobs=-1")
    changed.ok(
        "--cluster", "c2", "account", "modify", "chem", "set", "fairshare=6", at=DAY.format(9)
    )
    assert rows(changed, "--cluster", "c2") == [
        "2030-01-08T00:00:00|modify account|chem@c2|fairshare=1 -> 5",
        "2030-01-09T00:00:00|modify account|chem@c2|fairshare=5 -> 6",
    ]


def test_filters_by_cluster_object_action_and_time(changed):
    on_c2 = changed.ok("history", "-P", "-n", "--cluster", "C2").stdout.splitlines()
    assert [r.split("|")[2:4] for r in on_c2] == [
        ["add cluster", "c2"],
        ["add account", "chem@c2"],
        ["modify account", "chem@c2"],
    ]
    # any part of USER/ACCOUNT names the object; a QOS or a setting by its name
    assert [r.split("|")[1:3] for r in rows(changed, "--object", "Alice")] == [
        ["modify user", "alice"],
        ["modify association", "alice/chem@c1"],
        ["add coordinator", "alice"],
        ["remove coordinator", "alice"],
        ["delete user association", "alice/chem@c1"],
    ]
    assert [r.split("|")[0] for r in rows(changed, "--object", "PriorityDecayHalfLife")] == [
        DAY.format(5),
        DAY.format(6),
    ]
    assert [r.split("|")[1:3] for r in rows(changed, "--action", "delete", "--object", "chem")] == [
        ["delete user association", "alice/chem@c1"],
        ["delete association", "chem/@c1"],
    ]
    assert [r.split("|")[1] for r in rows(changed, "--action", "modify qos")] == ["modify qos"]
    between = rows(changed, "--since", DAY.format(6), "--until", DAY.format(7))
    assert [r.split("|")[1] for r in between] == [
        "config set",
        "add coordinator",
        "remove coordinator",
    ]


def test_filters_by_actor(changed):
    assert len(rows(changed, "--actor", process_user())) == 16
    assert rows(changed, "--actor", "nobody-else") == []


def test_json_carries_cluster_and_each_change(changed):
    doc = json.loads(
        changed.ok("history", "--json", "--object", "batch", "--action", "modify").stdout
    )
    assert doc["transactions"] == [
        {
            "Time": DAY.format(4),
            "Actor": process_user(),
            "Action": "modify partition",
            "Target": "batch@c1",
            "Detail": "maxtime=1-00:00:00 -> 2-00:00:00",
            "Cluster": "c1",
            "Changes": [{"Key": "maxtime", "Old": "1-00:00:00", "New": "2-00:00:00"}],
        }
    ]
    qos = json.loads(changed.ok("history", "--json", "--object", "high").stdout)["transactions"]
    assert [(t["Action"], t["Cluster"], t["Changes"]) for t in qos][:1] == [("add qos", None, None)]


def test_apply_keeps_old_values_too(fscli, tmp_path):
    tree = tmp_path / "t.yaml"
    text = "cluster: {name: c1}\naccounts:\n  physics: {fairshare: %d}\n"
    tree.write_text(text % 30)
    fscli.ok("apply", str(tree))
    tree.write_text(text % 35)
    fscli.ok("apply", str(tree))
    doc = json.loads(fscli.ok("history", "--json", "--action", "modify").stdout)
    assert [(t["Detail"], t["Changes"]) for t in doc["transactions"]] == [
        ("fairshare=30 -> 35", [{"Key": "fairshare", "Old": "30", "New": "35"}])
    ]


def test_a_store_from_before_keeps_its_rows_and_learns_their_cluster(fscli, db_path):
    """Rows written before migration 0012 kept no old values: they print as they did;
    their cluster is read from their target, so --cluster finds them."""
    from sqlalchemy import text

    from fscli.store.db import create_engine_for, resolve_url, upgrade

    engine = create_engine_for(resolve_url(db_path))
    upgrade(engine, "0011")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO transaction_log (at, actor, action, target, detail) VALUES "
                "(1, 'ann', 'add cluster', 'c1', ''), "
                "(2, 'ann', 'modify account', 'chem@c1', 'fairshare=120'), "
                "(3, 'ann', 'modify qos', 'high', 'priority=5'), "
                "(4, 'ann', 'config set', 'PriorityDecayHalfLife@c2', '20160')"
            )
        )
    engine.dispose()
    assert fscli.ok("history", "-P", "-n", "--cluster", "c1").stdout.splitlines() == [
        "1970-01-01T00:00:01|ann|add cluster|c1|",
        "1970-01-01T00:00:02|ann|modify account|chem@c1|fairshare=120",
    ]
    doc = json.loads(fscli.ok("history", "--json", "--actor", "ann").stdout)
    assert [(t["Cluster"], t["Changes"]) for t in doc["transactions"]] == [
        ("c1", None),
        ("c1", None),
        (None, None),
        ("c2", None),
    ]
