"""``sacctmgr delete account|user|coordinator|cluster`` as plans of the API's change.

Deleting an account removes its whole subtree (sub-accounts and user associations), as
slurmdbd does; users left without any association keep their record (no default
account) until deleted by name. Deleting a user's associations by account says which
users went with their last one (``Deleting users (No Associations)...``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fscli.cli.sacctmgr.add import coordinator_plan
from fscli.cli.sacctmgr.context import Run
from fscli.cli.sacctmgr.grammar import ASSOC_COND, LIST_FLAGS, first, plain, split_list
from fscli.cli.sacctmgr.modify import (
    ACCOUNT_COND,
    ACCOUNT_KEYS,
    USER_COND,
    _selected,
    conditions,
    named_users,
)
from fscli.cli.sacctmgr.values import Problems

if TYPE_CHECKING:
    from fscli.api.sacctmgr_writes import SacctmgrWrites

ROOT = " You are not allowed to remove the root account.\n Use remove cluster instead.\n"
DEFAULT = (
    " Error with request: You can not remove the default account of a user\n{0}"
    " You must change the default account of these users or remove the users "
    "completely from the affected clusters to allow these changes.\n"
    " Changes Discarded\n"
)
DEFAULT_ACCOUNT = (
    " Error with request: You can not remove the default account of a user\n{0}"
    " Please either remove the accounts listed above from list and resubmit,\n"
    " or change these users' default accounts to remove the account(s).\n"
    " Changes Discarded\n"
)


def _refused_line(v) -> str:
    """A user association whose default a delete would remove, as slurmdbd names it."""
    return f"  C = {v.cluster:<15} A = {v.account:<10} U = {v.user:<9}\n"


def _conditions(run: Run, words: list[str], table) -> dict[str, list[str]]:
    """A delete's conditions; none at all, or a bad one, ends the command."""
    problems = Problems()
    found = conditions(plain(words), table, problems)
    problems.settle(run)
    if not found:
        raise run.refuse(" No conditions given to remove, not executing.\n")
    return found


def _assoc_line(item) -> str:
    """An association as slurmdbd's ``_process_remove_assoc_results`` names it."""
    if item.user is None:
        parent = f" of {item.parent_account}" if item.parent_account else ""
        return f"  C = {item.cluster:<10} A = {item.account}{parent}\n"
    part = f" P = {item.assoc.partition}" if item.assoc.partition else ""
    return f"  C = {item.cluster:<10} A = {item.account:<10} U = {item.user:<9}{part}\n"


def delete_account(run: Run, words: list[str]) -> int:
    """As ``sacctmgr_delete_account``: conditions on the account records alone (names,
    descriptions, organizations) delete the accounts; any association condition
    (cluster=, parent=, partition=, ...) deletes the associations they pick, with their
    subtrees, and lists each one (``Deleting account associations...``), the account
    records staying."""

    def body(tx: SacctmgrWrites) -> None:
        found = _conditions(run, words, ACCOUNT_COND)
        by_assoc = any(k not in ACCOUNT_KEYS for k in found)
        clusters = run.pick_clusters(tx.cluster_names(), found.pop("cluster", []))
        view = tx.view(clusters)
        picked = _selected(view, found, users=None if by_assoc else False)
        if "root" in found.get("name", []):
            raise run.refuse(ROOT)
        # Account records left without associations (their parent was deleted) go by name.
        plan = tx.plan_delete_accounts(view, picked, by_assoc, found.get("name"))
        if plan.empty:
            run.out(" Nothing deleted\n")
            raise run.refuse("")
        if plan.refused:
            raise run.refuse(DEFAULT_ACCOUNT.format("".join(map(_refused_line, plan.refused))))
        tx.commit(plan)
        removed = plan.removed
        bare = plan.bare
        if by_assoc:
            order = {c: i for i, c in enumerate(dict.fromkeys(v.cluster for v in view))}
            removed.sort(key=lambda v: (order[v.cluster], v.lft))
            run.out(" Deleting account associations...\n" + "".join(map(_assoc_line, removed)))
        else:
            run.out(
                " Deleting accounts...\n"
                + "".join(f"  {a}\n" for a in dict.fromkeys([v.account for v in picked] + bare))
            )

    return run.write(body)


