"""Columns of ``fscli assoc list`` (sacctmgr show assoc) and the tree drawing.

Each column is computed from one association (engine ``Assoc``) plus its context; names,
defaults and header spellings follow ``sacctmgr show assoc``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fscli.engine import qoslist
from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import Assoc
from fscli.errors import UsageProblem, did_you_mean

DEFAULT_COLUMNS = (
    "Cluster",
    "Account",
    "User",
    "Partition",
    "Share",
    "Priority",
    "GrpJobs",
    "GrpTRES",
    "GrpSubmit",
    "GrpWall",
    "GrpTRESMins",
    "MaxJobs",
    "MaxTRES",
    "MaxTRESPerNode",
    "MaxSubmit",
    "MaxWall",
    "MaxTRESMins",
    "QOS",
    "Def QOS",
    "GrpTRESRunMins",
)

# header -> limit name for limit columns, using sacctmgr's short headers
LIMIT_HEADERS = {
    "GrpJobs": "GrpJobs",
    "GrpJobsAccrue": "GrpJobsAccrue",
    "GrpSubmit": "GrpSubmitJobs",
    "GrpTRES": "GrpTRES",
    "GrpTRESMins": "GrpTRESMins",
    "GrpTRESRunMins": "GrpTRESRunMins",
    "GrpWall": "GrpWall",
    "MaxJobs": "MaxJobs",
    "MaxJobsAccrue": "MaxJobsAccrue",
    "MaxSubmit": "MaxSubmitJobs",
    "MaxTRES": "MaxTRESPerJob",
    "MaxTRESMins": "MaxTRESMinsPerJob",
    "MaxTRESPerNode": "MaxTRESPerNode",
    "MaxTRESRunMins": "MaxTRESRunMins",
    "MaxWall": "MaxWallDurationPerJob",
    "MinPrioThres": "MinPrioThreshold",
}


def share_text(assoc: Assoc) -> str:
    return "parent" if assoc.shares_parent else str(assoc.shares)


class Context:
    def __init__(
        self,
        cluster: str,
        assocs: list[Assoc],
        accounts: dict[str, tuple[str, str]],
        every_qos: Sequence[str] = (),
    ):
        self.cluster = cluster
        self.by_id = {a.id: a for a in assocs}
        self.accounts = accounts
        self.qos = qoslist.effective_all(assocs, every_qos)

    def qos_text(self, assoc: Assoc) -> str:
        """The QOS list in force (own, inherited, or a delta on the inherited one), as
        ``sacctmgr show assoc`` prints it; empty where no list is set up the tree."""
        return ",".join(self.qos[assoc.id] or ())


def _definition(limit: str) -> limitdefs.LimitDef:
    """The definition of a limit this module names (none: a mistake in this module)."""
    defn = limitdefs.lookup(limit)
    if defn is None:
        raise KeyError(limit)
    return defn


def _limit_getter(limit: str) -> Callable[[Assoc, Context], Any]:
    defn = _definition(limit)

    def get(assoc: Assoc, ctx: Context) -> Any:
        return limitdefs.format_limit(defn, assoc.limits.get(defn.name))  # "" when unset

    return get


def _parent_name(assoc: Assoc, ctx: Context) -> str:
    if assoc.user is not None or assoc.parent_id is None:
        return ""
    return ctx.by_id[assoc.parent_id].account


COLUMNS: dict[str, Callable[[Assoc, Context], Any]] = {
    "Cluster": lambda a, c: c.cluster,
    "Account": lambda a, c: a.account,
    "User": lambda a, c: a.user or "",
    "Partition": lambda a, c: a.partition or "",
    "ParentName": _parent_name,
    "ParentID": lambda a, c: a.parent_id if a.parent_id is not None else 0,
    "ID": lambda a, c: a.id,
    "Share": lambda a, c: share_text(a),
    "Priority": lambda a, c: "" if a.priority is None else a.priority,
    "QOS": lambda a, c: c.qos_text(a),
    "Def QOS": lambda a, c: a.default_qos or "",
    "Descr": lambda a, c: c.accounts.get(a.account, ("", ""))[0],
    "Org": lambda a, c: c.accounts.get(a.account, ("", ""))[1],
}
COLUMNS.update({header: _limit_getter(limit) for header, limit in LIMIT_HEADERS.items()})


def _json_limit(limit: str) -> Callable[[Assoc, Context], Any]:
    """A limit as JSON: counts and minutes as numbers, TRES limits as ``{tres: count}``
    (memory in MB, TRES-minutes in minutes); null when unset."""
    defn = _definition(limit)

    def get(assoc: Assoc, ctx: Context) -> Any:
        value = assoc.limits.get(defn.name)
        return dict(value) if isinstance(value, dict) else value

    return get


JSON_COLUMNS: dict[str, Callable[[Assoc, Context], Any]] = {
    **COLUMNS,
    "Share": lambda a, c: "parent" if a.shares_parent else a.shares,
    "Priority": lambda a, c: a.priority,
    **{header: _json_limit(limit) for header, limit in LIMIT_HEADERS.items()},
}
"""The columns as ``--json`` gives them: numbers stay numbers (docs/json.md)."""

JSON_EXTRAS: dict[str, Callable[[Assoc, Context], Any]] = {
    "QOSInherited": lambda a, c: not a.qos or qoslist.is_delta(a.qos),
    "QOSRaw": lambda a, c: ",".join(a.qos),
}
"""With the QOS column, --json also says whether a row's list is inherited (from its
parent, or a ``+``/``-`` delta on the parent's) and what the row itself stores."""
ALIASES = {
    "defaultqos": "Def QOS",
    "defqos": "Def QOS",
    "fairshare": "Share",
    "shares": "Share",
    "parent": "ParentName",
    "description": "Descr",
    "organization": "Org",
}
for _header, _limit in LIMIT_HEADERS.items():
    for _alias in (_limit, *_definition(_limit).aliases):
        ALIASES.setdefault(_alias.lower(), _header)


def resolve_columns(text: str | None) -> list[str]:
    """``format=`` value → column headers (case-insensitive, sacctmgr aliases)."""
    if not text:
        return list(DEFAULT_COLUMNS)
    lookup = {c.lower(): c for c in COLUMNS}
    out = []
    for name in [n.strip() for n in text.split(",") if n.strip()]:
        found = lookup.get(name.lower()) or ALIASES.get(name.lower())
        if found is None:
            raise UsageProblem(
                f"unknown column '{name}' in format={did_you_mean(name, COLUMNS)}; "
                f"known: {', '.join(COLUMNS)}"
            )
        out.append(found)
    return out


def tree_prefixes(ordered: list[tuple[Assoc, int]]) -> list[str]:
    """Box-drawing guides (``├─``, ``└─``, ``│``) for rows in display order."""
    last_child: dict[int, bool] = {}
    by_parent: dict[int | None, list[int]] = {}
    for assoc, _ in ordered:
        by_parent.setdefault(assoc.parent_id, []).append(assoc.id)
    for ids in by_parent.values():
        for i in ids:
            last_child[i] = False
        last_child[ids[-1]] = True
    prefixes: list[str] = []
    open_levels: list[bool] = []
    for assoc, depth in ordered:
        open_levels = open_levels[:depth]
        if depth == 0:
            prefixes.append("")
        else:
            guide = "".join("   " if closed else "│  " for closed in open_levels[1:])
            prefixes.append(guide + ("└─ " if last_child[assoc.id] else "├─ "))
        open_levels.append(last_child[assoc.id])
    return prefixes
