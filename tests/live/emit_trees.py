"""Seeded random trees and random edits of them, for the emitted-script round trips.

A tree is the YAML tree of ``fscli apply`` as plain data (``dict``), small (a handful of
accounts, users and QOS), for the live cluster ``live``. It always holds what the live
cluster itself has from the start (QOS ``normal``, root's user association), so a pruning
plan never removes those. Names come from small pools so that edits hit the traps: a
user's default account moved or deleted, accounts moved under another (also under a
former child), a QOS used by associations removed, accounts, users and QOS that the
other cluster (:data:`OTHER_SETUP`) also has, descriptions with spaces.

sacctmgr lower-cases descriptions and organizations, and stores a ``'`` in them as a
backtick: the trees' texts have neither capitals nor quotes.
"""

from __future__ import annotations

import copy
import random
from typing import Any

CLUSTER = "live"
ACCOUNTS = ("phys", "chem", "bio", "astro", "hep", "ml", "geo", "common")
USERS = ("alice", "bob", "carl", "dana", "erin", "frank")
QOS = ("low", "high", "gpu", "long", "shared")
TEXTS = ("dept of physics", "big lab", "a b  c", "grant 42-x", "lab")
NORMAL = {"description": "Normal QOS default"}

SHARED_USER = "frank"
SHARED_ACCOUNT = "common"
OTHER_SETUP = (
    "add cluster other",
    "add qos shared description='used elsewhere' priority=3",
    "add account common cluster=other description='on other' organization=other qos=normal,shared",
    "add account solo cluster=other",
    "add user frank account=common cluster=other",
)
"""sacctmgr calls (after ``sacctmgr -i``) that give the accounting database a second
cluster sharing a QOS, an account and a user with ``live``. ``frank``'s default account
is ``common`` on both clusters and he coordinates nothing: fscli holds one default account
per user, and lists a user's coordinators only in the dumps of the clusters that have the
account (sacctmgr in every cluster's)."""

Tree = dict[str, Any]


def empty() -> Tree:
    return {
        "cluster": {"name": CLUSTER, "qos": ["normal"]},
        "qos": {"normal": dict(NORMAL)},
        "accounts": {},
        "users": {
            "root": {
                "default_account": "root",
                "admin_level": "Administrator",
                "associations": [{"account": "root"}],
            }
        },
    }


def random_tree(rng: random.Random) -> Tree:
    """A new tree: a few QOS, accounts (nested), users and their associations."""
    tree = empty()
    for name in rng.sample(QOS, rng.randint(0, 3)):
        tree["qos"][name] = _qos(rng)
    for name in rng.sample(ACCOUNTS, rng.randint(1, 5)):
        _add_account(rng, tree, name)
    for name in rng.sample(USERS, rng.randint(1, 4)):
        _add_user(rng, tree, name)
    return normalise(tree)


def edit(rng: random.Random, tree: Tree) -> Tree:
    """``tree`` after one to four random edits (a new tree, now and then)."""
    if rng.random() < 0.08:
        return random_tree(rng)
    new = copy.deepcopy(tree)
    for _ in range(rng.randint(1, 4)):
        rng.choice(EDITS)(rng, new)
        normalise(new)
    return new


# ---------------------------------------------------------------- parts


