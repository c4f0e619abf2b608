"""``sacctmgr show|list association|account|user|qos|cluster|tres|transaction``.

Listings follow sacctmgr 22.05: default columns per entity, ``format=`` with Slurm's
field names and widths, ``-p``/``-P``/``-n``, ``tree``, ``withassoc``, ``withcoord``,
``withsubaccounts``, ``onlydefaults``, and the filters of ``sacctmgr_set_assoc_cond``.
Events and WCKeys are listed empty with a note: fscli keeps neither.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from fscli.cli.sacctmgr.columns import (
    UnknownField,
    assoc_getter,
    columns,
    format_items,
    zero_assoc_text,
)
from fscli.cli.sacctmgr.context import Run
from fscli.cli.sacctmgr.grammar import ASSOC_COND, LIST_FLAGS, Names, first, plain, split_list
from fscli.engine.sacctmgr_view import AssocView, hierarchical, tree_depths
from fscli.render.sacctmgr import Column, table

if TYPE_CHECKING:
    from fscli.api.sacctmgr_reads import Reads

ASSOC_DEFAULT = (
    "Cluster,Account,User,Part,Share,Priority,GrpJ,GrpTRES,GrpS,GrpWall,"
    "GrpTRESMins,MaxJ,MaxTRES,MaxTRESPerN,MaxS,MaxW,MaxTRESMins,QOS,DefaultQOS,"
    "GrpTRESRunMins"
)
ACCOUNT_ASSOC = (
    "Cl,ParentN,U,Share,Priority,GrpJ,GrpN,GrpCPUs,GrpMEM,GrpS,GrpWall,"
    "GrpCPUMins,MaxJ,MaxN,MaxCPUs,MaxS,MaxW,MaxCPUMins,QOS,DefaultQOS"
)
USER_ASSOC = "Cl,Acc,Part,Share,Priority,MaxJ,MaxN,MaxCPUs,MaxS,MaxW,MaxCPUMins,QOS,DefaultQOS"
CLUSTER_DEFAULT = (
    "Cl,Controlh,Controlp,RPC,Fa,GrpJ,GrpTRES,GrpS,MaxJ,MaxTRES,MaxS,MaxW,QOS,DefaultQOS"
)

OWN_KEYS: dict[str, tuple[tuple[str, Names], ...]] = {
    "association": (),
    "account": (
        ("name", (("Names", 1), ("Accounts", 1), ("Acct", 4))),
        ("description", (("Descriptions", 1),)),
        ("organization", (("Organizations", 1),)),
    ),
    "user": (
        ("name", (("Names", 1), ("Users", 1))),
        ("adminlevel", (("AdminLevel", 2),)),
        ("cluster", (("Clusters", 1),)),
        ("defaultaccount", (("DefaultAccount", 8),)),
    ),
    "cluster": (("name", (("Names", 1), ("Clusters", 1))),),
    "tres": (("name", (("Names", 2),)), ("type", (("Type", 2),)), ("id", (("Ids", 1),))),
    "transaction": (),
}
FORMAT: tuple[tuple[str, Names], ...] = (("format", (("Format", 1),)),)


class Query:
    """The words of a listing: flags, filters (key → values) and the format items."""

    def __init__(self, entity: str, words: list[str], run: Run):
        self.flags: set[str] = set()
        self.filters: dict[str, list[str]] = {}
        self.format: list[str] = []
        self.bad: list[str] = []
        own = OWN_KEYS[entity]
        for w in plain(words):
            flag = first(w.raw, LIST_FLAGS) if w.bare else None
            if flag:
                self.flags.add(flag)
                continue
            name = w.key or ""
            key: str | None = (
                ("id" if entity == "association" else "name")
                if w.bare
                else first(name, FORMAT) or first(name, own) or first(name, ASSOC_COND)
            )
            if key is None:
                self.bad.append(w.raw)
            elif key == "format":
                self.format += split_list(w.value)
            else:
                self.filters.setdefault(key, []).extend(
                    v.lower() for v in split_list(w.raw if w.bare else w.value)
                )
        if run.opts.with_assoc:
            self.flags.add("withassoc")

    def allows(self, key: str, value: str | None) -> bool:
        return key not in self.filters or (value or "").lower() in self.filters[key]


def show(run: Run, entity: str, words: list[str]) -> int:
    if entity == "transaction":
        return list_transaction(run, words)
    query = Query(entity, words, run)
    if query.bad:
        run.err("".join(f" Unknown condition: {b}\n" for b in query.bad))
        return 1
    from fscli.api.sacctmgr_reads import reading
    from fscli.cli.answers import may_record

    if run.opts.words:  # not a line of stdin: the command line is the whole question
        may_record(run.app, windowed=False)  # what the store holds, whatever the time
    try:
        with reading(run.app.store) as reads:
            return LISTERS[entity](run, query, reads)
    except UnknownField as exc:
        run.err(str(exc))
        return 1


def _emit(run: Run, cols: list[Column], rows: list[list[str]]) -> int:
    run.out(table(cols, rows, run.opts.parsable, not run.opts.noheader))
    return 0


def _assocs(query: Query, reads: Reads, run: Run) -> list[AssocView]:
    """The associations a listing's filters pick, in sacctmgr's order."""
    clusters = run.listed_clusters(reads.conn, query.filters.get("cluster", []))
    every = reads.views(clusters, own_only="woplimits" in query.flags) if clusters else []
    view = every
    accounts = query.filters.get("account")
    if accounts and "withsubaccounts" in query.flags:
        spans = [
            (v.cluster, v.lft, v.rgt) for v in view if v.user is None and v.account in accounts
        ]
        view = [v for v in view if any(c == v.cluster and lo <= v.lft <= hi for c, lo, hi in spans)]
    elif accounts:
        view = [v for v in view if v.account in accounts]
    flagged = reads.default_ids() if "onlydefaults" in query.flags else set()
    picked = []
    for v in view:
        if "user" in query.filters and (v.user is None or v.user not in query.filters["user"]):
            continue
        if not (
            query.allows("partition", v.assoc.partition)
            and query.allows("parent", v.parent_account)
            and query.allows("id", str(v.assoc.id))
            and query.allows("defaultqos", v.default_qos)
        ):
            continue
        if "qos" in query.filters and not set(v.qos) & set(query.filters["qos"]):
            continue
        if "onlydefaults" in query.flags and v.assoc.id not in flagged:
            continue
        picked.append(v)
    # all of them: in sacctmgr's order already (those left out move the others' places)
    return picked if len(picked) == len(every) else hierarchical(picked)


def list_assoc(run: Run, query: Query, reads: Reads) -> int:
    tree = "tree" in query.flags
    cols = columns(format_items(query.format or [ASSOC_DEFAULT]), tree)
    getters = [assoc_getter(c.title, tree) for c in cols]
    picked = _assocs(query, reads, run)
    if tree:
        for v, depth in zip(picked, tree_depths(picked)):
            v.depth = depth
    return _emit(run, cols, [[g(v) for g in getters] for v in picked])


def list_account(run: Run, query: Query, reads: Reads) -> int:
    with_assoc = "withassoc" in query.flags
    default = (
        "Acc,Des,O"
        + ("," + ACCOUNT_ASSOC if with_assoc else "")
        + (",Coord" if "withcoord" in query.flags else "")
    )
    cols = columns(format_items(query.format or [default]))
    accounts = reads.accounts()
    names = [
        a
        for a, (desc, org) in accounts.items()
        if query.allows("name", a)
        and query.allows("description", desc)
        and query.allows("organization", org)
    ]
    coords: dict[str, list[str]] = {}
    for user, accts in reads.coordinators().items():
        for acct in accts:
            coords.setdefault(acct, []).append(user)
    own: dict[str, Callable] = {
        "Account": lambda a, v: a,
        "Descr": lambda a, v: accounts[a][0],
        "Org": lambda a, v: accounts[a][1],
        "Coord Accounts": lambda a, v: ",".join(sorted(coords.get(a, []))),
    }
    getters = [own.get(c.title) or _on_assoc(c.title) for c in cols]
    rows = []
    if with_assoc:
        by_account: dict[str, list] = {}
        for v in sorted(_assocs(query, reads, run), key=lambda v: (v.cluster, v.lft)):
            by_account.setdefault(v.account, []).append(v)
        for name in names:  # an account without associations: its zeroed record's row
            rows += [[g(name, v) for g in getters] for v in by_account.get(name, [None])]
    else:
        rows = [[g(name, None) for g in getters] for name in names]
    return _emit(run, cols, rows)


def _on_assoc(title: str) -> Callable:
    """An association field in an account or user listing; without an association,
    what sacctmgr prints of its all-zero record (``0``, ``00:00:00`` or nothing)."""
    getter = assoc_getter(title, False)
    zero = zero_assoc_text(title)
    return lambda name, v: zero if v is None else getter(v)


def list_user(run: Run, query: Query, reads: Reads) -> int:
    with_assoc = "withassoc" in query.flags
    default = (
        "U,DefaultA,Ad"
        + (",Coord" if "withcoord" in query.flags else "")
        + ("," + USER_ASSOC if with_assoc else "")
    )
    cols = columns(format_items(query.format or [default]))
    listed = [c.lower() for c in query.filters.get("cluster", [])]
    users = reads.users(listed or None)  # the default of the first cluster listed
    names = [
        u
        for u, (default_acct, level) in users.items()
        if query.allows("name", u)
        and query.allows("defaultaccount", default_acct)
        and query.allows("adminlevel", level)
    ]
    coords = reads.coordinators()
    own: dict[str, Callable] = {
        "User": lambda u, v: u,
        "Def Acct": lambda u, v: users[u][0],
        "Admin": lambda u, v: users[u][1],
        "Coord Accounts": lambda u, v: ",".join(coords.get(u, [])),
    }
    getters = [own.get(c.title) or _on_assoc(c.title) for c in cols]
    rows = []
    if with_assoc:
        query.filters.setdefault("user", names)
        by_user: dict[str | None, list] = {}
        for v in sorted(_assocs(query, reads, run), key=lambda v: (v.cluster, v.lft)):
            by_user.setdefault(v.user, []).append(v)
        for name in names:
            rows += [[g(name, v) for g in getters] for v in by_user.get(name, [None])]
    else:
        rows = [[g(name, None) for g in getters] for name in names]
    return _emit(run, cols, rows)


def list_cluster(run: Run, query: Query, reads: Reads) -> int:
    """Clusters with their root association's settings. fscli runs no slurmctld, so the
    controller's host, port and RPC version are empty and 0."""
    cols = columns(format_items(query.format or [CLUSTER_DEFAULT]))
    roots = [
        v for v in reads.views() if v.assoc.parent_id is None and query.allows("name", v.cluster)
    ]
    controller = {"ControlHost": "", "ControlPort": "0", "RPC": "0"}
    getters = [
        (lambda v, t=c.title: controller[t])
        if c.title in controller
        else assoc_getter(c.title, False)
        for c in cols
    ]
    return _emit(run, cols, [[g(v) for g in getters] for v in roots])


