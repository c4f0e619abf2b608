"""``sacctmgr modify account|user ... [where ...] set ...`` as plans of the API's change.

Words before ``set`` (or after ``where``) pick what to change; words after ``set`` are
the new values. sacctmgr lists every object it matched (``Modified account
associations...``), in nested-set order, whether or not a value actually changed, and
says `` Nothing modified`` (exit 1) only when nothing matched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fscli.cli.sacctmgr.context import Run
from fscli.cli.sacctmgr.grammar import (
    ASSOC_COND,
    ASSOC_REC,
    LIST_FLAGS,
    Names,
    Word,
    first,
    sections,
    split_list,
)
from fscli.cli.sacctmgr.values import (
    Problems,
    Settings,
    assoc_setting,
    no_change,
    slurm_admin_level,
    sticky,
)
from fscli.engine import tres as tresmod

if TYPE_CHECKING:
    from fscli.api.sacctmgr_writes import SacctmgrWrites

CONDITION_HINT = " Use keyword 'set' to modify value"
ACCOUNT_COND: tuple[tuple[str, Names], ...] = (
    ("name", (("Names", 1), ("Accounts", 1), ("Acct", 4))),
    ("description", (("Descriptions", 1),)),
    ("format", (("Format", 1),)),
    ("organization", (("Organizations", 1),)),
)
ACCOUNT_REC: tuple[tuple[str, Names], ...] = (
    ("name", (("Accounts", 1), ("Names", 1), ("Acct", 4))),
    ("cluster", (("Clusters", 1),)),
    ("description", (("Description", 1),)),
    ("organization", (("Organization", 1),)),
    ("rawusage", (("RawUsage", 7),)),
)
USER_COND: tuple[tuple[str, Names], ...] = (
    ("name", (("Names", 1), ("Users", 1))),
    ("adminlevel", (("AdminLevel", 2),)),
    ("cluster", (("Clusters", 1),)),
    ("defaultaccount", (("DefaultAccount", 8),)),
    ("defaultwckey", (("DefaultWCKey", 8),)),
    ("format", (("Format", 1),)),
    ("wckeys", (("WCKeys", 1),)),
)
USER_REC: tuple[tuple[str, Names], ...] = (
    ("adminlevel", (("AdminLevel", 2),)),
    ("defaultaccount", (("DefaultAccount", 8),)),
    ("defaultwckey", (("DefaultWCKey", 8),)),
    ("newname", (("NewName", 1),)),
    ("rawusage", (("RawUsage", 7),)),
)
REFUSED_REC = {
    "name": " Can't modify the name of an account\n",
    "cluster": " Can't modify the cluster of an account\n",
    "rawusage": " fscli sacctmgr cannot reset RawUsage: use 'fscli usage set'\n",
    "newname": " fscli sacctmgr cannot rename users\n",
    "defaultwckey": " fscli keeps no WCKeys: leave out DefaultWCKey=\n",
}


def conditions(cond: list[Word], table, problems: Problems) -> dict[str, list[str]]:
    """``where`` words → {key: values}; list flags are accepted and ignored here."""
    found: dict[str, list[str]] = {}
    for w in cond:
        if w.bare and first(w.raw, LIST_FLAGS):
            continue
        key = "name" if w.bare else (first(w.key, table) or first(w.key, ASSOC_COND))
        if key is None:
            problems.say(f" Unknown condition: {w.raw}\n{CONDITION_HINT}")
            continue
        if key != "format":
            found.setdefault(key, []).extend(
                v.lower() for v in split_list(w.raw if w.bare else w.value)
            )
    return found


def settings(rec: list[Word], table, known_qos: list[str], problems: Problems):
    """``set`` words → (own values, association settings)."""
    own: dict[str, str] = {}
    values = Settings()
    for w in sticky(rec):
        key = None if w.bare else first(w.key, table)
        if key is not None:
            own[key] = w.value.strip("'\"")
            continue
        canon = None if w.bare else first(w.key, ASSOC_REC)
        if canon is None or not assoc_setting(canon, w, values, known_qos, problems):
            problems.unknown(w.raw)
    return own, values


def read_modify(
    run: Run,
    tx: SacctmgrWrites,
    words: list[str],
    cond_table,
    rec_table,
    extra: Sequence[str] = (),
):
    """The common start of a modify: conditions and settings read (a bad word, a
    refused key or nothing to set ends the command), then the ``WHERE``-less question."""
    cond, rec = sections(words)
    problems = Problems()
    found = conditions(cond, cond_table, problems)
    own, values = settings(rec, rec_table, tx.qos_list(), problems)
    refused = [REFUSED_REC[k] for k in own if k in REFUSED_REC] + list(extra)
    if refused:
        raise run.refuse("".join(refused) + problems.text())
    problems.settle(run)
    if not own and not values.given():
        raise run.refuse(" You didn't give me anything to set\n")
    if not _ask_without_where(run, found):
        raise run.refuse("", 0)
    return found, own, values


def named_users(users: dict[str, tuple[str, str]], found: dict[str, list[str]]) -> list[str]:
    """The users the conditions name (name=, defaultaccount=, adminlevel=)."""
    return [
        u
        for u, (default, level) in users.items()
        if u in found.get("name", [u])
        and default in found.get("defaultaccount", [default])
        and level.lower() in found.get("adminlevel", [level.lower()])
    ]


def modified_users(
    users: dict[str, tuple[str, str]], found: dict[str, list[str]]
) -> tuple[list[str], list[str]] | None:
    """The users a modify picks, as slurmdbd's ``as_mysql_modify_users`` picks them: those
    of the user table matching name= and adminlevel= (by name), joined by the users whose
    default account is one of defaultaccount= (among the names, if given), these first.
    Returns (all picked, those of the user table: only they take a new admin level), or
    None when neither names, an admin level nor default accounts were given."""
    names = found.get("name")
    level = slurm_admin_level(found["adminlevel"][-1]) if "adminlevel" in found else None
    defaults = found.get("defaultaccount")
    if not names and level is None and defaults is None:
        return None
    table = (
        [u for u, (_, have) in users.items() if u in (names or [u]) and level in (None, have)]
        if names or level
        else []
    )
    by_default = [
        u
        for u, (default, _) in users.items()
        if defaults is not None and default in defaults and u in (names or [u])
    ]
    return [u for u in by_default if u not in table] + sorted(table), sorted(table)


def report(run: Run, blocks: list[tuple[str, list[str]]]) -> str:
    """The `` Modified ...`` blocks that have objects, to print once the change is made
    (one the store refuses is not reported as made); `` Nothing modified`` (exit 1) when
    no block has any."""
    text = "".join(
        f" {title}\n" + "".join(f"  {line}\n" for line in lines) for title, lines in blocks if lines
    )
    if not text:
        run.out(" Nothing modified\n")
        raise run.refuse("")
    return text


def _ask_without_where(run: Run, found: dict) -> bool:
    if found:
        return True
    if run.confirm(
        "You didn't set any conditions with 'WHERE'.\nAre you sure you want to continue?"
    ):
        return True
    run.out("Aborted\n")
    return False


def _selected(view, found: dict[str, list[str]], users: bool | None) -> list:
    """The associations of ``view`` the conditions pick: user ones (True), account ones
    but the root (False), or, as slurmdbd's get reads an account modify's conditions
    (None), all those of the accounts named."""

    def ok(key: str, value) -> bool:
        return key not in found or (value or "") in found[key]

    picked = []
    for item in view:
        if users is not None and (
            (item.user is not None) != users or item.assoc.parent_id is None and not users
        ):
            continue
        if users:
            if not (ok("name", item.user) and ok("account", item.account)):
                continue
        elif not (ok("name", item.account) and ok("account", item.account)):
            continue
        if ok("partition", item.assoc.partition) and ok("parent", item.parent_account):
            picked.append(item)
    return sorted(picked, key=lambda v: (v.cluster, v.lft))


ACCOUNT_KEYS = ("name", "description", "organization")
PUSHED_SCALARS = (
    "MaxJobs",
    "MaxJobsAccrue",
    "MinPrioThreshold",
    "MaxSubmitJobs",
    "MaxWallDurationPerJob",
)
PUSHED_TRES = ("MaxTRESPerJob", "MaxTRESPerNode", "MaxTRESMinsPerJob", "MaxTRESRunMins")


def _pushed(values: Settings, account) -> dict[str, object]:
    """What a change of ``account`` hands down to associations that inherit it
    (slurmdbd's ``_modify_unset_users``): the Max* limits, priority, default QOS, QOS; a
    Max TRES limit only when it changes the account's own (``mod_tres_str``)."""
    out: dict[str, object] = {k: True for k in PUSHED_SCALARS if k in values.limits}
    for key in PUSHED_TRES:
        if key in values.limits and _tres_changes(
            values.limits[key], account.assoc.limits.get(key)
        ):
            out[key] = True
    if values.priority is not None:
        out["priority"] = True
    if values.default_qos is not None:
        out["default_qos"] = True
    if values.qos is not None:
        out["qos"] = list(values.qos_items)
    return out


def _tres_changes(given: dict, own: dict | None) -> bool:
    """Whether TRES amounts ``given`` change an association's own ``own`` (a cleared TRES
    changes only one that was set)."""
    own = own or {}
    return any(
        tres in own if amount is tresmod.CLEAR else own.get(tres) != amount
        for tres, amount in given.items()
    )


def _pushed_to(child, pushed: dict[str, object]) -> dict[str, object]:
    """The part of ``pushed`` that reaches ``child``: what it does not set itself (TRES
    limits always, merged TRES by TRES; a QOS list unless it has its own, less what its
    own +/- delta says the other way)."""
    own = child.assoc
    out: dict[str, object] = {}
    for key in pushed:
        if key in PUSHED_TRES:
            out[key] = True
        elif key in PUSHED_SCALARS and own.limits.get(key) is None:
            out[key] = True
        elif key == "priority" and own.priority is None:
            out[key] = True
        elif key == "default_qos" and own.default_qos is None:
            out[key] = True
    items = pushed.get("qos")
    if isinstance(items, list) and not (own.qos and own.qos[0][:1] not in "+-"):
        delta = list(own.qos)
        left = [
            i
            for i in items
            if not (i[:1] in "+-" and any(d[:1] != i[:1] and d[1:] == i[1:] for d in delta))
        ]
        if left or not any(items):
            out["qos"] = left
    return out


def unset_lines(view: list, account, pushed: dict[str, object]) -> list[str]:
    """The associations below ``account`` a change reaches because they inherit it, as
    slurmdbd lists them after the account: user associations named, sub-accounts walked
    (not named), in nested-set order."""
    if not pushed:
        return []
    kids = sorted(
        (v for v in view if v.cluster == account.cluster and v.assoc.parent_id == account.assoc.id),
        key=lambda v: v.lft,
    )
    lines: list[str] = []
    for kid in kids:
        reached = _pushed_to(kid, pushed)
        if not reached:
            continue
        if kid.user is None:
            lines += unset_lines(view, kid, reached)
        else:
            lines.append(user_assoc_line(kid))
    return lines


NO_DEFAULT_ACCESS = (
    " These associations don't have access to their default qos.\n"
    " Please give them access before they the default can be set to this.\n"
)


def default_qos_refused(view, found: dict[str, list[str]], users: bool, values: Settings) -> str:
    """sacctmgr's ``sacctmgr_check_default_qos`` after a modify that sets DefaultQOS= or a
    QOS list, on the associations as changed: each association the modify's conditions
    get (an account's user associations too) must have in its QOS list the DefaultQOS
    given, else its own. The text that refuses the change (nothing is written; exit 0),
    or "" when all have access."""
    if values.default_qos is None and values.qos is None:
        return ""
    lines = []
    for v in _selected(view, found, True if users else None):
        wanted = values.default_qos if values.default_qos is not None else v.default_qos
        if not wanted or wanted in v.qos:
            continue
        line = (
            f"  DefQOS = {v.default_qos or '(null)':<10} C = {v.cluster:<10} A = {v.account:<20} "
        )
        if v.user is not None:
            line += f"U = {v.user:<9}" + (f" P = {v.assoc.partition}" if v.assoc.partition else "")
        lines.append(line + "\n")
    return NO_DEFAULT_ACCESS + "".join(lines) if lines else ""


def _check_default_qos(
    run: Run, tx: SacctmgrWrites, clusters, found, users: bool, values, said
) -> None:
    """End the modify unwritten, as sacctmgr does when :func:`default_qos_refused` says
    so: what was said before the association part, then the refusal (exit 0 unless an
    earlier part failed)."""
    refused = default_qos_refused(tx.view(clusters), found, users, values)
    if refused:
        run.out("".join(said))
        raise run.refuse(refused, 1 if run.failed else 0)


def modify_account(run: Run, words: list[str]) -> int:
    """As ``sacctmgr_modify_account``: Description=/Organization= go to the accounts
    picked by name, description and organization; association values to the account
    associations picked by name, parent and cluster, each listed with the user
    associations below that inherit the change. A move to the parent an account is
    already first under, or to itself, is no change (not listed); a move under one of
    its own sub-accounts first moves that one up to the account's parent."""

    def body(tx: SacctmgrWrites) -> None:
        found, own, values = read_modify(run, tx, words, ACCOUNT_COND, ACCOUNT_REC)
        by_account = {k for k in found if k in ACCOUNT_KEYS}
        by_assoc = {k for k in found if k not in ACCOUNT_KEYS}
        clusters = run.pick_clusters(tx.cluster_names(), found.pop("cluster", []))
        accounts = tx.accounts()
        view = tx.view(clusters)
        desc, org = own.get("description"), own.get("organization")
        said: list[str] = []
        commit = False
        named: list[str] = []
        if desc is not None or org is not None:
            if by_assoc and not by_account:
                run.failed = True
                run.err(WHERE_PROBLEM)
            else:
                named = [
                    a
                    for a, (d, o) in accounts.items()
                    if a in found.get("name", [a])
                    and d.lower() in found.get("description", [d.lower()])
                    and o.lower() in found.get("organization", [o.lower()])
                ]
                commit = _part(run, said, " Modified accounts...", named) or commit
        picked = None
        assoc_part = len(said)
        if values.given():
            if by_account and not by_assoc and not found.get("name"):
                run.failed = True
                run.err(WHERE_PROBLEM)
            else:
                picked = _selected(view, found, users=False)
        changes = None if values.changes().empty() else values.changes(modify=True)
        plan = tx.plan_modify_accounts(
            view, clusters, named, desc, org, picked, values.parent, changes
        )
        if plan.refusals:
            run.failed = True
            run.err(f" Parent Account {values.parent} doesn't exist.\n")
        elif picked is not None:
            lines: list[str] = []
            for v in plan.assocs:
                lines.append(f"C = {v.cluster:<10} A = {v.account} of {v.parent_account}")
                lines += unset_lines(view, v, _pushed(values, v))
            commit = _part(run, said, " Modified account associations...", lines) or commit
        if not commit:
            run.out("".join(said))
            raise run.refuse("", 1 if run.failed else 0)
        _note_account_txns(tx, named, desc, org, values, plan.assocs)
        tx.commit(plan)
        _check_default_qos(run, tx, clusters, found, False, values, said[:assoc_part])
        run.out("".join(said))

    return run.write(body)


def _part(run: Run, said: list[str], header: str, lines: list[str]) -> bool:
    """One part of a modify, as sacctmgr reports it: ``header`` and its lines, else
    `` Nothing modified`` (and exit 1); whether the part changes anything."""
    if not lines:
        said.append(" Nothing modified\n")
        run.failed = True
        return False
    said.append(header + "\n" + "".join(f"  {line}\n" for line in lines))
    return True


USER_KEYS = ("name", "adminlevel", "cluster", "defaultaccount", "defaultwckey", "wckeys")
WHERE_PROBLEM = " There was a problem with your 'where' options.\n"
ACCOUNTS_QUESTION = " You specified Accounts in your request.  Did you mean DefaultAccounts?\n"


def user_assoc_line(v) -> str:
    """A user association as slurmdbd's modify names it."""
    line = f"C = {v.cluster:<10} A = {v.account:<20} U = {v.user:<9}"
    return line + (f" P = {v.assoc.partition}" if v.assoc.partition else "")


def modify_user(run: Run, words: list[str]) -> int:
    """As ``sacctmgr_modify_user``: the user part (DefaultAccount=, AdminLevel=) and the
    association part are two requests, each saying what it matched (or `` Nothing
    modified``); the change is committed when either went through, so a refused default
    account still lets the association settings be made (exit 1). The user part picks
    users by name, default account and admin level; the association part by name,
    account, partition and cluster only. With account= the user part asks whether
    DefaultAccount= was meant and, if so (-i answers yes), takes the accounts for it: the
    association part then has no account condition left."""

    def body(tx: SacctmgrWrites) -> None:
        wckeys = any(
            w.key and first(w.key, USER_COND) in ("defaultwckey", "wckeys")
            for w in sections(words)[0]
        )
        found, own, values = read_modify(
            run,
            tx,
            words,
            USER_COND,
            USER_REC,
            [" fscli keeps no WCKeys: leave out DefaultWCKey= and WCKeys=\n"] if wckeys else [],
        )
        level = slurm_admin_level(own["adminlevel"]) if "adminlevel" in own else None
        default = own.get("defaultaccount", "").lower() or None
        by_user = {k for k in found if k in USER_KEYS}
        by_assoc = {k for k in found if k not in USER_KEYS}
        clusters = run.pick_clusters(tx.cluster_names(), found.pop("cluster", []))
        users = tx.users()
        view = tx.view(clusters)
        commit = False
        said: list[str] = []  # stdout, printed once the store took the change
        user_changes: list[str] = []
        leveled: list[str] = []  # the users a new admin level reaches
        user_part = None  # where the user part's text goes in ``said``, once planned
        if "defaultaccount" in own or "adminlevel" in own:
            if by_assoc and not by_user:
                run.failed = True
                run.err(WHERE_PROBLEM)
            else:
                if found.get("account"):
                    if run.confirm(ACCOUNTS_QUESTION):
                        found.setdefault("defaultaccount", []).extend(found.pop("account"))
                picked_users = modified_users(users, found)
                named, leveled = picked_users or ([], [])
                if picked_users is None or (level is None and "defaultaccount" not in own):
                    # slurmdbd: nothing to change, or nothing to pick users by
                    said.append(" Nothing modified\n")
                    run.failed = True
                    run.err(no_change("users"))
                elif not named:
                    said.append(" Nothing modified\n")
                    run.failed = True
                else:
                    user_changes = named
                    user_part = len(said)
                    said.append("")
        picked: list = []
        assoc_part = len(said)
        assoc_commit = False
        if values.given():
            if by_user and not by_assoc and not found.get("name"):
                run.failed = True
                run.err(WHERE_PROBLEM)
            else:
                picked = _selected(view, found, users=True)
                lines = [user_assoc_line(v) for v in picked]
                assoc_commit = _part(run, said, " Modified user associations...", lines)
        plan = tx.plan_modify_users(
            view,
            clusters,
            user_changes,
            leveled,
            default,
            level,
            picked,
            values.changes(modify=True) if values.given() else None,
        )
        if user_part is not None:
            if plan.refusals:
                said[user_part] = (
                    " Can't modify because these users aren't associated with new "
                    f"default account '{default}'...\n"
                    + "".join(f"  U = {r.name} C = {r.cluster}\n" for r in plan.refusals)
                )
                run.failed = True
            else:
                said[user_part] = " Modified users...\n" + "".join(f"  {u}\n" for u in user_changes)
                commit = True
        commit = assoc_commit or commit
        if not commit:
            run.out("".join(said))
            raise run.refuse("", 1 if run.failed else 0)
        _note_user_txns(
            tx, view, (user_changes, plan.leveled), plan.lacking, default, level, values, picked
        )
        tx.commit(plan)
        if picked:
            _check_default_qos(run, tx, clusters, found, True, values, said[:assoc_part])
        run.out("".join(said))

    return run.write(body)


def _assoc_info(values: Settings, is_def: bool = False) -> str:
    from fscli.api.sacctmgr_writes import assoc_info

    return assoc_info(values.changes().shares, values.priority, values.limits, is_def)


def _writes(values: Settings, matched) -> bool:
    """Whether slurmdbd writes a Modify Associations row: its SQL has something to set,
    which a TRES limit gives only where it changes an association's own string
    (``mod_tres_str``); every other setting always does."""
    changes = values.changes()
    if changes.empty():
        return False
    tres = {k: v for k, v in changes.limits.items() if isinstance(v, dict)}
    if len(tres) < len(changes.limits) or changes.shares is not None:
        return True
    if changes.priority is not None or changes.touches_qos():
        return True
    return any(_tres_changes(v, m.assoc.limits.get(k)) for k, v in tres.items() for m in matched)


def _note_account_txns(tx: SacctmgrWrites, named, desc, org, values: Settings, changed) -> None:
    """slurmdbd's rows of a modify account: Modify Accounts for the accounts matched,
    Modify Associations for the associations matched (a move alone writes none)."""
    if named:
        info = ", ".join(
            f"{key}='{value.lower()}'"
            for key, value in (("description", desc), ("organization", org))
            if value is not None
        )
        tx.note_modified("Accounts", sorted(named), info)
    if changed and _writes(values, changed):
        tx.note_modified_assocs(changed, _assoc_info(values))


def _note_user_txns(
    tx: SacctmgrWrites, view, picked_users, lacking, default, level, values: Settings, picked
) -> None:
    """slurmdbd's rows of a modify user: Modify Users for a new admin level (the users
    the level reaches), Modify Associations (is_def=1) for the new default account's
    associations, then Modify Associations for the associations matched."""
    from fscli.engine.treespec import ADMIN_LEVELS

    users, leveled = sorted(picked_users[0]), picked_users[1]
    if leveled and level and not lacking:
        number = ADMIN_LEVELS.index(level) + 1
        tx.note_modified("Users", leveled, f"admin_level={number}")
    if users and default and not lacking:
        defaults = [v for v in view if v.user in users and v.account == default]
        tx.note_modified_assocs(defaults, "is_def=1")
    if picked and _writes(values, picked):
        tx.note_modified_assocs(picked, _assoc_info(values))