def _qos(rng: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if rng.random() < 0.6:
        out["description"] = rng.choice(TEXTS)
    if rng.random() < 0.5:
        out["priority"] = rng.randint(1, 50)
    if rng.random() < 0.3:
        out["limits"] = {"MaxJobsPerUser": rng.randint(1, 20)}
    return out


def _settings(rng: random.Random, tree: Tree) -> dict[str, Any]:
    """Association settings: fairshare, a QOS list (with a DefaultQOS), limits."""
    out: dict[str, Any] = {}
    if rng.random() < 0.5:
        out["fairshare"] = rng.choice([2, 5, 10, 100])
    qos = sorted(tree["qos"])
    if rng.random() < 0.3:
        out["qos"] = sorted(rng.sample(qos, rng.randint(1, len(qos))))
        if rng.random() < 0.5:
            out["default_qos"] = rng.choice(out["qos"])
    limits = {}
    if rng.random() < 0.3:
        limits["MaxJobs"] = rng.randint(1, 50)
    if rng.random() < 0.2:
        limits["GrpTRES"] = rng.choice(["cpu=8", "cpu=4,mem=2000", "node=2"])
    if limits:
        out["limits"] = limits
    return out


def _add_account(rng: random.Random, tree: Tree, name: str) -> None:
    acct: dict[str, Any] = {"parent": rng.choice(["root", *tree["accounts"]])}
    if rng.random() < 0.5:
        acct["description"] = rng.choice(TEXTS)
    if rng.random() < 0.3:
        acct["organization"] = rng.choice(TEXTS)
    acct.update(_settings(rng, tree))
    tree["accounts"][name] = acct


def _add_user(rng: random.Random, tree: Tree, name: str) -> None:
    accounts = ["root", *tree["accounts"]] if rng.random() < 0.1 else list(tree["accounts"])
    if not accounts:
        return
    chosen = rng.sample(accounts, rng.randint(1, min(3, len(accounts))))
    user: dict[str, Any] = {
        "default_account": rng.choice(chosen),
        "associations": [{"account": a, **_settings(rng, tree)} for a in sorted(chosen)],
    }
    if rng.random() < 0.2:
        user["admin_level"] = "Operator"
    if rng.random() < 0.25:
        user["coordinator_of"] = [rng.choice(chosen)]
    tree["users"][name] = user


def _descendants(tree: Tree, name: str) -> set[str]:
    out = {name}
    grew = True
    while grew:
        more = {a for a, v in tree["accounts"].items() if v["parent"] in out} - out
        grew = bool(more)
        out |= more
    return out


# ---------------------------------------------------------------- edits


def _new_account(rng: random.Random, tree: Tree) -> None:
    free = [a for a in ACCOUNTS if a not in tree["accounts"]]
    if free:
        _add_account(rng, tree, rng.choice(free))


def _drop_account(rng: random.Random, tree: Tree) -> None:
    if tree["accounts"]:
        for name in _descendants(tree, rng.choice(sorted(tree["accounts"]))):
            del tree["accounts"][name]


def _move_account(rng: random.Random, tree: Tree) -> None:
    if not tree["accounts"]:
        return
    name = rng.choice(sorted(tree["accounts"]))
    acct = tree["accounts"][name]
    below = _descendants(tree, name)
    if rng.random() < 0.5 and len(below) > 1:  # a former child becomes the parent
        child = rng.choice(sorted(below - {name}))
        tree["accounts"][child]["parent"] = acct["parent"]
        acct["parent"] = child
        return
    acct["parent"] = rng.choice(["root", *(sorted(set(tree["accounts"]) - below))])


def _change_account(rng: random.Random, tree: Tree) -> None:
    if not tree["accounts"]:
        return
    acct = tree["accounts"][rng.choice(sorted(tree["accounts"]))]
    keep = {k: acct[k] for k in ("parent", "description", "organization") if k in acct}
    if rng.random() < 0.5:
        keep["description"] = rng.choice(TEXTS)
    acct.clear()
    acct.update(keep, **_settings(rng, tree))


def _new_user(rng: random.Random, tree: Tree) -> None:
    free = [u for u in USERS if u not in tree["users"]]
    if free:
        _add_user(rng, tree, rng.choice(free))


def _drop_user(rng: random.Random, tree: Tree) -> None:
    users = sorted(set(tree["users"]) - {"root"})
    if users:
        del tree["users"][rng.choice(users)]


def _change_user(rng: random.Random, tree: Tree) -> None:
    """Move a user's default account (maybe to a new association), drop or change an
    association, change its admin level or what it coordinates."""
    users = sorted(set(tree["users"]) - {"root"})
    if not users or not tree["accounts"]:
        return
    user = tree["users"][rng.choice(users)]
    assocs = user["associations"]
    choice = rng.randrange(5)
    if choice == 0:  # a new default account, often one the user had no association with
        account = rng.choice(sorted(tree["accounts"]))
        if account not in {a["account"] for a in assocs}:
            assocs.append({"account": account, **_settings(rng, tree)})
        old = user["default_account"]
        user["default_account"] = account
        if rng.random() < 0.5:  # and the association it leaves goes: the trap
            user["associations"] = [a for a in assocs if a["account"] != old or old == account]
    elif choice == 1 and len(assocs) > 1:
        assocs.remove(rng.choice(assocs))
    elif choice == 2:
        assoc = rng.choice(assocs)
        account = assoc["account"]
        assoc.clear()
        assoc.update(account=account, **_settings(rng, tree))
    elif choice == 3:
        user["admin_level"] = rng.choice(["None", "Operator", "Administrator"])
    else:
        user["coordinator_of"] = rng.sample(
            sorted(tree["accounts"]), rng.randint(0, min(2, len(tree["accounts"])))
        )


def _new_qos(rng: random.Random, tree: Tree) -> None:
    free = [q for q in QOS if q not in tree["qos"]]
    if free:
        tree["qos"][rng.choice(free)] = _qos(rng)


def _drop_qos(rng: random.Random, tree: Tree) -> None:
    names = sorted(set(tree["qos"]) - {"normal"})
    if names:
        del tree["qos"][rng.choice(names)]


def _change_qos(rng: random.Random, tree: Tree) -> None:
    name = rng.choice(sorted(tree["qos"]))
    tree["qos"][name] = _qos(rng) if name != "normal" else dict(NORMAL, priority=rng.randint(0, 9))


EDITS = (
    _new_account,
    _drop_account,
    _move_account,
    _change_account,
    _new_user,
    _drop_user,
    _change_user,
    _change_user,
    _new_qos,
    _drop_qos,
    _change_qos,
)


# ---------------------------------------------------------------- consistency


def normalise(tree: Tree) -> Tree:
    """Make an edited tree consistent: references to what is gone dropped, every user
    with a default account among its associations, ``frank`` (also on the other cluster)
    with ``common`` as its default account, as there."""
    accounts = tree["accounts"]
    qos = set(tree["qos"])
    for acct in accounts.values():
        if acct["parent"] != "root" and acct["parent"] not in accounts:
            acct["parent"] = "root"
    if SHARED_USER in tree["users"] and SHARED_ACCOUNT not in accounts:
        accounts[SHARED_ACCOUNT] = {"parent": "root"}
    for item in [tree["cluster"], *accounts.values()]:
        _fix_qos(item, qos)
    for _ in accounts:  # parents' fixes reach their children within as many passes
        for acct in accounts.values():
            _fix_inherited_default(acct, _inherited_default(tree, acct["parent"]))
    for name in list(tree["users"]):
        user = tree["users"][name]
        assocs = [
            a for a in user["associations"] if a["account"] in accounts or a["account"] == "root"
        ]
        for assoc in assocs:
            _fix_qos(assoc, qos)
            _fix_inherited_default(assoc, _inherited_default(tree, assoc["account"]))
            _with_account_default(assoc, accounts.get(assoc["account"], tree["cluster"]))
        if name == SHARED_USER:
            if SHARED_ACCOUNT not in {a["account"] for a in assocs}:
                assocs.append({"account": SHARED_ACCOUNT})
            user["default_account"] = SHARED_ACCOUNT
            user.pop("coordinator_of", None)
        if not assocs:
            del tree["users"][name]
            continue
        user["associations"] = sorted(assocs, key=lambda a: a["account"])
        if user["default_account"] not in {a["account"] for a in assocs}:
            user["default_account"] = assocs[0]["account"]
        if "coordinator_of" in user:
            user["coordinator_of"] = sorted(a for a in user["coordinator_of"] if a in accounts)
    return tree


def _fix_qos(item: dict[str, Any], qos: set[str]) -> None:
    if "qos" in item:
        item["qos"] = [q for q in item["qos"] if q in qos]
        if not item["qos"]:
            del item["qos"]
    if item.get("default_qos") not in item.get("qos", ()):
        item.pop("default_qos", None)


def _inherited_default(tree: Tree, account: str) -> str | None:
    """The DefaultQOS an association under ``account`` inherits (Slurm takes the nearest
    one up the tree)."""
    while account != "root":
        acct = tree["accounts"][account]
        if acct.get("default_qos"):
            return acct["default_qos"]
        account = acct["parent"]
    return tree["cluster"].get("default_qos")


def _fix_inherited_default(item: dict[str, Any], inherited: str | None) -> None:
    """An own QOS list must hold the DefaultQOS inherited from above (fscli refuses the
    tree otherwise, as jobs would be refused): else the list's first one becomes the
    association's own DefaultQOS."""
    if "qos" in item and not item.get("default_qos") and inherited not in (None, *item["qos"]):
        item["default_qos"] = item["qos"][0]


def _with_account_default(assoc: dict[str, Any], account: dict[str, Any]) -> None:
    """A user association with its own QOS list must list its account's own DefaultQOS:
    sacctmgr checks an account's new DefaultQOS against the lists of the account's every
    association, users' included, and otherwise takes back the change (exit code 0, a
    message on stderr), so a tree without it cannot be reached with sacctmgr."""
    default = account.get("default_qos")
    if default and "qos" in assoc and default not in assoc["qos"]:
        assoc["qos"] = sorted([*assoc["qos"], default])
