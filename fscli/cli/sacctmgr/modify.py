"""``sacctmgr modify account|user|qos ... [where ...] set ...`` over fscli's ``Admin``.

Words before ``set`` (or after ``where``) pick what to change; words after ``set`` are
the new values. sacctmgr lists every object it matched (``Modified account
associations...``), in nested-set order, whether or not a value actually changed, and
says `` Nothing modified`` (exit 1) only when nothing matched.
"""

from __future__ import annotations

from fscli.cli.sacctmgr.add import _known_qos
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
from fscli.cli.sacctmgr.values import Problems, Settings, assoc_setting

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
    for w in rec:
        key = None if w.bare else first(w.key, table)
        if key is not None:
            own[key] = w.value.strip("'\"")
            continue
        canon = None if w.bare else first(w.key, ASSOC_REC)
        if canon is None or not assoc_setting(canon, w, values, known_qos, problems):
            problems.unknown(w.raw)
    return own, values


def read_modify(run: Run, session, words: list[str], cond_table, rec_table, extra: list[str] = ()):
    """The common start of a modify: conditions and settings read (a bad word, a
    refused key or nothing to set ends the command), then the ``WHERE``-less question."""
    cond, rec = sections(words)
    problems = Problems()
    found = conditions(cond, cond_table, problems)
    own, values = settings(rec, rec_table, _known_qos(session), problems)
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


def admin_targets(picked: list) -> list[tuple[str, str, str, str | None]]:
    """User associations as ``Admin`` names them: (cluster, user, account, partition),
    where partition None means all of that user's associations in the account. No
    partition picked means all of them (conditions never pick the plain association
    alone): one target then, else one per partition."""
    groups: dict[tuple[str, str, str], set] = {}
    for item in picked:
        groups.setdefault((item.cluster, item.user, item.account), set()).add(item.assoc.partition)
    return [
        (*key, part)
        for key, parts in groups.items()
        for part in ([None] if None in parts else sorted(parts))
    ]


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


def _selected(view, found: dict[str, list[str]], users: bool) -> list:
    """The associations of ``view`` the conditions pick (account or user ones)."""

    def ok(key: str, value) -> bool:
        return key not in found or (value or "") in found[key]

    picked = []
    for item in view:
        if (item.user is not None) != users or item.assoc.parent_id is None and not users:
            continue
        if users:
            if not (ok("name", item.user) and ok("account", item.account)):
                continue
        elif not (ok("name", item.account) and ok("account", item.account)):
            continue
        if ok("partition", item.assoc.partition) and ok("parent", item.parent_account):
            picked.append(item)
    return sorted(picked, key=lambda v: (v.cluster, v.lft))


def modify_account(run: Run, words: list[str]) -> int:
    def body(session) -> None:
        from fscli.api.sacctmgr import Admin
        from fscli.api.sacctmgr import queries as q

        found, own, values = read_modify(run, session, words, ACCOUNT_COND, ACCOUNT_REC)
        conn = session.connection()
        clusters = run.clusters(conn, found.pop("cluster", []))
        accounts = q.accounts(conn)
        named = [
            a
            for a in accounts
            if all(a in found.get(k, [a]) for k in ("name",))
            and (accounts[a][0].lower() in found.get("description", [accounts[a][0].lower()]))
            and (accounts[a][1].lower() in found.get("organization", [accounts[a][1].lower()]))
        ]
        picked = [
            v
            for v in _selected(q.load_view(conn, clusters), found, users=False)
            if v.account in named
        ]
        desc, org = own.get("description"), own.get("organization")
        modified = report(
            run,
            [
                (
                    "Modified accounts...",
                    sorted({v.account for v in picked})
                    if desc is not None or org is not None
                    else [],
                ),
                (
                    "Modified account associations...",
                    [f"C = {v.cluster:<10} A = {v.account} of {v.parent_account}" for v in picked]
                    if values.given()
                    else [],
                ),
            ],
        )
        admin = Admin(session, run.app.now, run.app.actor)
        by_cluster: dict[str, list[str]] = {}
        for item in picked:
            by_cluster.setdefault(item.cluster, []).append(item.account)
        for cluster, names in by_cluster.items():
            admin.modify_accounts(
                admin.cluster(cluster),
                names,
                values.parent,
                desc and desc.lower(),
                org,
                values.changes(),
            )
        run.out(modified)

    return run.write(body)


def modify_user(run: Run, words: list[str]) -> int:
    def body(session) -> None:
        from fscli.api.sacctmgr import Admin
        from fscli.api.sacctmgr import queries as q
        from fscli.engine.treespec import parse_admin_level
        from fscli.errors import FscliError

        wckeys = any(
            w.key and first(w.key, USER_COND) in ("defaultwckey", "wckeys")
            for w in sections(words)[0]
        )
        found, own, values = read_modify(
            run,
            session,
            words,
            USER_COND,
            USER_REC,
            [" fscli keeps no WCKeys: leave out DefaultWCKey= and WCKeys=\n"] if wckeys else [],
        )
        conn = session.connection()
        clusters = run.clusters(conn, found.pop("cluster", []))
        named = named_users(q.users(conn), found)
        view = q.load_view(conn, clusters)
        picked = [v for v in _selected(view, found, users=True) if v.user in named]
        level = None
        if "adminlevel" in own:
            try:
                level = parse_admin_level(own["adminlevel"])
            except FscliError:
                raise run.refuse(f" Unknown admin level '{own['adminlevel']}'\n") from None
        default = own.get("defaultaccount", "").lower() or None
        if default:
            lacking = [
                (u, c)
                for u in named
                for c in clusters
                if not any(v.user == u and v.account == default and v.cluster == c for v in view)
            ]
            if lacking:
                run.out(
                    f" Can't modify because these users aren't associated with new default "
                    f"account '{default}'...\n"
                    + "".join(f"  U = {u} C = {c}\n" for u, c in lacking)
                )
                raise run.refuse("")
        modified = report(
            run,
            [
                ("Modified users...", named if default or level else []),
                (
                    "Modified user associations...",
                    [f"C = {v.cluster:<10} A = {v.account:<20} U = {v.user:<9}" for v in picked]
                    if values.given()
                    else [],
                ),
            ],
        )
        admin = Admin(session, run.app.now, run.app.actor)
        if default or level:
            for user in named:
                admin.modify_users(
                    admin.cluster(clusters[0]),
                    [user],
                    None,
                    None,
                    default,
                    level,
                    Settings().changes(),
                )
        if values.given():
            for cluster, user, account, part in admin_targets(picked):
                admin.modify_users(
                    admin.cluster(cluster), [user], account, part, None, None, values.changes()
                )
        run.out(modified)

    return run.write(body)
