"""sacctmgr's output fields: ``format=`` names, titles, widths, and their values.

``FIELDS`` is Slurm's ``_get_print_field`` table (src/sacctmgr/common.c) in its order:
a ``format=`` item names the first field it abbreviates, ``%N`` sets the width
(``%-N`` left-justifies), and the Account column is 20 wide, left-justified, in a
``tree`` listing. The getters turn one association view into each field's text.
"""

from __future__ import annotations

from collections.abc import Callable

from fscli.cli.sacctmgr.grammar import matches, split_list
from fscli.render.assoc_view import LIMIT_HEADERS
from fscli.render.sacctmgr import Column, limit_text

# (title, default width, ((format name, minimum letters), ...))
FIELDS: tuple[tuple[str, int, tuple[tuple[str, int], ...]], ...] = (
    (
        "Account",
        10,
        (
            ("Account", 3),
            ("Acct", 4),
        ),
    ),
    ("ActionRaw", 10, (("ActionRaw", 7),)),
    ("Action", 20, (("Action", 4),)),
    ("Actor", 10, (("Actor", 4),)),
    ("Admin", 9, (("AdminLevel", 2),)),
    ("% Allowed", 10, (("Allowed", 2),)),
    ("Assocs", 10, (("Associations", 2),)),
    ("TRES", 20, (("TRES", 2),)),
    ("Class", 9, (("Classification", 3),)),
    ("Cluster Nodes", 20, (("ClusterNodes", 8),)),
    ("Cluster", 10, (("Clusters", 2),)),
    ("Coord Accounts", 20, (("Coordinators", 2),)),
    ("ControlHost", 15, (("ControlHost", 8),)),
    ("ControlPort", 12, (("ControlPort", 8),)),
    ("Count", 6, (("Count", 3),)),
    ("# Allowed", 10, (("CountAllowed", 6),)),
    ("# Used", 10, (("CountUsed", 6),)),
    ("CPU Cnt", 7, (("CPUCount", 2),)),
    ("Def Acct", 10, (("DefaultAccount", 8),)),
    ("Def QOS", 9, (("DefaultQOS", 8),)),
    ("Def WCKey", 10, (("DefaultWCKey", 8),)),
    ("Descr", 20, (("Description", 3),)),
    ("Duration", 13, (("Duration", 2),)),
    ("EventRaw", 8, (("EventRaw", 6),)),
    ("Event", 7, (("Event", 2),)),
    ("Features", 20, (("Features", 3),)),
    ("Federation", 10, (("Federation", 3),)),
    ("FedState", 12, (("FedState", 4),)),
    ("FedStateRaw", 11, (("FedStateRaw", 9),)),
    ("Flags", 20, (("Flags", 2),)),
    ("GraceTime", 10, (("GraceTime", 3),)),
    ("GrpCPUs", 8, (("GrpCPUs", 6),)),
    ("GrpCPUMins", 11, (("GrpCPUMins", 7),)),
    ("GrpCPURunMins", 13, (("GrpCPURunMins", 7),)),
    ("GrpTRES", 13, (("GrpTRES", 7),)),
    ("GrpTRESMins", 13, (("GrpTRESMins", 7),)),
    ("GrpTRESRunMins", 13, (("GrpTRESRunMins", 7),)),
    ("GrpJobs", 7, (("GrpJobs", 4),)),
    ("GrpJobsAccrue", 13, (("GrpJobsAccrue", 8),)),
    ("GrpMem", 7, (("GrpMemory", 4),)),
    ("GrpNodes", 8, (("GrpNodes", 4),)),
    ("GrpSubmit", 9, (("GrpSubmitJobs", 4),)),
    ("GrpWall", 11, (("GrpWall", 4),)),
    ("ID", 6, (("ID", 2),)),
    ("Info", 20, (("Info", 2),)),
    ("LFT", 6, (("LFT", 1),)),
    ("ServerType", 10, (("servertype", 10),)),
    ("MaxCPUMins", 11, (("MaxCPUMinsPerJob", 7),)),
    (
        "MaxCPURunMinsPU",
        15,
        (
            ("MaxCPURunMinsPerUser", 7),
            ("MaxCPURunMinsPU", 7),
        ),
    ),
    ("MaxCPUs", 8, (("MaxCPUsPerJob", 7),)),
    (
        "MaxCPUsPU",
        9,
        (
            ("MaxCPUsPerUser", 11),
            ("MaxCPUsPU", 9),
        ),
    ),
    (
        "MaxTRES",
        13,
        (
            ("MaxTRES", 7),
            ("MaxTRESPerJob", 11),
        ),
    ),
    ("MaxTRESPerNode", 14, (("MaxTRESPerNode", 11),)),
    ("MaxTRESMins", 13, (("MaxTRESMinsPerJob", 8),)),
    (
        "MaxTRESRunMinsPA",
        15,
        (
            ("MaxTRESRunMinsPerAccount", 18),
            ("MaxTRESRunMinsPerAcct", 18),
            ("MaxTRESRunMinsPA", 15),
        ),
    ),
    (
        "MaxTRESRunMinsPU",
        15,
        (
            ("MaxTRESRunMinsPerUser", 8),
            ("MaxTRESRunMinsPU", 8),
        ),
    ),
    (
        "MaxTRESPA",
        13,
        (
            ("MaxTRESPerAccount", 11),
            ("MaxTRESPerAcct", 11),
            ("MaxTRESPA", 9),
        ),
    ),
    (
        "MaxTRESPU",
        13,
        (
            ("MaxTRESPerUser", 11),
            ("MaxTRESPU", 9),
        ),
    ),
    ("MaxJobs", 7, (("MaxJobs", 4),)),
    ("MaxJobsAccrue", 13, (("MaxJobsAccrue", 4),)),
    (
        "MaxJobsAccruePA",
        15,
        (
            ("MaxJobsAccruePerAccount", 17),
            ("MaxJobsAccruePerAcct", 17),
            ("MaxJobsAccruePA", 15),
        ),
    ),
    (
        "MaxJobsAccruePU",
        15,
        (
            ("MaxJobsAccruePerUser", 17),
            ("MaxJobsAccruePU", 15),
        ),
    ),
    (
        "MaxJobsPA",
        9,
        (
            ("MaxJobsPerAccount", 11),
            ("MaxJobsPerAcct", 11),
            ("MaxJobsPA", 9),
        ),
    ),
    (
        "MaxJobsPU",
        9,
        (
            ("MaxJobsPerUser", 11),
            ("MaxJobsPU", 9),
        ),
    ),
    ("MaxNodes", 8, (("MaxNodesPerJob", 4),)),
    (
        "MaxNodesPU",
        10,
        (
            ("MaxNodesPerUser", 12),
            ("MaxNodesPU", 10),
        ),
    ),
    ("MinPrioThres", 12, (("MinPrioThreshold", 4),)),
    ("MaxSubmit", 9, (("MaxSubmitJobs", 4),)),
    (
        "MaxSubmitPA",
        11,
        (
            ("MaxSubmitJobsPerAccount", 17),
            ("MaxSubmitJobsPerAcct", 17),
            ("MaxSubmitJobsPA", 15),
            ("MaxSubmitPA", 11),
        ),
    ),
    (
        "MaxSubmitPU",
        11,
        (
            ("MaxSubmitJobsPerUser", 10),
            ("MaxSubmitJobsPU", 10),
            ("MaxSubmitPU", 6),
        ),
    ),
    ("MaxWall", 11, (("MaxWallDurationPerJob", 4),)),
    ("MinCPUs", 8, (("MinCPUsPerJob", 7),)),
    ("MinTRES", 13, (("MinTRESPerJob", 7),)),
    ("Name", 10, (("Name", 2),)),
    ("NodeCount", 9, (("NodeCount", 5),)),
    ("NodeInx", 9, (("NodeInx", 5),)),
    ("NodeName", -15, (("NodeNames", 5),)),
    ("Org", 20, (("Organization", 1),)),
    ("ParentID", 8, (("ParentID", 7),)),
    ("ParentName", 10, (("ParentName", 7),)),
    ("Partition", 10, (("Partition", 4),)),
    ("PluginIDSelect", 14, (("PluginIDSelect", 2),)),
    ("PreemptMode", 11, (("PreemptMode", 8),)),
    ("Preempt", 10, (("Preempt", 7),)),
    ("PreemptExemptTime", 19, (("PreemptExemptTime", 8),)),
    ("Priority", 10, (("Priority", 3),)),
    ("Problem", 40, (("Problem", 1),)),
    ("QOS", 20, (("QOSLevel", 3),)),
    ("QOS_RAW", 10, (("QOSRAWLevel", 4),)),
    ("Reason", 30, (("Reason", 1),)),
    ("RGT", 6, (("RGT", 1),)),
    ("RPC", 5, (("RPC", 1),)),
    ("Server", 10, (("Server", 3),)),
    (
        "Share",
        9,
        (
            ("Share", 1),
            ("FairShare", 2),
        ),
    ),
    ("StateRaw", 8, (("StateRaw", 6),)),
    ("State", 6, (("State", 1),)),
    ("Time", 19, (("TimeStamp", 2),)),
    (
        "TimeEligible",
        19,
        (
            ("TimeEligible", 6),
            ("Eligible", 2),
        ),
    ),
    (
        "TimeEnd",
        19,
        (
            ("TimeEnd", 6),
            ("End", 2),
        ),
    ),
    (
        "TimeStart",
        19,
        (
            ("TimeStart", 7),
            ("Start", 3),
        ),
    ),
    (
        "TimeSubmit",
        19,
        (
            ("TimeSubmit", 6),
            ("Submit", 2),
        ),
    ),
    ("TRES", 20, (("TRES", 2),)),
    ("Type", 8, (("Type", 2),)),
    ("UnusedWall", 10, (("UnusedWall", 2),)),
    ("UsageFactor", 11, (("UsageFactor", 6),)),
    ("UsageThres", 10, (("UsageThreshold", 6),)),
    ("LimitFactor", 11, (("LimitFactor", 6),)),
    ("% Allocated", 11, (("Allocated", 7),)),
    ("User", 10, (("User", 1),)),
    ("WCKeys", 20, (("WCKeys", 2),)),
    ("Where", 20, (("Where", 2),)),
)


