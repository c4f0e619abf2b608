"""Administration commands through the CLI: the issue's sequence, output, history."""

from __future__ import annotations

import json

from fscli.api.store import process_user


def test_issue_sequence_parsable(science):
    science.ok("user", "modify", "bob", "account=chem", "set", "fairshare=parent")
    out = science.ok("assoc", "list", "-P", "format=Account,User,Share,GrpTRES").stdout
    assert out == (
        "Account|User|Share|GrpTRES\n"
        "root||1|\n"
        "science||40|\n"
        "chem||10|cpu=128\n"
        "chem|bob|parent|\n"
        "chem|carol|1|\n"
        "physics||30|\n"
        "physics|alice|1|\n"
    )


def test_tree_parsable_indents_like_sacctmgr(science):
    out = science.ok("assoc", "list", "--tree", "-P", "format=Account,User,Share").stdout
    assert out.splitlines() == [
        "Account|User|Share",
        "root||1",
        " science||40",
        "  chem||10",
        "   chem|bob|1",
        "   chem|carol|1",
        "  physics||30",
        "   physics|alice|1",
    ]


def test_tree_rich_draws_hierarchy(science):
    out = science.ok("assoc", "list", "--tree").stdout
    assert "└─ science" in out
    assert "├─ chem" in out and "└─ physics" in out


def test_history_records_every_change(science):
    science.ok("user", "modify", "bob", "account=chem", "set", "fairshare=parent")
    lines = science.ok("history", "-P").stdout.splitlines()
    assert lines[0] == "Time|Actor|Action|Target|Detail"
    rows = [line.split("|") for line in lines[1:]]
    assert [r[2] for r in rows] == [
        "add cluster",
        "add account",
        "add account",
        "add account",
        "add user",
        "add user",
        "add user",
        "modify association",
    ]
    assert rows[-1][1:] == [
        process_user(),
        "modify association",
        "bob/chem@c1",
        "fairshare=1 -> parent",
    ]
    assert rows[3][4] == "parent=science fairshare=10 GrpTRES=cpu=128"


def test_history_since(science):
    science.ok("account", "add", "late", at="2030-01-01T00:00:00")
    out = science.ok("history", "-P", "--since", "2029-12-31T00:00:00", "-n").stdout
    assert out.strip().splitlines() == [
        f"2030-01-01T00:00:00|{process_user()}|add account|late@c1|parent=root"
    ]


def test_json_and_noheader(science):
    doc = json.loads(science.ok("assoc", "list", "--json", "format=Account,User,Share").stdout)
    assert doc["associations"][3] == {"Account": "chem", "User": "bob", "Share": 1}
    out = science.ok("user", "list", "-p", "-n").stdout
    assert out.splitlines() == ["alice|physics|None|", "bob|chem|None|", "carol|chem|None|"]


def test_limits_are_stored_and_cleared(science):
    science.ok(
        "account",
        "modify",
        "physics",
        "set",
        "GrpTRES=cpu=100,mem=200G",
        "MaxJobs=10",
        "MaxWall=2-00:00:00",
        "GrpTRESMins=cpu=1000",
    )

    def row() -> str:
        return science.ok(
            "assoc",
            "list",
            "-P",
            "-n",
            "account=physics",
            "user=",
            "format=Account,User,GrpTRES,MaxJobs,MaxWall,GrpTRESMins",
        ).stdout

    assert row().splitlines()[0] == "physics||cpu=100,mem=200G|10|2-00:00:00|cpu=1000"
    science.ok("account", "modify", "physics", "set", "GrpTRES=cpu=-1", "MaxJobs=-1")
    assert row().splitlines()[0] == "physics||mem=200G||2-00:00:00|cpu=1000"


def test_modify_with_where_and_without_set_mean_the_same(science):
    science.ok("user", "modify", "where", "name=carol", "account=chem", "set", "fairshare=5")
    science.ok("account", "modify", "physics", "fairshare=7")
    out = science.ok("assoc", "list", "-P", "-n", "format=Account,User,Share").stdout
    assert "chem|carol|5" in out.splitlines()
    assert "physics||7" in out.splitlines()


def test_case_insensitive_keys_and_names(science):
    science.ok("account", "add", "Bio", "Parent=Science", "FairShare=3", "MAXJOBS=4")
    out = science.ok(
        "assoc", "list", "-P", "-n", "account=bio", "format=Account,ParentName,Share,MaxJobs"
    )
    assert out.stdout == "bio|science|3|4\n"


