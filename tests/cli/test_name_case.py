"""Names are lower-cased on every path that writes them, as sacctmgr stores them: native
commands, ``fscli sacctmgr``, ``apply`` of a YAML tree, ``load`` of a flat file and the
Python API build the same store from the same mixed-case names (issue 31, item 6).
Partition names keep their case, as Slurm keeps it."""

from __future__ import annotations

import pytest

import fscli
from fscli.engine.treespec import (
    AccountSpec,
    ClusterSpec,
    QosSpec,
    TreeSpec,
    UserAssocSpec,
    UserSpec,
)

YAML = """\
cluster: {name: C1, qos: [normal]}
qos:
  High: {}
  normal: {}
accounts:
  Science:
    children:
      Physics: {}
users:
  Alice:
    associations:
    - account: Physics
      qos: [High, normal]
"""

FLAT = """\
Cluster - 'C1':Fairshare=1:QOS='normal'
Parent - 'root'
Account - 'Science':Fairshare=1
Parent - 'Science'
Account - 'Physics':Fairshare=1
Parent - 'Physics'
User - 'Alice':DefaultAccount='Physics':Fairshare=1:QOS='High,normal'
"""

EXPECTED = [
    "Cluster - 'c1':Fairshare=1:QOS='normal'",
    "Parent - 'root'",
    "Account - 'science':Description='science':Organization='science':Fairshare=1",
    "Parent - 'science'",
    "Account - 'physics':Description='physics':Organization='science':Fairshare=1",
    "Parent - 'physics'",
    "User - 'alice':DefaultAccount='physics':Fairshare=1:QOS='high,normal'",
]


def _native(f, tmp_path) -> None:
    f.ok("cluster", "add", "C1")
    f.ok("qos", "add", "High")
    f.ok("account", "add", "Science")
    f.ok("account", "add", "Physics", "parent=Science")
    f.ok("user", "add", "Alice", "account=Physics", "qos=High,normal")


def _sacctmgr(f, tmp_path) -> None:
    f.ok("sacctmgr", "-i", "add", "cluster", "C1")
    f.ok("sacctmgr", "-i", "add", "qos", "High")
    f.ok("sacctmgr", "-i", "add", "account", "Science")
    f.ok("sacctmgr", "-i", "add", "account", "Physics", "parent=Science")
    f.ok("sacctmgr", "-i", "add", "user", "Alice", "account=Physics", "qos=High,normal")


def _apply(f, tmp_path) -> None:
    path = tmp_path / "tree.yaml"
    path.write_text(YAML)
    f.ok("apply", str(path))


def _load(f, tmp_path) -> None:
    f.ok("qos", "add", "High")  # a flat file cannot define a QOS's settings
    path = tmp_path / "c1.cfg"
    path.write_text(FLAT)
    f.ok("load", str(path))


def _python(f, tmp_path) -> None:
    spec = TreeSpec(
        cluster=ClusterSpec(name="C1", qos=["normal"]),
        accounts={
            "Science": AccountSpec(name="Science"),
            "Physics": AccountSpec(name="Physics", parent="Science"),
        },
        users={
            "Alice": UserSpec(
                name="Alice",
                associations=[UserAssocSpec(account="Physics", qos=["High", "normal"])],
            )
        },
        qos={"High": QosSpec(name="High"), "normal": QosSpec(name="normal")},
    )
    with fscli.open_store(f.db) as store:
        store.apply_tree(spec)


def _python_writes(f, tmp_path) -> None:
    with fscli.open_store(f.db) as store, store.transaction() as tx:
        tx.add_cluster("C1")
        tx.add_qos("High")
        tx.add_account("Science")
        tx.add_account("Physics", parent="Science")
        tx.add_user("Alice", "Physics", qos=["High", "normal"])


WRITERS = [_native, _sacctmgr, _apply, _load, _python, _python_writes]


@pytest.mark.parametrize("writer", WRITERS, ids=lambda w: w.__name__.strip("_"))
def test_every_writer_stores_lower_case_names(fscli, tmp_path, writer):
    writer(fscli, tmp_path)
    dump = fscli.ok("dump", "c1", f"file={tmp_path / 'out.cfg'}")
    assert dump.exit_code == 0
    lines = (tmp_path / "out.cfg").read_text().splitlines()
    # sacctmgr's add cluster gives root a user association: that is its own rule
    body = [x for x in lines if not x.startswith(("#", "User - 'root'"))]
    assert body == EXPECTED
    assert fscli.ok("qos", "list", "-P", "-n").stdout.split("|")[0] == "high"
    # reachable by the other commands, which lower-case what they are given
    fscli.ok("account", "modify", "science", "set", "fairshare=5")
    fscli.ok("user", "modify", "ALICE", "set", "fairshare=2")


def test_names_that_differ_only_in_case_are_one_name(fscli, tmp_path):
    path = tmp_path / "tree.yaml"
    path.write_text(YAML)
    fscli.ok("apply", str(path))
    fscli.fails("account", "add", "science")  # the very account apply made
    path.write_text(YAML.replace("  Science:\n", "  science: {}\n  Science:\n"))
    result = fscli.fails("apply", str(path), code=1)
    assert result.stderr == (
        "fscli: error: account 'science' is given twice: 'science' and 'Science' "
        "(names are stored in lower case)\n"
    )


def test_partition_names_keep_their_case(fscli, tmp_path):
    path = tmp_path / "tree.yaml"
    path.write_text(YAML + "partitions:\n  GPU: {qos: High}\n")
    fscli.ok("apply", str(path))
    listed = fscli.ok("partition", "list", "-P", "-n").stdout.split("|")
    assert (listed[0], listed[6]) == ("GPU", "high")