MAX_WIDTH = 10_000
"""The widest ``%N`` a ``format=`` item may ask for (as sshare's and sprio's): a wider
column would only pad with spaces, gigabytes of them."""


WHOLE = frozenset(
    (
        "ActionRaw", "% Allowed", "ControlPort", "Count", "# Allowed", "# Used", "Duration",
        "EventRaw", "FedStateRaw", "GraceTime", "GrpCPUs", "GrpCPUMins", "GrpCPURunMins",
        "GrpJobs", "GrpJobsAccrue", "GrpMem", "GrpNodes", "GrpSubmit", "GrpWall", "ID", "LFT",
        "MaxCPUMins", "MaxCPURunMinsPU", "MaxCPUs", "MaxCPUsPU", "MaxJobs", "MaxJobsAccrue",
        "MaxJobsAccruePA", "MaxJobsAccruePU", "MaxJobsPA", "MaxJobsPU", "MaxNodes",
        "MaxNodesPU", "MinPrioThres", "MaxSubmit", "MaxSubmitPA", "MaxSubmitPU", "MaxWall",
        "MinCPUs", "NodeCount", "ParentID", "PluginIDSelect", "PreemptExemptTime", "Priority",
        "RGT", "RPC", "Share", "StateRaw", "% Allocated",
    )
)  # fmt: skip
"""The fields sacctmgr prints with ``print_fields_uint*`` or ``print_fields_time*``
(``%*u``, ``%*s``): a value wider than its column is printed whole, not cut."""


