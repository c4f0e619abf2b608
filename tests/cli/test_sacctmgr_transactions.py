"""``sacctmgr list transactions``: slurmdbd's rows for what ``fscli sacctmgr`` changed.

The expected text is what real sacctmgr 22.05.8 printed for the same commands on a fresh
cluster ``live`` (time stamps and ``mod_time`` aside).
"""

from __future__ import annotations

import re

import pytest

from tests.backends import BACKEND
from tests.conftest import Fscli

pytestmark = pytest.mark.skipif(
    BACKEND != "sqlite",
    reason="slurmdbd's ids follow a fresh database; the server test database keeps its "
    "sequences from test to test (to do: ids relative to the store's first)",
)

COMMANDS = [
    "add account phys,chem description=Physics organization=sci",
    "add account bio parent=phys maxjobs=5 fairshare=10",
    "add user alice,bob account=phys",
    "add user carl account=chem defaultaccount=chem adminlevel=operator",
    "modify user alice set maxjobs=4",
    "modify user alice set maxjobs=4",
    "modify user where name=bob account=phys set fairshare=3",
    "modify user carl set adminlevel=admin",
    "modify account phys set description=Physical",
    "modify account bio set parent=chem",
    "modify account phys,chem set maxjobs=7 grpjobs=-1",
    "add coordinator account=phys,chem names=alice,bob",
    "delete coordinator account=phys names=alice",
    "delete user bob",
    "delete account bio",
]


def build_txn(fscli: Fscli) -> None:
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")
    for line in COMMANDS:
        fscli.ok("sacctmgr", "-i", *line.split())


@pytest.fixture
def txn(fscli, template) -> Fscli:
    """The store after :data:`COMMANDS`, each a transaction."""
    return template(fscli, build_txn)


def listing(fscli: Fscli, *words: str) -> str:
    out = fscli.ok("sacctmgr", "-P", "list", "transactions", *words).stdout
    out = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", "TS", out)
    return re.sub(r"mod_time=\d+", "mod_time=N", out)


def test_rows_actions_and_where(txn):
    assert listing(txn, "format=id,action,actor,where,cluster") == (
        "ID|Action|Actor|Where|Cluster\n"
        "1|Add Clusters|root|live|\n"
        "2|Add Associations|root|id_assoc=2|live\n"
        "3|Add Accounts|root|phys|\n"
        "4|Add Accounts|root|chem|\n"
        "5|Add Associations|root|id_assoc=3|live\n"
        "6|Add Associations|root|id_assoc=4|live\n"
        "7|Add Accounts|root|bio|\n"
        "8|Add Associations|root|id_assoc=5|live\n"
        "9|Add Users|root|alice|\n"
        "10|Add Users|root|bob|\n"
        "11|Add Associations|root|id_assoc=6|live\n"
        "12|Add Associations|root|id_assoc=7|live\n"
        "13|Add Users|root|carl|\n"
        "14|Add Associations|root|id_assoc=8|live\n"
        "15|Modify Associations|root|(id_assoc=6)|live\n"
        "16|Modify Associations|root|(id_assoc=6)|live\n"
        "17|Modify Associations|root|(id_assoc=7)|live\n"
        "18|Modify Users|root|(name='carl')|\n"
        "19|Modify Accounts|root|(name='phys')|\n"
        "20|Modify Associations|root|(id_assoc=3 || id_assoc=4)|live\n"
        "21|Add Account Coord|root|alice|\n"
        "22|Add Account Coord|root|alice|\n"
        "23|Add Account Coord|root|bob|\n"
        "24|Add Account Coord|root|bob|\n"
        "25|Remove Account Coords|root|(user='alice') && (acct='phys')|\n"
        "26|Remove Account Coords|root|(user='bob')|\n"
        "27|Remove Users|root|name='bob'|\n"
        "28|Remove Account Coords|root|(acct='bio')|\n"
        "29|Remove Accounts|root|name='bio'|\n"
    )


