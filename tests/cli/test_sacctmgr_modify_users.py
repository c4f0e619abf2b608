"""``sacctmgr modify user`` picking users and admin levels as slurmdbd does; the expected
text is what real sacctmgr 22.05.8 printed for the same calls on a live slurmdbd."""

from __future__ import annotations

import pytest

from tests.conftest import Fscli

NO_CHANGE = (
    "sacctmgr: accounting_storage/slurmdbd: acct_storage_p_modify_users: Request didn't "
    "affect anything or your user doesn't have privilege to perform this action\n"
)


def build_live(fscli) -> None:
    """bob (default astro), alice (bio) and carl (astro, Operator) on cluster live."""
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")
    fscli.ok("sacctmgr", "-i", "add", "account", "bio,astro")
    fscli.ok("sacctmgr", "-i", "add", "user", "bob", "account=bio,astro")
    fscli.ok("sacctmgr", "-i", "add", "user", "alice", "account=bio", "adminlevel=bogus")
    fscli.ok("sacctmgr", "-i", "add", "user", "carl", "account=astro", "adminlevel=o")


@pytest.fixture
def live(fscli, template) -> Fscli:
    """The store :func:`build_live` leaves, copied from its template."""
    return template(fscli, build_live)


def run(fscli: Fscli, *words: str):
    result = fscli("sacctmgr", "-i", *words)
    return result.exit_code, result.stdout, result.stderr


def levels(fscli: Fscli) -> str:
    return fscli.ok("sacctmgr", "-nP", "show", "user", "format=user,admin").stdout


def test_admin_level_read_by_its_first_letter(live):
    assert levels(live) == "alice|None\nbob|None\ncarl|Operator\nroot|Administrator\n"
    assert run(live, "modify", "user", "where", "name=bob", "set", "adminlevel=sup") == (
        0,
        " Modified users...\n  bob\n",
        "",
    )
    assert levels(live).splitlines()[1] == "bob|Administrator"


def test_unknown_admin_level_is_nothing_to_change_but_the_rest_is_made(live):
    assert run(live, "modify", "user", "where", "name=alice", "set", "adminlevel=bogus") == (
        1,
        " Nothing modified\n",
        NO_CHANGE,
    )
    assert run(
        live, "modify", "user", "where", "name=alice", "set", "adminlevel=bogus", "maxjobs=3"
    ) == (
        1,
        " Nothing modified\n Modified user associations...\n"
        "  C = live       A = bio                  U = alice    \n",
        NO_CHANGE,
    )


def test_account_condition_becomes_default_account_and_names_still_pick(live):
    # bob's default is astro: the name picks him all the same
    assert run(live, "modify", "user", "where", "name=bob", "account=bio", "set", "admin=a") == (
        0,
        " Modified users...\n  bob\n",
        "",
    )
    assert levels(live).splitlines()[1] == "bob|Administrator"


def test_default_account_alone_lists_users_but_sets_no_level(live):
    assert run(
        live, "modify", "user", "where", "defaultaccount=bio", "set", "adminlevel=Operator"
    ) == (0, " Modified users...\n  alice\n", "")
    assert levels(live).splitlines()[0] == "alice|None"
    # with names: the default account's users first, then the named ones by name
    assert run(
        live,
        "modify",
        "user",
        "where",
        "name=carl,alice",
        "defaultaccount=astro",
        "set",
        "adminlevel=Operator",
    ) == (0, " Modified users...\n  alice\n  carl\n", "")
    assert run(live, "modify", "user", "where", "adminlevel=o", "set", "adminlevel=None") == (
        0,
        " Modified users...\n  alice\n  carl\n",
        "",
    )
    assert levels(live) == "alice|None\nbob|None\ncarl|None\nroot|Administrator\n"


def test_no_user_condition_is_nothing_to_change(live):
    assert run(live, "modify", "user", "where", "cluster=live", "set", "adminlevel=o") == (
        1,
        " Nothing modified\n",
        NO_CHANGE,
    )


def test_add_user_takes_a_refused_qos_word_as_a_condition_and_goes_on(fscli):
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")
    fscli.ok("sacctmgr", "-i", "add", "account", "astro,hep")
    result = fscli(
        "sacctmgr", "-i", "add", "user", "name=erin", "account=astro", "qos+=normal",
        "qos+=normal", "maxjobs=4",
    )  # fmt: skip
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        " Adding User(s)\n  erin\n Associations =\n  U = erin      A = astro      C = live      \n"
        " Non Default Settings\n  MaxJobs       = 4\n  QOS           = +normal\n",
        "sacctmgr: error: You gave me an empty qos list\n",
    )
    # an account takes no conditions: the word is unknown there
    result = fscli("sacctmgr", "-i", "add", "account", "chem", "qos+=normal", "qos+=normal")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        "sacctmgr: error: You gave me an empty qos list\n"
        " Unknown option: qos+=normal\n Use keyword 'where' to modify condition\n",
    )


def test_a_default_account_nobody_has_rolls_the_new_admin_level_back(fscli):
    fscli.sacctmgr_i("add cluster live", "add account cosmo,astro", "add user frank account=cosmo")
    result = fscli(
        "sacctmgr", "-i", "modify", "user", "where", "name=frank", "account=astro", "set",
        "defaultaccount=astro", "adminlevel=Operator", "fairshare=40",
    )  # fmt: skip
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        " Can't modify because these users aren't associated with new default account "
        "'astro'...\n  U = frank C = live\n"
        " Modified user associations...\n  C = live       A = cosmo                U = frank    \n",
        "",
    )
    assert fscli.ok("sacctmgr", "-nP", "show", "user", "frank").stdout == "frank|cosmo|None\n"
    assert (
        fscli.ok(
            "sacctmgr", "-nP", "show", "assoc", "user=frank", "format=account,user,share"
        ).stdout
        == "cosmo|frank|40\n"
    )