BASE_TRES = ("cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages")


def list_tres(run: Run, query: Query, reads: Reads) -> int:
    """The TRES fscli knows: Slurm's eight with their ids, then those partitions and
    clusters name (gres/..., license/..., bb/...) from id 1001 on, as slurmdbd numbers."""
    cols = columns(format_items(query.format or ["Type,Name%15,ID"]))
    names = list(BASE_TRES) + sorted(set(reads.named_tres()) - set(BASE_TRES))
    rows = []
    for index, full in enumerate(names):
        kind, _, name = full.partition("/")
        ident = str(index + 1 if index < len(BASE_TRES) else 1001 + index - len(BASE_TRES))
        if query.allows("type", kind) and query.allows("name", name) and query.allows("id", ident):
            cells = {"Type": kind, "Name": name, "ID": ident}
            rows.append([cells.get(c.title, "") for c in cols])
    return _emit(run, cols, rows)


TXN_KEYS: tuple[tuple[str, Names], ...] = (
    ("id", (("Ids", 1), ("Txn", 1))),
    ("account", (("Accounts", 3),)),
    ("action", (("Action", 4),)),
    ("actor", (("Actors", 4),)),
    ("cluster", (("Clusters", 3),)),
    ("end", (("End", 1),)),
    ("format", (("Format", 1),)),
    ("start", (("Start", 1),)),
    ("user", (("Users", 1),)),
)
ACTION_RAW = {
    "Add Accounts": 1402, "Add Account Coord": 1403, "Add Associations": 1404,
    "Add Clusters": 1405, "Add Users": 1406, "Modify Accounts": 1428,
    "Modify Associations": 1429, "Modify Clusters": 1430, "Modify Users": 1431,
    "Remove Accounts": 1435, "Remove Account Coords": 1436, "Remove Associations": 1437,
    "Remove Clusters": 1438, "Remove Users": 1439, "Add QOS": 1447, "Remove QOS": 1450,
    "Modify QOS": 1451,
}  # fmt: skip


