"""The words ``fscli sacctmgr`` takes, read from its own tables, for shell completion.

:class:`fscli.cli.complete.SacctmgrCompleter` completes from this table, and the fast
path's generated grammar holds a copy of it (``python -m fscli.cli.fast.generate``).
"""

from __future__ import annotations

_PLURALS = {
    "Accounts",
    "Associations",
    "Clusters",
    "Coordinators",
    "Descriptions",
    "Ids",
    "Names",
    "Organizations",
    "Parents",
    "Partitions",
    "QOSs",
    "Users",
}


def sacctmgr_table() -> dict:
    """The words ``fscli sacctmgr`` takes, from its own tables: per entity, its keys as
    ``[shown name, canonical key, [[alias, shortest abbreviation], ...]]`` (what sacctmgr
    reads as each key), and the bare words of each verb."""
    from fscli.cli.sacctmgr import add, modify, qos, show
    from fscli.cli.sacctmgr import grammar as g
    from fscli.engine.limits import definitions as limitdefs

    qos_limits = tuple(
        (d.name, tuple((a, len(a)) for a in (d.name, *d.aliases)))
        for d in limitdefs.LIMITS
        if "qos" in d.scopes
    )
    sources = {
        "account": (
            add.ACCOUNT_KEYS,
            modify.ACCOUNT_COND,
            modify.ACCOUNT_REC,
            g.ASSOC_COND,
            g.ASSOC_REC,
        ),
        "user": (add.USER_KEYS, modify.USER_COND, modify.USER_REC, g.ASSOC_COND, g.ASSOC_REC),
        "association": (g.ASSOC_COND,),
        "qos": (qos.QOS_REC, qos.QOS_COND, qos_limits),
        "cluster": (show.OWN_KEYS["cluster"], g.ASSOC_REC),
        "coordinator": (add.COORD_KEYS,),
        "tres": (show.OWN_KEYS["tres"],),
        "transaction": (),
        "event": (),
        "wckey": (),
    }
    keys: dict[str, list] = {}
    for entity, tables in sources.items():
        seen: dict[str, list] = {}
        for table in (*tables, show.FORMAT):
            for canon, aliases in table:
                shown = aliases[0][0]
                if shown in _PLURALS and len(shown) - 1 >= aliases[0][1]:
                    shown = shown[:-1]
                shown = {"QosLevel": "QOS"}.get(shown, shown)
                if shown.lower() not in seen:
                    canon = canon.partition(":")[0]  # GrpCPUMins: GrpTRESMins' cpu
                    seen[shown.lower()] = [shown, canon, [[a.lower(), n] for a, n in aliases]]
        keys[entity] = [seen[k] for k in sorted(seen)]
    flags = [names[0][0].lower() for _, names in g.LIST_FLAGS]
    return {
        "keys": keys,
        "bare": {"add": [], "list": ["where", *flags], "modify": ["where", "set"], "delete": []},
    }
