"""The sacctmgr script of a tree plan (``fscli.render.sacctmgr_script``): exact lines for the
traps a hand-written script falls into. The order and words are those the live test
(``tests/live/test_sacctmgr_emit.py``) runs on the real sacctmgr."""

from __future__ import annotations

import pytest

import fscli
from fscli.render.sacctmgr_script import script

AT = "2026-05-01T00:00:00"
CLUSTER = "cluster: {name: c1, qos: [normal]}\n"


def tree(text: str) -> str:
    """A tree of cluster c1, with QOS normal unless it says its QOS."""
    own = any(line.startswith("qos:") for line in text.splitlines())
    return CLUSTER + ("" if own else "qos: {normal: {}}\n") + text


@pytest.fixture
def open_store(store):
    with fscli.open_store(store) as opened:
        yield opened


def emit(store, before: str, after: str, prune: bool = True) -> str:
    """The script that takes the cluster from tree ``before`` (applied) to ``after``."""
    store.apply_tree(tree(before), prune=True, at=AT)
    plan = store.apply_tree(tree(after), prune=prune, dry_run=True, at=AT, records=True)
    return script(plan).text()


def test_a_default_account_moves_before_the_association_it_leaves_is_deleted(open_store):
    before = """\
accounts: {phys: {}, chem: {}}
users:
  alice: {default_account: phys, associations: [phys, chem]}
"""
    after = """\
accounts: {phys: {}, chem: {}}
users:
  alice: {default_account: chem, associations: [chem]}
"""
    assert emit(open_store, before, after) == (
        "sacctmgr -i modify user where name=alice cluster=c1 set defaultaccount=chem\n"
        "sacctmgr -i delete user where name=alice account=phys partition='' cluster=c1\n"
    )


def test_a_new_default_account_is_added_before_the_move(open_store):
    before = "accounts: {phys: {}, chem: {}}\nusers: {alice: {associations: [phys]}}\n"
    after = """\
accounts: {phys: {}, chem: {}}
users:
  alice: {default_account: chem, associations: [{account: chem, fairshare: 4}]}
"""
    assert emit(open_store, before, after) == (
        "sacctmgr -i add user alice account=chem cluster=c1 fairshare=4\n"
        "sacctmgr -i modify user where name=alice cluster=c1 set defaultaccount=chem\n"
        "sacctmgr -i delete user where name=alice account=phys partition='' cluster=c1\n"
    )


def test_an_account_moves_under_its_former_child(open_store):
    before = """\
accounts: {a: {organization: o}, b: {parent: a, organization: o}, c: {parent: b, organization: o}}
"""
    after = """\
accounts: {b: {organization: o}, a: {parent: b, fairshare: 5, organization: o},
  c: {parent: a, organization: o}}
"""
    assert emit(open_store, before, after) == (
        "sacctmgr -i modify account where name=b cluster=c1 set parent=root\n"
        "sacctmgr -i modify account where name=a cluster=c1 set parent=b fairshare=5\n"
        "sacctmgr -i modify account where name=c cluster=c1 set parent=a\n"
    )


def test_new_accounts_parents_first_with_their_texts_quoted(open_store):
    after = """\
accounts:
  lab: {description: Big Lab of Physics, organization: "sci & tech"}
  sub: {parent: lab, limits: {GrpTRES: "cpu=8,mem=64000"}}
"""
    assert emit(open_store, "", after) == (
        "sacctmgr -i add account lab cluster=c1 parent=root description='Big Lab of Physics' "
        "organization='sci & tech'\n"
        "sacctmgr -i add account sub cluster=c1 parent=lab description=sub organization=lab "
        "GrpTRES=cpu=8,mem=64000\n"
    )


def test_a_qos_comes_before_the_users_that_name_it_and_goes_after(open_store):
    before = """\
qos: {normal: {}, old: {}}
accounts: {phys: {}}
users: {alice: {associations: [{account: phys, qos: [normal, old]}]}}
"""
    after = """\
qos: {normal: {}, fast: {description: for deadlines, priority: 10}}
accounts: {phys: {}}
users:
  alice: {associations: [{account: phys, qos: [fast, normal], default_qos: fast}]}
"""
    assert emit(open_store, before, after) == (
        "sacctmgr -i add qos fast description='for deadlines' priority=10\n"
        "sacctmgr -i modify user where name=alice account=phys partition='' cluster=c1 "
        "set qos=fast,normal defaultqos=fast\n"
        "sacctmgr -i delete qos where name=old\n"
    )


def test_deletions_leaves_first_a_leaving_users_default_last(open_store):
    before = """\
accounts: {a: {}, b: {parent: a}, c: {parent: b}}
users:
  alice: {default_account: b, associations: [a, b, c]}
  bob: {associations: [c]}
"""
    assert emit(open_store, before, "") == (
        "sacctmgr -i delete user where name=alice account=a partition='' cluster=c1\n"
        "sacctmgr -i delete user where name=alice account=c partition='' cluster=c1\n"
        "sacctmgr -i delete user where name=alice\n"
        "sacctmgr -i delete user where name=bob\n"
        "sacctmgr -i delete account where name=c\n"
        "sacctmgr -i delete account where name=b\n"
        "sacctmgr -i delete account where name=a\n"
    )