class UnknownField(Exception):
    """A ``format=`` item no field answers to (sacctmgr: ``Unknown field 'X'``), or
    one whose width cannot be printed."""


def columns(items: list[str], tree: bool = False) -> list[Column]:
    """``format=`` items (already comma-split) → columns."""
    out = []
    for item in items:
        name, _, width = item.partition("%")
        for title, size, names in FIELDS:
            if matches(name, names):
                if title == "Account" and tree:
                    size = -20
                if _number(width) and abs(int(width)) > MAX_WIDTH:
                    raise UnknownField(
                        f"Invalid width '{width}' for field '{name}': at most {MAX_WIDTH}\n"
                    )
                chosen = int(width) if _number(width) else size
                out.append(Column(title, chosen, title not in WHOLE))
                break
        else:
            # format= items are lower-cased as sacctmgr's slurm_addto_char_list reads them
            raise UnknownField(f"Unknown field '{name.lower()}'\n")
    return out


def _number(text: str) -> bool:
    """A width ``%N`` sets: ASCII digits (``int`` refuses other scripts' digits, which
    ``isdigit`` takes), optionally after ``-``, not zero; else the field's own width."""
    digits = text[1:] if text.startswith("-") else text
    return digits.isascii() and digits.isdigit() and int(text) != 0