def test_info(txn):
    info = listing(txn, "format=id,info").splitlines()
    nulls = "grp_jobs=NULL, grp_jobs_accrue=NULL, grp_submit_jobs=NULL, grp_wall=NULL, "
    assert info[3] == "3|description='physics', organization='sci'"
    assert info[7] == "7|description='bio', organization='phys'"
    assert info[8] == (
        "8|mod_time=N, acct='bio', parent_acct='phys', user='', shares=10, " + nulls
        + "max_jobs=5, max_jobs_accrue=NULL, min_prio_thresh=NULL, max_submit_jobs=NULL, "
        "max_wall_pj=NULL, priority=NULL, def_qos_id=NULL, qos='', delta_qos=''"
    )  # fmt: skip
    assert info[11] == (
        "11|mod_time=N, acct='phys', user='alice', `partition`='', shares=1, " + nulls
        + "max_jobs=NULL, max_jobs_accrue=NULL, min_prio_thresh=NULL, max_submit_jobs=NULL, "
        "max_wall_pj=NULL, priority=NULL, def_qos_id=NULL, qos='', delta_qos=''"
    )  # fmt: skip
    assert "is_def=1, max_jobs=NULL" in info[14]  # carl's DefaultAccount= given
    assert info[9:11] == ["9|admin_level=1", "10|admin_level=1"]
    assert info[13] == "13|admin_level=2"
    assert info[15:21] == [
        "15|max_jobs=4",
        "16|max_jobs=4",
        "17|shares=3",
        "18|admin_level=3",
        "19|description='physical'",
        "20|grp_jobs=NULL, max_jobs=7",
    ]
    # coordinators in the order they were added (SQLite's rowid); a server keeps no such
    # order, and lists them by name
    assert info[21] == ("21|phys" if BACKEND == "sqlite" else "21|chem")
    assert info[25:] == ["25|", "26|", "27|", "28|", "29|"]


def test_conditions(txn):
    assert listing(txn, "Action=Add Users", "format=Where,Action") == (
        "Where|Action\nalice|Add Users\nbob|Add Users\ncarl|Add Users\n"
    )
    assert listing(txn, "users=alice", "format=id,action,where") == (
        "ID|Action|Where\n9|Add Users|alice\n11|Add Associations|id_assoc=6\n"
        "15|Modify Associations|(id_assoc=6)\n16|Modify Associations|(id_assoc=6)\n"
        "21|Add Account Coord|alice\n22|Add Account Coord|alice\n"
        "25|Remove Account Coords|(user='alice') && (acct='phys')\n"
    )
    # the associations named match whatever the action (MySQL's || binds loosest)
    assert listing(txn, "users=alice", "action=Add Users", "format=id") == ("ID\n9\n15\n16\n")
    assert listing(txn, "accounts=root", "format=id") == "ID\n2\n5\n6\n"
    assert listing(txn, "Ids=3,7", "format=id,where") == "ID|Where\n3|phys\n7|bio\n"
    assert listing(txn, "T=1", "Actors=root", "format=id") == "ID\n1\n"
    assert listing(txn, "Start=now+1hours", "format=id") == "ID\n"
    assert listing(txn, "End=01/01/20", "format=id") == "ID\n"
    assert listing(txn, "Start=2020-01-01T10:00", "End=now+1days", "format=id").count("\n") == 30


def test_withassoc_and_raw(txn):
    out = listing(txn, "withassoc", "format=id,user,account,cluster").splitlines()
    assert out[2] == "2|root|root|live"
    assert out[5] == "5||phys|live"
    assert out[8] == "8|||live"  # bio's association is gone
    assert out[20] == "20||chem,phys|live"
    assert listing(txn, "Ids=2,27", "format=actionraw,action") == (
        "ActionRaw|Action\n1404|Add Associations\n1439|Remove Users\n"
    )


def test_refusals(fscli):
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")
    for words, err in (
        (["Action=Add"], "sacctmgr: error: You gave a bad action 'Add'.\n"),
        (["Ids=2,x"], "sacctmgr: error: Invalid value for Transaction ID (x)\n"),
        (["foo"], "sacctmgr: error: Invalid value for Transaction ID (foo)\n"),
        (["A=x"], " Unknown condition: A=x\n"),
        (["Cl=live"], " Unknown condition: Cl=live\n"),
    ):
        result = fscli("sacctmgr", "-P", "list", "transactions", *words, "format=id")
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", err)
    result = fscli("sacctmgr", "-P", "list", "transactions", "start=garbage", "format=id")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "ID\n1\n2\n",
        "Invalid time specification (pos=0): garbage\n",
    )


def test_bare_words_are_transaction_ids_lowercased(fscli):
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")
    result = fscli("sacctmgr", "-P", "list", "transactions", "Action=Add", "Accounts")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        "sacctmgr: error: You gave a bad action 'Add'.\n"
        "sacctmgr: error: Invalid value for Transaction ID (accounts)\n",
    )