def test_limits_and_settings_are_cleared_one_by_one(open_store):
    before = """\
accounts:
  a: {fairshare: 5, priority: 3, limits: {GrpTRES: "cpu=4,node=2", MaxJobs: 5}}
"""
    after = "accounts: {a: {limits: {GrpTRES: cpu=8}}}\n"
    assert emit(open_store, before, after) == (
        "sacctmgr -i modify account where name=a cluster=c1 set fairshare=1 priority=-1 "
        "GrpTRES=cpu=8,node=-1 MaxJobs=-1\n"
    )


def test_an_accounts_new_default_qos_finds_its_users_lists_ready(open_store):
    """sacctmgr takes back (exit code 0) an account's DefaultQOS that a user association
    of the account lacks in a QOS list of its own."""
    before = """\
qos: {normal: {}, long: {}}
accounts: {a: {}}
users: {alice: {associations: [{account: a, qos: [normal]}]}}
"""
    after = """\
qos: {normal: {}, long: {}}
accounts: {a: {qos: [long, normal], default_qos: long}}
users: {alice: {associations: [{account: a, qos: [long]}]}}
"""
    assert emit(open_store, before, after) == (
        "sacctmgr -i modify user where name=alice account=a partition='' cluster=c1 "
        "set qos=long,normal\n"
        "sacctmgr -i modify account where name=a cluster=c1 set qos=long,normal "
        "defaultqos=long\n"
        "sacctmgr -i modify user where name=alice account=a partition='' cluster=c1 "
        "set qos=long\n"
    )


def test_coordinators_after_their_users_and_before_deletions(open_store):
    before = "accounts: {a: {}, b: {}}\nusers: {bob: {coordinator_of: [a], associations: [a]}}\n"
    after = """\
accounts: {b: {}}
users: {bob: {admin_level: Operator, coordinator_of: [b], associations: [b]}}
"""
    assert emit(open_store, before, after) == (
        "sacctmgr -i add user bob account=b cluster=c1\n"
        "sacctmgr -i modify user where name=bob cluster=c1 set defaultaccount=b\n"
        "sacctmgr -i modify user where name=bob set adminlevel=Operator\n"
        "sacctmgr -i add coordinator names=bob accounts=b\n"
        "sacctmgr -i delete coordinator where names=bob accounts=a\n"
        "sacctmgr -i delete user where name=bob account=a partition='' cluster=c1\n"
        "sacctmgr -i delete account where name=a\n"
    )


def test_another_clusters_objects_are_never_removed(open_store):
    """c2 shares a QOS, an account and a user with c1: the script for c1 removes only
    c1's associations of them, keeps the QOS, and says the texts sacctmgr's add keeps."""
    open_store.apply_tree(
        """\
cluster: {name: c2, qos: [normal]}
qos: {normal: {}, shared: {}}
accounts: {common: {description: on c2, qos: [normal, shared]}}
users: {frank: {admin_level: Operator, associations: [common]}}
""",
        at=AT,
    )
    before = """\
qos: {normal: {}, shared: {}}
accounts: {common: {description: on c2}, mine: {}}
users: {frank: {admin_level: Operator, associations: [common, mine]}}
"""
    assert emit(open_store, before, "accounts: {mine: {}}\n") == (
        "sacctmgr -i delete user where name=frank account=mine partition='' cluster=c1\n"
        "sacctmgr -i delete user where name=frank account=common partition='' cluster=c1\n"
        "sacctmgr -i delete account where name=common cluster=c1\n"
        "# qos shared: kept, 1 association(s) on cluster c2 use it\n"
    )
    after = """\
accounts: {common: {description: shared lab}, mine: {}}
users: {frank: {admin_level: Operator, associations: [common, mine]}}
"""
    assert emit(open_store, "accounts: {mine: {}}\n", after) == (
        "sacctmgr -i add account common cluster=c1 parent=root description='shared lab' "
        "organization=common\n"
        "sacctmgr -i modify account where name=common set description='shared lab' "
        "organization=common\n"
        "sacctmgr -i add user frank account=common cluster=c1 defaultaccount=common\n"
        "sacctmgr -i add user frank account=mine cluster=c1\n"
        "# qos shared: kept, 1 association(s) on cluster c2 use it\n"
    )


def test_what_sacctmgr_does_not_hold_is_a_comment(open_store):
    after = "partitions: {batch: {priority_job_factor: 10}}\npriority: {PriorityWeightAge: 100}\n"
    assert emit(open_store, "", after, prune=False) == (
        "# not sacctmgr's (slurm.conf): + partition batch: priority_job_factor=10 "
        "priority_tier=1\n"
        "# not sacctmgr's (slurm.conf): + priority PriorityWeightAge: value=100\n"
    )


def test_a_plan_without_changes_is_no_script(open_store):
    same = "accounts: {a: {description: A b}}\nusers: {alice: {associations: [a]}}\n"
    assert emit(open_store, same, same) == ""


def test_an_accounts_new_default_qos_waits_for_a_leaving_users_list(open_store):
    before = """\
qos: {normal: {}, low: {}}
accounts: {a: {}}
users:
  alice: {associations: [{account: a, qos: [low], default_qos: low}]}
  bob: {associations: [a]}
"""
    after = """\
qos: {normal: {}, low: {}}
accounts: {a: {qos: [normal], default_qos: normal}}
users: {bob: {associations: [a]}}
"""
    assert emit(open_store, before, after) == (
        "sacctmgr -i modify user where name=alice account=a partition='' cluster=c1 "
        "set qos=low,normal\n"
        "sacctmgr -i modify account where name=a cluster=c1 set qos=normal defaultqos=normal\n"
        "sacctmgr -i delete user where name=alice\n"
    )
