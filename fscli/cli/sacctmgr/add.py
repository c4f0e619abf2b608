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
    from fscli.api.add_plans import Refusal
    from fscli.api.coordinator_plans import CoordinatorChange
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
    from fscli.api.add_plans import stored_name
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
        plan = tx.plan_add_accounts(
            names,
            clusters,
            settings.parent or "root",
            _text(own, "description"),
            _text(own, "organization"),
            settings.changes(),
        )
        _say_refusals(run, plan.refusals)
        if not plan.new and not plan.assocs:
            run.out(" Nothing new added.\n")
            raise run.refuse("")
        if not plan.assocs:
            raise run.refuse(" No associations created.\n")
        desc, org = plan.description, plan.organization
        text = ""
        if plan.new:
            text += " Adding Account(s)\n" + "".join(f"  {n}\n" for n in plan.new)
            text += (
                " Settings\n"
                f"  Description     = {desc if desc is not None else 'Account Name'}\n"
                f"  Organization    = {org if org is not None else 'Parent/Account Name'}\n"
            )
        # each account's associations in turn, as slurmdbd lists them
        text += " Associations\n" + "".join(
            f"  A = {n[:10]:<10} C = {c[:10]:<10}\n" for c, n in plan.assocs
        )
        if touched or desc is not None or org is not None:
            text += " Settings\n" + settings_lines(
                settings.shares,
                settings.limits,
                plan.parent,
                settings.priority,
                settings.qos_items if settings.qos else None,
                settings.default_qos,
            )
        run.out(text)
        tx.commit(plan)

    return run.write(body)


REFUSALS = {
    "no-parent": " Parent account '{name}' doesn't exist on cluster {cluster}\n",
    "no-account": " This account '{name}' doesn't exist.\n",
    "no-default-account": " This account '{name}' doesn't exist.\n",
    "no-account-on-cluster": " This account '{name}' doesn't exist on cluster {cluster}\n",
}
"""sacctmgr's words for the refusals of an add's plan (:class:`fscli.api.add_plans.Refusal`)."""


def _say_refusals(run: Run, refusals: list[Refusal]) -> None:
    """Each refusal on stderr, in sacctmgr's words; any makes the exit code 1."""
    for refusal in refusals:
        run.failed = True
        run.err(
            REFUSALS[refusal.code].format(name=refusal.name, cluster=refusal.cluster)
            + "        Contact your admin to add this account.\n"
        )


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
        partitions: list[str | None] = [p for v in own.get("partition", []) for p in names_of(v)]
        partitions = partitions or [None]
        plan = tx.plan_add_users(
            names, accounts, clusters, partitions, default, level, settings.changes()
        )
        _say_refusals(run, plan.refusals)
        if not plan.new and not plan.assocs:
            run.out(" Nothing new added.\n")
            raise run.refuse("")
        if not plan.assocs:
            raise run.refuse(" No associations or wckeys created.\n")
        text = ""
        if plan.new:
            text += " Adding User(s)\n" + "".join(f"  {n}\n" for n in plan.new)
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
            for u, a, c, p in plan.assocs
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
        tx.commit(plan)

    return run.write(body)


COORD_KEYS: tuple[tuple[str, Names], ...] = (
    ("name", (("Names", 1), ("Users", 1))),
    ("account", (("Accounts", 2), ("Acct", 4))),
)


def coordinator_plan(
    run: Run, tx: SacctmgrWrites, users: list[str], accts: list[str], adding: bool
) -> CoordinatorChange:
    """The API's plan of a coordinator command; its unknown names each said, exit 1."""
    from fscli.api.coordinator_plans import plan_coordinators

    plan = plan_coordinators(tx, users, accts, adding)
    if plan.refusals:
        raise run.refuse(
            "".join(
                f" You specified a non-existent {'account' if r.code == 'no-account' else 'user'}"
                f" '{r.name}'.\n"
                for r in plan.refusals
            )
        )
    return plan


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
        plan = coordinator_plan(run, tx, users, accts, adding=True)
        run.out(
            " Adding Coordinator User(s)\n"
            + "".join(f"  {u}\n" for u in users)
            + " To Account(s) and all sub-accounts\n"
            + "".join(f"  {a}\n" for a in accts)
        )
        tx.commit(plan)

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
        plan = tx.plan_add_clusters(names)
        for refusal in plan.refusals:
            run.out(f" This cluster {refusal.name} already exists.  Not adding.\n")
        if not plan.new:  # sacctmgr says no more than the lines above
            raise run.refuse("")
        run.out(" Adding Cluster(s)\n" + "".join(f"  Name           = {n}\n" for n in plan.new))
        tx.commit(plan)

    return run.write(body)
