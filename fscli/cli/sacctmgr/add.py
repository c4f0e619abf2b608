"""``sacctmgr add account|user|coordinator|qos|cluster`` as plans of the API's change.

Each add reads its words as sacctmgr 22.05 does (``sacctmgr_add_account``,
``sacctmgr_add_user``, ...), works out what is new (an existing association is
skipped, not an error: only "nothing at all new" is), prints sacctmgr's block, then
writes through the API's write surface (:class:`fscli.api.sacctmgr_writes.SacctmgrWrites`,
the native commands' ``Writes``) in one change, committed once confirmed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fscli.cli.sacctmgr.context import Run
from fscli.cli.sacctmgr.grammar import ASSOC_COND, ASSOC_REC, Names, first, matches, plain
from fscli.cli.sacctmgr.grammar import split_list as names_of
from fscli.cli.sacctmgr.values import (
    Problems,
    Settings,
    add_qos_items,
    assoc_setting,
    slurm_admin_level,
    sticky,
)
from fscli.render.sacctmgr import settings_lines

if TYPE_CHECKING:
    from fscli.api.sacctmgr_writes import SacctmgrWrites

ACCOUNT_KEYS: tuple[tuple[str, Names], ...] = (
    ("name", (("Accounts", 1), ("Names", 1), ("Acct", 4))),
    ("cluster", (("Clusters", 1),)),
    ("description", (("Description", 1),)),
    ("organization", (("Organization", 1),)),
)
USER_KEYS: tuple[tuple[str, Names], ...] = (
    ("name", (("Names", 1), ("Users", 1))),
    ("adminlevel", (("AdminLevel", 2),)),
    ("defaultaccount", (("DefaultAccount", 8),)),
    ("defaultwckey", (("DefaultWCKey", 8),)),
    ("wckeys", (("WCKeys", 1),)),
)
NO_WCKEYS = " fscli keeps no WCKeys: leave out {0} (DefaultWCKey=, WCKeys=)\n"


def _settings(
    raw_words,
    table,
    known_qos: list[str],
    problems: Problems,
    hint: str = " Use keyword 'where' to modify condition",
    conds: bool = False,
):
    """Split words into the command's own keys and association settings (and, with
    ``conds``, association conditions such as account= and partition=, as add user)."""
    own: dict[str, list[str]] = {}
    settings = Settings()
    touched = False
    cond_qos: list[str] = []
    for w in sticky(plain(raw_words)):
        key = "name" if w.bare else first(w.key, table)
        if key is not None:
            own.setdefault(key, []).append(w.raw if w.bare else w.value)
            continue
        canon = first(w.key, ASSOC_REC)
        if canon is not None and assoc_setting(canon, w, settings, known_qos, problems):
            touched = True
            continue
        if canon == "QOS" and conds:
            # a QOS word refused as a setting is tried as a condition (QosLevel=), with a
            # list of its own: add user takes it there and ignores it
            if add_qos_items(cond_qos, w.value, w.op[:1] if w.op != "=" else "", known_qos,
                             problems) > 0:  # fmt: skip
                continue
        cond = first(w.key, ASSOC_COND) if canon is None and conds else None
        if cond is not None:
            own.setdefault(cond, []).append(w.value)
            touched = True
            continue
        problems.unknown(w.raw, hint)
    return own, settings, touched


def _checked(kind: str, own: dict[str, list[str]], run: Run) -> list[str]:
    """The names to add: at least one, each one the store can hold (no separator or space,
    not too long), else the command ends before anything is printed."""
    from fscli.api.sacctmgr_writes import stored_name
    from fscli.errors import InvalidValue

    try:
        names = [stored_name(kind, n) for v in own.get("name", []) for n in names_of(v)]
    except InvalidValue as exc:
        raise run.refuse(f" {exc.message}\n") from None
    if not names:
        raise run.refuse(f" Need name of {kind} to add.\n")
    return names


def add_account(run: Run, words: list[str]) -> int:
    def body(tx: SacctmgrWrites) -> None:
        problems = Problems()
        own, settings, touched = _settings(words, ACCOUNT_KEYS, tx.qos_list(), problems)
        problems.settle(run)
        names = _checked("account", own, run)
        given = [c for v in own.get("cluster", []) for c in names_of(v)]
        clusters = run.pick_clusters(tx.cluster_names(), given)
        if not clusters:
            raise run.refuse(
                "  Can't add accounts, no cluster defined yet.\n"
                " Please contact your administrator.\n"
            )
        parent = settings.parent or "root"
        existing = tx.accounts()
        have = {(v.cluster, v.account) for v in tx.view(clusters) if v.user is None}
        new_accounts = [n for n in dict.fromkeys(names) if n not in existing]
        plan: dict[str, list[str]] = {}
        for name in dict.fromkeys(names):
            for cluster in clusters:
                if (cluster, name) in have:
                    continue
                if (cluster, parent) not in have:
                    run.failed = True
                    run.err(
                        f" Parent account '{parent}' doesn't exist on cluster {cluster}\n"
                        "        Contact your admin to add this account.\n"
                    )
                    continue
                plan.setdefault(cluster, []).append(name)
        if not new_accounts and not plan:
            run.out(" Nothing new added.\n")
            raise run.refuse("")
        if not plan:
            raise run.refuse(" No associations created.\n")
        desc = _text(own, "description")
        org = _text(own, "organization")
        text = ""
        if new_accounts:
            text += " Adding Account(s)\n" + "".join(f"  {n}\n" for n in new_accounts)
            text += (
                " Settings\n"
                f"  Description     = {desc if desc is not None else 'Account Name'}\n"
                f"  Organization    = {org if org is not None else 'Parent/Account Name'}\n"
            )
        # each account's associations in turn, as slurmdbd lists them
        order = [(c, n, None, None) for n in dict.fromkeys(names) for c in plan if n in plan[c]]
        text += " Associations\n" + "".join(
            f"  A = {n[:10]:<10} C = {c[:10]:<10}\n" for c, n, _, _ in order
        )
        if touched or desc is not None or org is not None:
            text += " Settings\n" + settings_lines(
                settings.shares,
                settings.limits,
                parent,
                settings.priority,
                settings.qos_items if settings.qos else None,
                settings.default_qos,
            )
        run.out(text)
        for cluster, accts in plan.items():
            tx.add_account(accts, cluster, parent, desc, org, changes=settings.changes())
        # slurmdbd adds the new accounts' associations in one call, then the others'
        # (accounts given a new cluster), each account's clusters in turn
        tx.place_added(
            [
                [k for k in order if k[1] in new_accounts],
                [k for k in order if k[1] not in new_accounts],
            ],
        )

    return run.write(body)


def _text(own: dict[str, list[str]], key: str) -> str | None:
    """The last value given for ``key``, unquoted and lower-cased as sacctmgr stores it."""
    values = own.get(key)
    return values[-1].strip("'\"").lower() if values else None


def add_user(run: Run, words: list[str]) -> int:
    def body(tx: SacctmgrWrites) -> None:
        problems = Problems()
        own, settings, touched = _settings(
            words, USER_KEYS, tx.qos_list(), problems, hint="", conds=True
        )
        if own.get("defaultwckey") or own.get("wckeys"):
            raise run.refuse(NO_WCKEYS.format("them"))
        problems.settle(run)
        names = _checked("user", own, run)
        default = _text(own, "defaultaccount")
        tx.default_given = bool(default)  # slurmdbd's is_def=1 is written only then
        accounts = [a.lower() for v in own.get("account", []) for a in names_of(v)]
        # sacctmgr's list keeps each account once, the default account last
        accounts = [a for a in dict.fromkeys(accounts) if a != default] + (
            [default] if default else []
        )
        if not accounts:
            raise run.refuse(" Need name of account to add user to.\n")
        level = slurm_admin_level(own["adminlevel"][-1]) if own.get("adminlevel") else None
        given = [c for v in own.get("cluster", []) for c in names_of(v)]
        clusters = run.pick_clusters(tx.cluster_names(), given)
        partitions = [p for v in own.get("partition", []) for p in names_of(v)] or [None]
        view = tx.view(clusters)
        have = {(v.cluster, v.account, v.user, v.assoc.partition) for v in view}
        known_users = tx.users()
        known_accounts = tx.accounts()
        new_users: list[str] = []
        plan: list[tuple[str, str, str, str | None]] = []
        missing_checked = False
        for name in dict.fromkeys(names):
            if name not in known_users:
                if default and default not in known_accounts and not missing_checked:
                    run.failed = True
                    run.err(
                        f" This account '{default}' doesn't exist.\n"
                        "        Contact your admin to add this account.\n"
                    )
                    continue
                new_users.append(name)
            for account in accounts:
                if account not in known_accounts:
                    if not missing_checked:
                        run.failed = True
                        run.err(
                            f" This account '{account}' doesn't exist.\n"
                            "        Contact your admin to add this account.\n"
                        )
                    continue
                for cluster in clusters:
                    if (cluster, account, None, None) not in have:
                        if not missing_checked:
                            run.failed = True
                            run.err(
                                f" This account '{account}' doesn't exist on cluster "
                                f"{cluster}\n        Contact your admin to add this "
                                "account.\n"
                            )
                        continue
                    for part in partitions:
                        if (cluster, account, name, part) not in have:
                            plan.append((name, account, cluster, part))
            missing_checked = True
        if not new_users and not plan:
            run.out(" Nothing new added.\n")
            raise run.refuse("")
        if not plan:
            raise run.refuse(" No associations or wckeys created.\n")
        text = ""
        if new_users:
            text += " Adding User(s)\n" + "".join(f"  {n}\n" for n in new_users)
            if default or level:
                text += " Settings =\n"
            if default:
                text += f"  Default Account = {default}\n"
            if level:
                text += f"  Admin Level     = {level}\n"
        text += " Associations =\n" + "".join(
            f"  U = {u[:9]:<9} A = {a[:10]:<10} C = {c[:10]:<10}"
            + (f" P = {p[:10]:<10}" if p else "")
            + "\n"
            for u, a, c, p in plan
        )
        if touched:
            text += " Non Default Settings\n" + settings_lines(
                settings.shares,
                settings.limits,
                None,
                settings.priority,
                settings.qos_items if settings.qos else None,
                settings.default_qos,
            )
        run.out(text)
        groups: dict[tuple[str, str, str | None], list[str]] = {}
        for u, a, c, p in plan:
            groups.setdefault((u, c, p), []).append(a)
        defaults = _new_defaults(plan, default, tx.all_defaults())
        for (user, cluster, part), accts in groups.items():
            mine = defaults.get((user, cluster))
            tx.add_user(
                user,
                accts,
                cluster,
                part,
                mine if mine in accts else None,
                level if user in new_users else None,
                changes=settings.changes(),
            )
        # slurmdbd adds the new users' associations in one call, then the others'
        keys = [(c, a, u, p) for u, a, c, p in plan]
        tx.place_added(
            [[k for k in keys if k[2] in new_users], [k for k in keys if k[2] not in new_users]],
        )

    return run.write(body)


def _new_defaults(
    plan: list[tuple[str, str, str, str | None]],
    default: str | None,
    before: dict[tuple[str, str], str],
) -> dict[tuple[str, str], str]:
    """The default account each (user, cluster) of an add ends with, when the add changes
    it: the default is per cluster (slurmdbd's ``is_def``). A new association in
    ``DefaultAccount=`` becomes the default (an existing user's too); a user without one
    on the cluster (new there, or whose default went) gets, as slurmdbd's
    ``_make_sure_users_have_default`` picks among associations made in the same second,
    the alphabetically first account added there."""
    out: dict[tuple[str, str], str] = {}
    for user, cluster in dict.fromkeys((u, c) for u, _, c, _ in plan):
        accts = sorted({a for u, a, c, _ in plan if (u, c) == (user, cluster)})
        if default in accts:
            out[user, cluster] = default
        elif (cluster, user) not in before:
            out[user, cluster] = accts[0]
    return out


COORD_KEYS: tuple[tuple[str, Names], ...] = (
    ("name", (("Names", 1), ("Users", 1))),
    ("account", (("Accounts", 2), ("Acct", 4))),
)


def refuse_unknown(run: Run, tx: SacctmgrWrites, users: list[str], accts: list[str]) -> None:
    """A coordinator command naming an account or user there is not: each said, exit 1."""
    known_accounts, known_users = tx.accounts(), tx.users()
    bad = [
        f" You specified a non-existent account '{a}'.\n" for a in accts if a not in known_accounts
    ]
    bad += [f" You specified a non-existent user '{u}'.\n" for u in users if u not in known_users]
    if bad:
        raise run.refuse("".join(bad))


def add_coordinator(run: Run, words: list[str]) -> int:
    def body(tx: SacctmgrWrites) -> None:
        own: dict[str, list[str]] = {}
        for w in plain(words):
            key = "name" if w.bare else first(w.key, COORD_KEYS)
            if key is None:
                raise run.refuse(
                    f" Unknown condition: {w.raw}\n Use keyword 'set' to modify value\n"
                )
            own.setdefault(key, []).append(w.raw if w.bare else w.value)
        if not own:
            raise run.refuse(" You need to specify conditions to to add the coordinator.\n")
        users = [n.lower() for v in own.get("name", []) for n in names_of(v)]
        accts = [n.lower() for v in own.get("account", []) for n in names_of(v)]
        if not users:
            raise run.refuse(" You need to specify a user list here.\n")
        if not accts:
            raise run.refuse(" You need to specify an account list here.\n")
        refuse_unknown(run, tx, users, accts)
        run.out(
            " Adding Coordinator User(s)\n"
            + "".join(f"  {u}\n" for u in users)
            + " To Account(s) and all sub-accounts\n"
            + "".join(f"  {a}\n" for a in accts)
        )
        tx.add_coordinators(users, accts)

    return run.write(body)


def add_cluster(run: Run, words: list[str]) -> int:
    def body(tx: SacctmgrWrites) -> None:
        names = [
            n.lower()
            for w in plain(words)
            if w.bare or matches(w.key, (("Names", 1), ("Clusters", 1)))
            for n in names_of(w.raw if w.bare else w.value)
        ]
        others = [
            w.raw
            for w in plain(words)
            if not (w.bare or matches(w.key, (("Names", 1), ("Clusters", 1))))
        ]
        if others:
            raise run.refuse(
                "".join(
                    f" Unknown option: {o}\n Use keyword 'where' to modify condition\n"
                    for o in others
                )
            )
        if not names:
            raise run.refuse(" Need name of cluster to add.\n")
        known = set(tx.cluster_names())
        for name in names:
            if name in known:
                run.out(f" This cluster {name} already exists.  Not adding.\n")
        new = [n for n in dict.fromkeys(names) if n not in known]
        if not new:  # sacctmgr says no more than the lines above
            raise run.refuse("")
        run.out(" Adding Cluster(s)\n" + "".join(f"  Name           = {n}\n" for n in new))
        root_known = "root" in tx.users()
        normal_known = "normal" in tx.qos_list()
        for name in new:
            tx.add_cluster(name)
            # as slurmdbd does: root's user association in account root, root an
            # Administrator the first time
            tx.add_user(
                "root",
                "root",
                name,
                None,
                None if root_known else "root",
                None if root_known else "Administrator",
            )
            root_known = True
        if not normal_known and "normal" in tx.qos_list():
            # slurmdbd's QOS normal, made with its database
            tx.describe_new_qos("normal", "Normal QOS default")

    return run.write(body)