def test_qos_lists_plus_minus(science):
    science.ok("qos", "add", "high", "priority=100")
    science.ok("qos", "add", "low", "priority=10")
    science.ok("account", "modify", "chem", "set", "qos=normal,high")
    science.ok("account", "modify", "chem", "set", "qos+=low")
    science.ok("account", "modify", "chem", "set", "qos-=high", "defaultqos=low")
    out = science.ok("assoc", "list", "-P", "-n", "account=chem", "user=", "format=QOS,DefaultQOS")
    assert out.stdout.splitlines()[0] == "low,normal|low"


def test_dry_run_changes_nothing(science):
    before = science.ok("assoc", "list", "-P").stdout
    result = science.ok("account", "add", "ghost", "--dry-run")
    assert "would have added account ghost" in result.stderr
    science.ok("account", "delete", "science", "--recursive", "--dry-run")
    science.ok("user", "modify", "alice", "set", "fairshare=9", "--dry-run")
    assert science.ok("assoc", "list", "-P").stdout == before
    assert "ghost" not in science.ok("history", "-P").stdout


def test_recursive_delete_removes_subtree_and_orphans(science):
    science.ok("user", "add", "alice", "account=chem")
    science.ok("user", "modify", "alice", "set", "defaultaccount=chem")
    science.ok("account", "delete", "chem", "--recursive")
    assert science.ok("assoc", "list", "-P", "-n", "format=Account,User").stdout.splitlines() == [
        "root|",
        "science|",
        "physics|",
        "physics|alice",
    ]
    # alice's default account went away: she gets the first account she still has
    assert science.ok("user", "list", "-P", "-n").stdout == "alice|physics|None\n"


def test_delete_user_association_and_user(science):
    science.ok("user", "add", "bob", "account=physics")
    science.ok("user", "delete", "bob", "account=physics")
    science.ok("user", "delete", "carol")
    assert science.ok("user", "list", "-P", "-n").stdout == "alice|physics|None\nbob|chem|None\n"


def test_user_default_account_rules(science):
    science.ok("user", "add", "dave", "account=chem,physics")
    assert "dave|chem|None" in science.ok("user", "list", "-P").stdout
    science.ok("user", "add", "erin", "defaultaccount=physics")
    assert "erin|physics|None" in science.ok("user", "list", "-P").stdout
    science.ok("user", "modify", "dave", "set", "defaultaccount=physics", "adminlevel=operator")
    assert "dave|physics|Operator" in science.ok("user", "list", "-P").stdout


def test_partition_user_association(science):
    science.ok(
        "partition",
        "add",
        "gpu",
        "nodes=4",
        "cpus=128",
        "tres=mem=512G,gres/gpu=16",
        "priorityjobfactor=10",
        "maxtime=1-00:00:00",
    )
    science.ok("user", "add", "alice", "account=physics", "partition=gpu", "fairshare=3")
    out = science.ok(
        "assoc", "list", "-P", "-n", "user=alice", "format=Account,User,Partition,Share"
    )
    assert out.stdout.splitlines() == ["physics|alice||1", "physics|alice|gpu|3"]
    parts = science.ok("partition", "list", "-P", "-n").stdout
    assert parts == "gpu|4|128|mem=512G,gres/gpu=16|10|1||1-00:00:00||||||\n"


def test_qos_and_cluster_lists(science):
    science.ok(
        "qos",
        "add",
        "high",
        "priority=100",
        "flags=DenyOnLimit,OverPartQOS",
        "MaxJobsPerUser=4",
        "usagefactor=2",
        "GrpTRES=cpu=64",
    )
    science.ok("qos", "modify", "high", "set", "flags-=denyonlimit")
    out = science.ok("qos", "list", "-P").stdout.splitlines()
    header = out[0].split("|")
    high = dict(zip(header, out[1].split("|")))
    assert (high["Name"], high["Priority"], high["Flags"], high["UsageFactor"]) == (
        "high",
        "100",
        "OverPartQOS",
        "2.000000",
    )
    assert (high["MaxJobsPerUser"], high["GrpTRES"]) == ("4", "cpu=64")
    science.ok("cluster", "modify", "c1", "set", "nodes=10", "cpus=640")
    assert science.ok("cluster", "list", "-P", "-n").stdout == "c1|10|640|\n"


def test_first_account_add_creates_default_cluster(fscli):
    fscli.ok("account", "add", "a1")
    assert fscli.ok("cluster", "list", "-P", "-n").stdout == "default|||\n"