def list_transaction(run: Run, words: list[str]) -> int:
    """As ``sacctmgr_list_txn`` and slurmdbd's ``as_mysql_get_txn``: slurmdbd's rows (the
    ones ``fscli sacctmgr`` wrote) by time stamp, picked by the conditions as slurmdbd's
    query picks them: Accounts= and Users= match the rows naming the associations they
    name (``id_assoc=N``) or whose Where or Info names them, and the other conditions
    hold only for the latter (MySQL's ``||`` binds looser than ``&&``)."""
    from fscli.api.sacctmgr_reads import transaction_action, transactions
    from fscli.engine.timestr import format_when, parse_slurm_time

    conds: dict[str, list[str]] = {}
    fmt: list[str] = []
    with_assoc = run.opts.with_assoc
    bad = False
    times: dict[str, int] = {}
    for w in plain(words):
        if w.bare and first(w.raw, (("where", (("where", 5),)),)):
            continue
        if w.bare and first(w.raw, (("withassoc", (("withassocinfo", 5),)),)):
            with_assoc = True
            continue
        key = "id" if w.bare else first(w.key or "", TXN_KEYS)
        value = w.raw if w.bare else w.value
        if key is None:
            run.err(f" Unknown condition: {w.raw}\n")
            bad = True
        elif key == "format":
            fmt += split_list(value)
        elif key in ("start", "end"):
            when = parse_slurm_time(value, run.app.now)
            if when is None:
                run.err(f"Invalid time specification (pos=0): {value}\n")
            times[key] = when or 0
        elif key == "id":
            for item in (i.lower() for i in split_list(value)):  # slurm_addto_char_list
                if item.isdigit():
                    conds.setdefault("id", []).append(item)
                else:
                    run.err(f"sacctmgr: error: Invalid value for Transaction ID ({item})\n")
                    bad = True
        elif key == "action":
            for item in split_list(value):
                action = transaction_action(item)
                if action is not None:
                    conds.setdefault("action", []).append(action)
                else:
                    run.err(f"sacctmgr: error: You gave a bad action '{item}'.\n")
                    bad = True
        else:
            conds.setdefault(key, []).extend(v.lower() for v in split_list(value))
    if bad:
        return 1
    if not fmt:
        fmt = ["Time,Action,Actor,Where,Info"] + (["User,Account,Cluster"] if with_assoc else [])
    try:
        cols = columns(format_items(fmt))
    except UnknownField as exc:
        run.err(str(exc))
        return 1
    view, txns = transactions(run.app.store)
    accts, users, clus = conds.get("account"), conds.get("user"), conds.get("cluster")
    ids: dict[str, list[int]] = {}
    if accts or users:
        for v in view:
            if (
                (not clus or v.cluster in clus)
                and (not accts or v.assoc.account in accts)
                and (not users or (v.assoc.user or "") in users)
            ):
                ids.setdefault(v.cluster, []).append(v.assoc.id)
    by_id = {v.assoc.id: v for v in view}

    def named(txn_name: str, info: str, cluster: str) -> bool:
        name, info = txn_name.lower(), info.lower()
        groups = [
            (accts, lambda a: f"'{a}'" in name or name == a or f"acct='{a}'" in info),
            (users, lambda u: f"'{u}'" in name or name == u or f"user='{u}'" in info),
            (
                clus,
                lambda c: cluster == c or f"'{c}'" in name or name == c
                or f"cluster='{c}'" in info,
            ),
        ]  # fmt: skip
        return all(any(test(x) for x in given) for given, test in groups if given)

    rows = []
    for ident, at, action, name, actor, info, cluster in txns:
        rest = (
            ("action" not in conds or action in conds["action"])
            and ("actor" not in conds or actor.lower() in conds["actor"])
            and ("id" not in conds or str(ident) in {str(int(i)) for i in conds["id"]})
            and ("start" not in times or at >= times["start"])
            and ("end" not in times or at < times["end"])
        )
        by_assoc = any(
            f"id_assoc={i} " in name or f"id_assoc={i})" in name for i in ids.get(cluster, [])
        )
        if accts or users or clus:
            keep = (ids and by_assoc) or (named(name, info, cluster) and rest)
        else:
            keep = rest
        if not keep:
            continue
        members = [
            by_id[int(i)]
            for i in re.findall(r"id_assoc=(\d+)", name)
            if int(i) in by_id and by_id[int(i)].cluster == cluster
        ] if action.endswith("Associations") and with_assoc else []  # fmt: skip
        cells = {
            "ID": str(ident),
            "Time": format_when(at),
            "Action": action,
            "ActionRaw": str(ACTION_RAW.get(action, "")),
            "Actor": actor,
            "Where": name,
            "Info": info,
            "Cluster": cluster,
            "User": ",".join(sorted({v.assoc.user for v in members if v.assoc.user})),
            "Account": ",".join(sorted({v.assoc.account for v in members})),
        }
        rows.append([cells.get(c.title, "") for c in cols])
    return _emit(run, cols, rows)


LISTERS: dict[str, Callable] = {
    "association": list_assoc,
    "account": list_account,
    "user": list_user,
    "cluster": list_cluster,
    "tres": list_tres,
    "transaction": list_transaction,  # its own words: show() hands them over first
}

EMPTY = {
    "event": (
        "Cluster,NodeName,Start,End,State,Reason,User",
        " fscli keeps no events (node and cluster state changes): nothing to list\n",
    ),
    "wckey": ("Name,Cluster,User", " fscli keeps no WCKeys: nothing to list\n"),
}


def show_empty(run: Run, entity: str) -> int:
    """Events and WCKeys: fscli keeps none, so the listing is empty, and says why."""
    fmt, why = EMPTY[entity]
    run.err(why)
    return _emit(run, columns(format_items([fmt])), [])