def delete_user(run: Run, words: list[str]) -> int:
    def body(tx: SacctmgrWrites) -> None:
        found = _conditions(run, words, USER_COND)
        by_assoc = any(k in found for k in ("cluster", "account", "partition"))
        clusters = run.pick_clusters(tx.cluster_names(), found.pop("cluster", []))
        named = named_users(tx.users(), found)
        view = tx.view(clusters)
        picked = [v for v in _selected(view, found, users=True) if v.user in named]
        plan = tx.plan_delete_users(view, picked, named, by_assoc)
        if plan.refused:
            raise run.refuse(DEFAULT.format("".join(map(_refused_line, plan.refused))))
        if plan.empty:
            run.out(" Nothing deleted\n")
            raise run.refuse("")
        tx.commit(plan)
        gone = plan.gone
        if by_assoc:
            text = " Deleting user associations...\n" + "".join(_assoc_line(v) for v in picked)
            if gone:
                text += " Deleting users (No Associations)...\n" + "".join(f"  {u}\n" for u in gone)
        else:
            text = " Deleting users...\n" + "".join(f"  {u}\n" for u in gone)
        run.out(text)

    return run.write(body)


def _names(value: str) -> list[str]:
    """A name list as ``slurm_addto_char_list`` keeps it: lower-cased, each once; an empty
    value is one empty name."""
    return list(dict.fromkeys(n.lower() for n in split_list(value))) if value else [""]


def delete_coordinator(run: Run, words: list[str]) -> int:
    """As ``sacctmgr_delete_coord``: the user conditions of ``delete user`` (names= and
    account= say whom and where; others are accepted and do not count), every named
    account and user checked, then the request said before what was removed."""

    def body(tx: SacctmgrWrites) -> None:
        users: list[str] = []
        accts: list[str] = []
        problems = Problems()
        given = False
        for w in plain(words):
            if w.bare and first(w.raw, LIST_FLAGS):
                continue
            key = "name" if w.bare else (first(w.key, USER_COND) or first(w.key, ASSOC_COND))
            if key is None:
                problems.say(f" Unknown condition: {w.raw}\n Use keyword 'set' to modify value")
                continue
            if key == "format":
                continue
            given = True
            if key in ("name", "account"):
                into = users if key == "name" else accts
                into += [n for n in _names(w.raw if w.bare else w.value) if n not in into]
        problems.settle(run)
        if not given:
            raise run.refuse(" You need to specify a user list or account list here.\n")
        plan = coordinator_plan(run, tx, users, accts, adding=False)
        if not users and not accts:
            raise run.refuse(" You need to specify a user list or an account list here.\n")
        if users:
            run.out(
                " Removing Coordinators with user name\n"
                + "".join(f"  {u}\n" for u in users)
                + (
                    " From Account(s)\n" + "".join(f"  {a}\n" for a in accts)
                    if accts
                    else " From all accounts\n"
                )
            )
        else:
            run.out(" Removing all users from Accounts\n" + "".join(f"  {a}\n" for a in accts))
        tx.commit(plan)
        if not plan.pairs:
            run.out(" Nothing removed\n")
            raise run.refuse("")
        run.out(
            " Removed Coordinators (sub accounts not listed)...\n"
            + "".join(f"  U = {user:<9} A = {account:<10}\n" for user, account in plan.pairs)
        )

    return run.write(body)


def delete_cluster(run: Run, words: list[str]) -> int:
    """Every association of the named clusters goes, as slurmdbd removes them; users and
    accounts keep their records (a user left with no association has no default)."""

    def body(tx: SacctmgrWrites) -> None:
        found = _conditions(run, words, (("name", (("Names", 1), ("Clusters", 1))),))
        known = tx.cluster_names()
        names = [n for n in known if n in found.get("name", [])]
        if not names:
            run.out(" Nothing deleted\n")
            raise run.refuse("")
        with tx.keeping_bare_records():
            for name in names:
                tx.delete_cluster(name)
        run.out(" Deleting clusters...\n" + "".join(f"  {n}\n" for n in names))

    return run.write(body)