def test_cluster_choice_with_several_clusters(fscli):
    fscli.ok("cluster", "add", "c1")
    fscli.ok("cluster", "add", "c2")
    fscli.fails("account", "add", "a1", code=2)
    fscli.ok("--cluster", "c2", "account", "add", "a1")
    fscli.ok("account", "add", "a2", "cluster=c1")
    assert "a1" in fscli.ok("--cluster", "c2", "assoc", "list", "-P").stdout
    assert "a1" not in fscli.ok("--cluster", "c1", "assoc", "list", "-P").stdout


def test_db_commands(fscli):
    from fscli.store.db import HEAD

    fscli.ok("db", "upgrade")
    assert fscli.ok("db", "current").stdout.strip() == HEAD


def test_deletes_of_thousands_of_associations_go_in_slices(fscli, tmp_path):
    """More ids than one IN list may carry (IN_LIST) still delete, all at once."""
    from fscli.store.sql import IN_LIST

    users = 2 * IN_LIST + 5
    tree = ["cluster: {name: c1}", "accounts:", "  big: {fairshare: 1}", "  keep: {}", "users:"]
    tree += [f"  u{n}: {{associations: [big]}}" for n in range(users)]
    (tmp_path / "t.yaml").write_text("\n".join(tree) + "\n")
    fscli.ok("-Q", "apply", str(tmp_path / "t.yaml"))
    fscli.ok("-Q", "usage", "add", "user=u7", "account=big", "raw=10")
    fscli.ok("-Q", "job", "submit", f"user=u{users - 1}", "account=big", "state=running")
    err = fscli.fails("account", "delete", "big", "--recursive", code=1).stderr
    assert (
        err
        == "fscli: error: Job(s) active, cancel job(s) before remove (1 pending or running: job 1)\n"
    )
    fscli.ok("-Q", "job", "cancel", "1")
    out = fscli.ok("account", "delete", "big", "--recursive").stderr
    assert len(out.splitlines()) == users + 1
    assert fscli.ok("assoc", "list", "-P", "-n", "format=Account,User").stdout == "root|\nkeep|\n"
    assert fscli.ok("cluster", "delete", "c1").stderr == (
        "deleted cluster c1 and its 2 associations\n"
    )


def test_assoc_list_json_keeps_numbers_numbers(science):
    """docs/json.md: counts and minutes are numbers, TRES limits objects (memory in MB)."""
    science.ok("-Q", "limits", "set", "account=chem", "GrpTRES=mem=1T", "MaxJobs=5", "MaxWall=2-0")
    rows = json.loads(
        science.ok(
            "assoc",
            "list",
            "--json",
            "account=chem",
            "format=Account,User,Share,GrpTRES,MaxJobs,MaxWall",
        ).stdout
    )
    assert rows["associations"] == [
        {
            "Account": "chem",
            "User": "",
            "Share": 10,
            "GrpTRES": {"cpu": 128, "mem": 1048576},
            "MaxJobs": 5,
            "MaxWall": 2880,
        },
        {
            "Account": "chem",
            "User": "bob",
            "Share": 1,
            "GrpTRES": None,
            "MaxJobs": None,
            "MaxWall": None,
        },
        {
            "Account": "chem",
            "User": "carol",
            "Share": 1,
            "GrpTRES": None,
            "MaxJobs": None,
            "MaxWall": None,
        },
    ]


def test_refusals_name_their_blockers(science):
    """Issue 35: a refusal said how many jobs or associations stood in the way, not which:
    the first few by name, and how many more."""
    for _ in range(5):
        science.ok("-Q", "job", "submit", "user=alice")
    err = science.fails("account", "delete", "physics", "--recursive", code=1).stderr
    assert err == (
        "fscli: error: Job(s) active, cancel job(s) before remove "
        "(5 pending or running: jobs 1, 2, 3 and 2 more)\n"
    )
    err = science.fails("account", "delete", "science", code=1).stderr
    assert err == (
        "fscli: error: account 'science' still has 2 sub-account(s) (chem, physics) and 0 user "
        "association(s): delete them first or use --recursive\n"
    )
    err = science.fails("account", "delete", "chem", code=1).stderr
    assert "0 sub-account(s) and 2 user association(s) (bob, carol):" in err
    err = science.fails("qos", "delete", "normal", code=1).stderr
    assert err == (
        "fscli: error: QOS 'normal' is used by 5 pending or running job(s): "
        "jobs 1, 2, 3 and 2 more\n"
    )
