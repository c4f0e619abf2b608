"""``sacctmgr delete account|user|coordinator|qos`` over fscli's ``Admin``.

Deleting an account removes its whole subtree (sub-accounts and user associations), as
slurmdbd does; users left without any association keep their record (no default
account) until deleted by name. Deleting a user's associations by account says which
users went with their last one (``Deleting users (No Associations)...``).
"""

from __future__ import annotations

from fscli.cli.sacctmgr.context import Run
from fscli.cli.sacctmgr.grammar import first, plain, split_list
from fscli.cli.sacctmgr.modify import (
    ACCOUNT_COND,
    USER_COND,
    _selected,
    admin_targets,
    conditions,
    named_users,
)
from fscli.cli.sacctmgr.values import Problems

ROOT = " You are not allowed to remove the root account.\n Use remove cluster instead.\n"
DEFAULT = (
    " Error with request: You can not remove the default account of a user\n{0}"
    " You must change the default account of these users or remove the users "
    "completely from the affected clusters to allow these changes.\n"
    " Changes Discarded\n"
)


def _conditions(run: Run, words: list[str], table) -> dict[str, list[str]]:
    """A delete's conditions; none at all, or a bad one, ends the command."""
    problems = Problems()
    found = conditions(plain(words), table, problems)
    problems.settle(run)
    if not found:
        raise run.refuse(" No conditions given to remove, not executing.\n")
    return found


def _assoc_line(item) -> str:
    return f"  C = {item.cluster:<10} A = {item.account:<10} U = {item.user:<9}\n"


def delete_account(run: Run, words: list[str]) -> int:
    def body(session) -> None:
        from fscli.api.sacctmgr import Admin
        from fscli.api.sacctmgr import queries as q

        found = _conditions(run, words, ACCOUNT_COND)
        conn = session.connection()
        by_cluster = "cluster" in found
        clusters = run.clusters(conn, found.pop("cluster", []))
        view = q.load_view(conn, clusters)
        picked = _selected(view, found, users=False)
        if any(v.account == "root" for v in picked) or "root" in found.get("name", []):
            raise run.refuse(ROOT)
        # Account records left without associations (their parent was deleted) go by name.
        with_assocs = {v.account for v in view}
        bare = (
            []
            if by_cluster or "name" not in found
            else [a for a in q.accounts(conn) if a in found["name"] and a not in with_assocs]
        )
        if not picked and not bare:
            run.out(" Nothing deleted\n")
            raise run.refuse("")
        admin = Admin(session, run.app.now, run.app.actor)
        gone = set() if by_cluster else {v.account for v in picked}
        with q.keep_bare_records(session, accounts_gone=gone):
            for cluster in dict.fromkeys(v.cluster for v in picked):
                admin.delete_accounts(
                    admin.cluster(cluster),
                    [v.account for v in picked if v.cluster == cluster],
                    recursive=True,
                )
        q.drop_accounts(session, [a for a in bare if a not in {v.account for v in picked}])
        if by_cluster:
            run.out(
                " Deleting account associations...\n"
                + "".join(f"  C = {v.cluster:<10} A = {v.account:<10}\n" for v in picked)
            )
        else:
            run.out(
                " Deleting accounts...\n"
                + "".join(f"  {a}\n" for a in dict.fromkeys([v.account for v in picked] + bare))
            )

    return run.write(body)


def delete_user(run: Run, words: list[str]) -> int:
    def body(session) -> None:
        from fscli.api.sacctmgr import Admin
        from fscli.api.sacctmgr import queries as q

        found = _conditions(run, words, USER_COND)
        conn = session.connection()
        by_assoc = any(k in found for k in ("cluster", "account", "partition"))
        clusters = run.clusters(conn, found.pop("cluster", []))
        users = q.users(conn)
        named = named_users(users, found)
        view = q.load_view(conn, clusters)
        picked = [v for v in _selected(view, found, users=True) if v.user in named]
        if not by_assoc:  # a user deleted by name goes even without associations
            gone = sorted(named)
        else:
            left = {v.user for v in view if v.user in named and v not in picked}
            gone = sorted({v.user for v in picked} - left)
            kept_default = [v for v in picked if v.user in left and v.account == users[v.user][0]]
            if kept_default:
                raise run.refuse(DEFAULT.format("".join(_assoc_line(v) for v in kept_default)))
        if not picked and not gone:
            run.out(" Nothing deleted\n")
            raise run.refuse("")
        admin = Admin(session, run.app.now, run.app.actor)
        with q.keep_bare_records(session, users_gone=set(gone)):
            for cluster, user, account, part in admin_targets(picked):
                admin.delete_users(admin.cluster(cluster), [user], account, part)
            q.drop_users(session, [u for u in gone if u not in {v.user for v in picked}])
        if by_assoc:
            text = " Deleting user associations...\n" + "".join(_assoc_line(v) for v in picked)
            if gone:
                text += " Deleting users (No Associations)...\n" + "".join(f"  {u}\n" for u in gone)
        else:
            text = " Deleting users...\n" + "".join(f"  {u}\n" for u in gone)
        run.out(text)

    return run.write(body)


def delete_coordinator(run: Run, words: list[str]) -> int:
    def body(session) -> None:
        from fscli.api.sacctmgr import queries as q

        users: list[str] = []
        accts: list[str] = []
        for w in plain(words):
            key = (
                "name"
                if w.bare
                else first(
                    w.key,
                    (
                        ("name", (("Names", 1), ("Users", 1))),
                        ("account", (("Accounts", 2), ("Acct", 4))),
                    ),
                )
            )
            if key is None:
                raise run.refuse(
                    f" Unknown condition: {w.raw}\n Use keyword 'set' to modify value\n"
                )
            (users if key == "name" else accts).extend(
                n.lower() for n in split_list(w.raw if w.bare else w.value)
            )
        if not users and not accts:
            raise run.refuse(" You need to specify a user list or account list here.\n")
        removed = q.remove_coordinators(session, users, accts)
        if not removed:
            run.out(" Nothing removed\n")
            raise run.refuse("")
        run.out(
            " Removed Coordinators (sub accounts not listed)...\n"
            + "".join(f"  {line}\n" for line in removed)
        )

    return run.write(body)