def format_items(values: list[str]) -> list[str]:
    """The ``format=`` items in order, each once: sacctmgr keeps a list of them (lower
    case) that skips an item it already holds (``user,User`` is one column)."""
    items: dict[str, str] = {}
    for value in values:
        for item in split_list(value):
            items.setdefault(item.lower(), item)
    return list(items.values())


# -- association values -------------------------------------------------------------
# Field title -> limit name: fscli's ``assoc list`` headers, which are sacctmgr's, plus the
# one title sacctmgr gives an association's MaxTRESRunMins.
LIMITS = {**LIMIT_HEADERS, "MaxTRESRunMinsPU": "MaxTRESRunMins"}
# Pre-TRES fields: one TRES of a TRES limit, as a plain number.
SINGLE = {
    "GrpCPUs": ("GrpTRES", "cpu"),
    "GrpMem": ("GrpTRES", "mem"),
    "GrpNodes": ("GrpTRES", "node"),
    "GrpCPUMins": ("GrpTRESMins", "cpu"),
    "GrpCPURunMins": ("GrpTRESRunMins", "cpu"),
    "MaxCPUs": ("MaxTRESPerJob", "cpu"),
    "MaxNodes": ("MaxTRESPerJob", "node"),
    "MaxCPUMins": ("MaxTRESMinsPerJob", "cpu"),
    "MaxCPURunMinsPU": ("MaxTRESRunMins", "cpu"),
}


def assoc_getter(title: str, tree: bool) -> Callable:
    """The text of field ``title`` for an association view (``sacctmgr_print_assoc_rec``);
    fields an association has no value for print empty."""
    if title == "Account":
        return (lambda v: " " * v.depth + v.account) if tree else (lambda v: v.account)
    if title in LIMITS:
        name = LIMITS[title]

        def limit(v) -> str:
            value = v.limits.get(name)  # most associations set few: no call for the rest
            return "" if value is None else limit_text(name, value)

        return limit
    if title in SINGLE:
        name, tres = SINGLE[title]
        return lambda v: str((v.limits.get(name) or {}).get(tres, ""))
    simple: dict[str, Callable] = {
        "Cluster": lambda v: v.cluster,
        "User": lambda v: v.user or "",
        "Partition": lambda v: v.assoc.partition or "",
        "ParentName": lambda v: v.parent_account,
        "ParentID": lambda v: str(v.assoc.parent_id or 0),
        "ID": lambda v: str(v.assoc.id),
        "LFT": lambda v: str(v.lft),
        "RGT": lambda v: str(v.rgt),
        "Share": lambda v: "parent" if v.assoc.shares_parent else str(v.assoc.shares),
        "Priority": lambda v: "" if v.priority is None else str(v.priority),
        "QOS": lambda v: ",".join(v.qos),
        "Def QOS": lambda v: v.default_qos or "",
    }
    return simple.get(title, lambda v: "")


# What sacctmgr prints of an association record it zeroed but never filled (a user or an
# account listed without ``withassoc``): counts and ids as 0, times as 00:00:00, TRES
# strings, names and the priority empty (seen on sacctmgr 22.05.8).
ZERO_COUNTS = {
    "Share",
    "GrpJobs",
    "GrpJobsAccrue",
    "GrpSubmit",
    "MaxJobs",
    "MaxJobsAccrue",
    "MaxSubmit",
    "ID",
    "LFT",
    "RGT",
    "ParentID",
    "MinPrioThres",
    *SINGLE,
}
ZERO_TIMES = {"GrpWall", "MaxWall"}


def zero_assoc_text(title: str) -> str:
    if title in ZERO_COUNTS:
        return "0"
    return "00:00:00" if title in ZERO_TIMES else ""
