"""The API's write surface (fscli.api.writes): keyword writes, one transaction, no traces
of a refused change; the command line sees what Python wrote."""

from __future__ import annotations

import pytest

from fscli.api import open_store
from fscli.errors import FscliError, UsageProblem

AT = "2026-05-01T00:00:00"


@pytest.fixture
def api(science):
    with open_store(science.db) as store:
        yield store


def test_keyword_writes_are_what_the_commands_show(api, science):
    with api.transaction(at=AT) as tx:
        assert tx.add_account("bio", parent="science", fairshare=5, GrpTRES={"cpu": 64}) == [
            "added account bio on c1: parent=science fairshare=5 GrpTRES=cpu=64"
        ]
        tx.add_user("dave", "bio", MaxJobs=3, default_account="bio")
        tx.modify_user("bob", account="chem", fairshare="parent")
        tx.add_qos("high", priority=100, MaxTRESPerUser={"cpu": 32})
    out = science.ok("assoc", "list", "-P", "format=account,user,share,maxjobs,grptres").stdout
    assert "bio||5||cpu=64" in out.splitlines()
    assert "bio|dave|1|3|" in out.splitlines()
    assert "chem|bob|parent||" in out.splitlines()
    [high] = [q for q in api.qos() if q.name == "high"]
    assert (high.priority, high.limits) == (100, {"MaxTRESPerUser": {"cpu": 32}})


def test_a_change_to_what_is_already_set_returns_no_line(api):
    with api.transaction(at=AT) as tx:
        assert tx.modify_account("chem", GrpTRES="cpu=128") == []
        assert tx.delete_user("nobody", account="chem") == []
    assert [c.action for c in api.history()][-1] == "add user"  # nothing logged


def test_an_error_rolls_the_whole_transaction_back(api, science):
    before = science.ok("assoc", "list", "-P").stdout
    with pytest.raises(FscliError, match="account 'nosuch' does not exist"):
        with api.transaction(at=AT) as tx:
            tx.add_account("bio", fairshare=5)
            tx.add_user("dave", "nosuch")
    assert science.ok("assoc", "list", "-P").stdout == before


def test_a_dry_run_checks_everything_and_keeps_nothing(api, science):
    before = science.ok("assoc", "list", "-P").stdout
    with api.transaction(at=AT, dry_run=True) as tx:
        assert tx.add_account("bio") == ["added account bio on c1: parent=root"]
    assert science.ok("assoc", "list", "-P").stdout == before
    # its writes are made, so later checks see them, and a check's refusal is the real run's
    for dry_run in (True, False):
        with pytest.raises(FscliError, match="account 'bio' already exists on cluster c1"):
            with api.transaction(at=AT, dry_run=dry_run) as tx:
                tx.add_account("bio")
                tx.add_account("bio")
        with pytest.raises(FscliError, match="DefaultQOS 'normal' of account physics"):
            with api.transaction(at=AT, dry_run=dry_run) as tx:
                tx.add_qos("high")
                tx.modify_account("physics", default_qos="normal")
                tx.modify_account("science", qos="high")
    assert science.ok("assoc", "list", "-P").stdout == before


@pytest.mark.parametrize(
    ("write", "message"),
    [
        (lambda tx: tx.add_account("x", changes=object(), fairshare=1), "not both"),
        (lambda tx: tx.modify_cluster("c1", colour="red"), "unknown cluster setting 'colour'"),
        (lambda tx: tx.modify_jobs([1], urgency=3), "unknown job setting 'urgency'"),
        (lambda tx: tx.set_config({"PriorityDecayHalfLife": "soon"}), "PriorityDecayHalfLife"),
        (lambda tx: tx.add_account("bio", cluster="c9"), "c9"),
    ],
)
def test_bad_writes_are_refused_with_one_message(api, write, message):
    with pytest.raises(FscliError, match=message) as caught:
        with api.transaction(at=AT) as tx:
            write(tx)
    assert "\n" not in caught.value.message


def test_jobs_submitted_from_python_are_ranked_and_cancelled(api):
    with api.transaction(at=AT) as tx:
        tx.add_partition("batch", nodes=4, cpus=256)
        ids, _ = tx.submit_job(user="alice", cpus=8, count=2)
        with pytest.raises(UsageProblem, match="not both"):
            tx.submit_job(job=object(), user="bob")
    assert [j.id for j in api.jobs(state={"pending"})] == ids
    with api.transaction(at="2026-05-01T01:00:00") as tx:
        assert tx.modify_jobs(ids[:1], admin_priority=0) == [
            f"modified job {ids[0]}: priority=0 (held)"
        ]
        tx.cancel_jobs(ids[1:])
    assert [j.state for j in api.jobs()] == ["pending", "cancelled"]


def test_moving_an_account_is_refused_when_its_default_qos_leaves_the_list(api, science):
    """A move changes the QOS list the account inherits: a DefaultQOS that was in the old
    parent's list but is not in the new one's is refused, as setting it would be."""
    with api.transaction(at=AT) as tx:
        tx.add_qos("high")
        tx.modify_account("science", qos="normal,high")
        tx.add_account("other", qos="normal")
        tx.modify_account("physics", default_qos="high")
    before = science.ok("assoc", "list", "-P").stdout
    with pytest.raises(FscliError, match="DefaultQOS 'high' of account physics on cluster c1"):
        with api.transaction(at=AT) as tx:
            tx.modify_account("physics", parent="other")
    assert science.ok("assoc", "list", "-P").stdout == before
    with api.transaction(at=AT) as tx:  # a list that holds it: the move goes through
        tx.modify_account("other", qos="normal,high")
        assert tx.modify_account("physics", parent="other") == [
            "modified account physics on c1: parent=other"
        ]


@pytest.mark.parametrize(
    "write",
    [
        lambda tx: tx.add_account("bio", parent="root"),
        lambda tx: tx.add_user("dana", "root"),
        lambda tx: tx.add_partition("batch"),
        lambda tx: tx.set_config({"PriorityWeightAge": "10"}),
    ],
    ids=["account", "user", "partition", "config"],
)
def test_a_write_on_a_store_without_clusters_makes_none_up(tmp_path, write):
    """Issue 35: ``tx.add_account("bio", parent="root")`` on a new store made a cluster
    named ``default`` without a word; the library refuses, saying how to add one."""
    with open_store(str(tmp_path / "site.db")) as store:
        with pytest.raises(FscliError, match=r"no cluster yet: add one first \(tx.add_cluster"):
            with store.transaction(at=AT) as tx:
                write(tx)
        with store.transaction(at=AT) as tx:
            tx.add_cluster("c1")
            assert write(tx) != []
        assert store.clusters() == ["c1"]


def test_the_command_line_says_it_made_the_default_cluster(fscli):
    result = fscli.ok("account", "add", "a1")
    assert result.stderr == "added cluster default\nadded account a1 on default: parent=root\n"
