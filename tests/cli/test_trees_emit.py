"""``fscli apply/load --emit sacctmgr|json`` through the CLI: the script, its JSON, and that
nothing is written. The scripts' lines themselves: tests/render/test_sacctmgr_script.py."""

from __future__ import annotations

import json

TREE = """\
cluster: {name: c1, qos: [normal]}
qos: {normal: {}}
accounts:
  lab: {description: Big Lab}
users:
  alice: {associations: [lab]}
"""
SCRIPT = (
    "sacctmgr -i add account lab cluster=c1 parent=root description='Big Lab' "
    "organization=lab\n"
    "sacctmgr -i add user alice account=lab cluster=c1 defaultaccount=lab\n"
)


def write(tmp_path, text: str, name: str = "t.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_emit_prints_the_script_and_writes_nothing(fscli, tmp_path):
    fscli.ok("cluster", "add", "c1")
    path = write(tmp_path, TREE)
    assert fscli.ok("apply", path, "--emit", "sacctmgr").stdout == SCRIPT
    assert fscli.ok("account", "list", "-P", "-n").stdout == "root|default root account|root\n"
    assert fscli.ok("apply", path, "--emit", "sacctmgr").stdout == SCRIPT


def test_emit_of_a_tree_the_store_matches_prints_nothing(fscli, tmp_path):
    path = write(tmp_path, TREE)
    fscli.ok("-Q", "apply", path)
    result = fscli.ok("apply", path, "--prune", "--emit", "sacctmgr")
    assert (result.stdout, result.stderr) == ("", "")


def test_emit_json_gives_each_operation_with_its_commands(fscli, tmp_path):
    fscli.ok("cluster", "add", "c1")
    doc = json.loads(fscli.ok("apply", write(tmp_path, TREE), "--emit", "json").stdout)
    assert [(o["op"], o["kind"], o["name"], o["commands"]) for o in doc["operations"]] == [
        (
            "+",
            "account",
            "lab",
            [
                [
                    "sacctmgr",
                    "-i",
                    "add",
                    "account",
                    "lab",
                    "cluster=c1",
                    "parent=root",
                    "description=Big Lab",
                    "organization=lab",
                ]
            ],
        ),
        (
            "+",
            "assoc",
            "alice/lab",
            [
                [
                    "sacctmgr",
                    "-i",
                    "add",
                    "user",
                    "alice",
                    "account=lab",
                    "cluster=c1",
                    "defaultaccount=lab",
                ]
            ],
        ),
    ]
    assert doc["operations"][0]["changes"][:2] == [
        {"field": "parent", "old": "", "new": "root"},
        {"field": "description", "old": "", "new": "Big Lab"},
    ]
    assert (doc["cluster"], doc["not_sacctmgr"], doc["kept"]) == ("c1", [], [])


def test_emit_refuses_what_apply_refuses(fscli, tmp_path):
    bad = TREE.replace("alice: {associations: [lab]}", "alice: {associations: [nope]}")
    result = fscli.fails("apply", write(tmp_path, bad), "--emit", "sacctmgr", code=1)
    assert "nope" in result.stderr
    assert result.stdout == ""


def test_load_emit_prints_the_script_of_the_flat_file(fscli, tmp_path):
    fscli.ok("cluster", "add", "c1")
    flat = write(
        tmp_path,
        "Cluster - 'c1':Fairshare=1:QOS='normal'\n"
        "Parent - 'root'\n"
        "Account - 'lab':Description='Big Lab':Organization='lab':Fairshare=3\n",
        "c1.cfg",
    )
    assert fscli.ok("load", flat, "--emit", "sacctmgr").stdout == (
        "sacctmgr -i add account lab cluster=c1 parent=root description='Big Lab' "
        "organization=lab fairshare=3\n"
    )
    assert fscli.ok("account", "list", "-P", "-n").stdout == "root|default root account|root\n"


def test_load_clean_emit_deletes_first_then_adds_back(fscli, tmp_path):
    fscli.ok("-Q", "apply", write(tmp_path, TREE))
    flat = write(
        tmp_path,
        "Cluster - 'c1':Fairshare=1:QOS='normal'\n"
        "Parent - 'root'\n"
        "Account - 'lab':Description='Big Lab':Organization='lab':Fairshare=3\n"
        "Parent - 'lab'\n"
        "User - 'alice':DefaultAccount='lab':Fairshare=1\n",
        "c1.cfg",
    )
    assert fscli.ok("load", flat, "clean", "--emit", "sacctmgr").stdout == (
        "sacctmgr -i delete user where name=alice\n"
        "sacctmgr -i delete account where name=lab\n"
        "sacctmgr -i add account lab cluster=c1 parent=root description='Big Lab' "
        "organization=lab fairshare=3\n"
        "sacctmgr -i add user alice account=lab cluster=c1 defaultaccount=lab\n"
    )
