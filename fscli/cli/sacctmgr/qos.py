"""``sacctmgr add|modify|delete|show qos``, read and answered as sacctmgr 22.05 does.

The words go through the tables of ``_set_rec`` and ``_set_cond`` (src/sacctmgr/
qos_functions.c) in Slurm's order and minimum lengths, so ``maxj=`` is MaxJobsPerUser and
``maxtresr=`` MaxTRESRunMinsPerUser on a QOS. sacctmgr is lenient where it is: a number it
cannot read (``gracetime=abc``) is one ``Invalid value`` line on stderr and the rest of the
command goes on; an unknown option, a bad QOS name, flag, preempt mode, time or TRES ends
it. ``add`` prints the Settings block of ``sacctmgr_print_qos_limits`` (each value as given,
``NONE`` for -1, flags and preempt modes in Slurm's order, TRES in TRES-id order); a
modify that would let a QOS preempt itself, directly or through others, is refused
(slurmdbd's ``_preemption_loop``); a QOS that is an association's default is not deleted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fscli.cli.sacctmgr.context import Run
from fscli.cli.sacctmgr.grammar import Names, Word, first, plain, sections, split_list
from fscli.cli.sacctmgr.values import get_uint, minutes, no_change, tres_amounts
from fscli.engine import tres as tresmod
from fscli.engine.limits import definitions as limitdefs
from fscli.engine.treespec import check_qos_number

if TYPE_CHECKING:
    from fscli.api.sacctmgr_writes import SacctmgrWrites

CLEAR = limitdefs.CLEAR
RANGE_FIELD = {
    "usagefactor": "usage_factor",
    "limitfactor": "limit_factor",
    "usagethreshold": "usage_threshold",
}
"""The QOS field whose range (``treespec.QOS_RANGES``) each number keyword is held to."""

# _set_rec's keys in Slurm's order. A limit is named by its registry name; "Limit:tres"
# is one TRES of a TRES limit (the pre-TRES keys GrpCPUs= and the like).
QOS_REC: tuple[tuple[str, Names], ...] = (
    ("name", (("Name", 1),)),
    ("description", (("Description", 1),)),
    ("flags", (("Flags", 2),)),
    ("gracetime", (("GraceTime", 3),)),
    ("GrpTRESMins:cpu", (("GrpCPUMins", 7),)),
    ("GrpTRESRunMins:cpu", (("GrpCPURunMins", 7),)),
    ("GrpTRES:cpu", (("GrpCPUs", 7),)),
    ("GrpJobs", (("GrpJobs", 4),)),
    ("GrpJobsAccrue", (("GrpJobsAccrue", 8),)),
    ("GrpTRES:mem", (("GrpMemory", 4),)),
    ("GrpTRES:node", (("GrpNodes", 4),)),
    ("GrpSubmitJobs", (("GrpSubmitJobs", 4),)),
    ("GrpTRES", (("GrpTRES", 7),)),
    ("GrpTRESMins", (("GrpTRESMins", 8),)),
    ("GrpTRESRunMins", (("GrpTRESRunMins", 8),)),
    ("GrpWall", (("GrpWall", 4),)),
    ("limitfactor", (("LimitFactor", 6),)),
    ("MaxTRESMinsPerJob:cpu", (("MaxCPUMinsPerJob", 7),)),
    ("MaxTRESPerJob:cpu", (("MaxCPUsPerJob", 7),)),
    ("MaxTRESPerUser:cpu", (("MaxCPUsPerUser", 11), ("MaxCPUsPU", 9))),
    ("MaxJobsAccruePerAccount", (("MaxJobsAccruePerAccount", 17), ("MaxJobsAccruePA", 15))),
    ("MaxJobsAccruePerUser", (("MaxJobsAccruePerUser", 17), ("MaxJobsAccruePU", 15))),
    ("MaxJobsPerAccount", (("MaxJobsPerAccount", 11), ("MaxJobsPA", 9))),
    ("MaxJobsPerUser", (("MaxJobsPerUser", 4), ("MaxJobsPU", 4))),
    ("MaxTRESPerJob:node", (("MaxNodesPerJob", 4),)),
    ("MaxTRESPerUser:node", (("MaxNodesPerUser", 8), ("MaxNodesPU", 8))),
    ("MaxSubmitJobsPerAccount", (("MaxSubmitJobsPerAccount", 17), ("MaxSubmitJobsPA", 15))),
    ("MaxSubmitJobsPerUser", (("MaxSubmitJobsPerUser", 4), ("MaxSubmitJobsPU", 4))),
    ("MaxTRESPerAccount", (("MaxTRESPerAccount", 11), ("MaxTRESPA", 9))),
    ("MaxTRESPerJob", (("MaxTRESPerJob", 7),)),
    ("MaxTRESPerNode", (("MaxTRESPerNode", 11),)),
    ("MaxTRESPerUser", (("MaxTRESPerUser", 11), ("MaxTRESPU", 9))),
    ("MaxTRESMinsPerJob", (("MaxTRESMinsPerJob", 8),)),
    ("MaxTRESRunMinsPerAccount", (("MaxTRESRunMinsPA", 16),)),
    ("MaxTRESRunMinsPerUser", (("MaxTRESRunMinsPU", 8),)),
    ("MaxWallDurationPerJob", (("MaxWallDurationPerJob", 4),)),
    ("MinTRESPerJob:cpu", (("MinCPUsPerJob", 7),)),
    ("minpriothresh", (("MinPrioThresh", 4),)),
    ("MinTRESPerJob", (("MinTRESPerJob", 7),)),
    ("preemptmode", (("PreemptMode", 8),)),
    ("preempt", (("Preempt", 7),)),
    ("preemptexempttime", (("PreemptExemptTime", 8),)),
    ("priority", (("Priority", 3),)),
    ("rawusage", (("RawUsage", 7),)),
    ("usagefactor", (("UsageFactor", 6),)),
    ("usagethreshold", (("UsageThreshold", 6),)),
)
# The name get_uint and get_uint64 give in "Invalid value for X (v)".
LABELS = {
    "gracetime": "GraceTime",
    "minpriothresh": "MinPrioThresh",
    "priority": "Priority",
    "rawusage": "RawUsage",
    "GrpTRESMins:cpu": "GrpCPUMins",
    "GrpTRESRunMins:cpu": "GrpCPURunMins",
    "GrpTRES:cpu": "GrpCPUs",
    "GrpTRES:mem": "GrpMemory",
    "GrpTRES:node": "GrpNodes",
    "MaxTRESMinsPerJob:cpu": "MaxCPUMins",
    "MaxTRESPerJob:cpu": "MaxCPUs",
    "MaxTRESPerUser:cpu": "MaxCPUsPerUser",
    "MaxTRESPerJob:node": "MaxNodesPerJob",
    "MaxTRESPerUser:node": "MaxNodesPerUser",
    "MinTRESPerJob:cpu": "MinCPUs",
    "MaxJobsAccruePerAccount": "MaxJobsAccruePA",
    "MaxJobsAccruePerUser": "MaxJobsAccruePU",
    "MaxJobsPerAccount": "MaxJobsPA",
    "MaxJobsPerUser": "MaxJobsPU",
    "MaxSubmitJobsPerAccount": "MaxSubmitJobsPA",
    "MaxSubmitJobsPerUser": "MaxSubmitJobsPU",
}
# _set_cond's keys (list, modify's where, delete), in Slurm's order.
QOS_COND: tuple[tuple[str, Names], ...] = (
    ("name", (("Names", 1), ("QOSLevel", 1))),
    ("description", (("Clusters", 1), ("Descriptions", 1))),  # sic: Clusters= is Slurm's
    ("format", (("Format", 1),)),
    ("id", (("Ids", 1),)),
    ("preemptmode", (("PreemptMode", 8),)),
)
CONDITION_HINT = " Use keyword 'set' to modify SLURM_PRINT_VALUE\n"

# QOS flags: matched as slurmdb's _str_2_qos_flags does (a case-insensitive substring,
# first match in this order), printed in slurmdb_qos_flags_str's order.
FLAG_MATCH = (
    "DenyOnLimit",
    "EnforceUsageThreshold",
    "PartitionMinNodes",
    "PartitionMaxNodes",
    "PartitionTimeLimit",
    "RequiresReservation",
    "OverPartQOS",
    "NoReserve",
    "NoDecay",
    "UsageFactorSafe",
)
FLAG_ORDER = (
    "DenyOnLimit",
    "EnforceUsageThreshold",
    "NoReserve",
    "PartitionMaxNodes",
    "PartitionMinNodes",
    "OverPartQOS",
    "PartitionTimeLimit",
    "RequiresReservation",
    "NoDecay",
    "UsageFactorSafe",
)

# preempt modes (slurm.h PREEMPT_MODE_*)
SUSPEND, REQUEUE, CANCEL, COND_OFF, WITHIN, GANG = 0x1, 0x2, 0x8, 0x10, 0x4000, 0x8000
BAD_MODE = -1
_DOUBLE = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def flags_text(flags) -> str:
    """Flag names in Slurm's order, joined."""
    return ",".join(f for f in FLAG_ORDER if f in flags)


def preempt_mode_num(text: str) -> int:
    """``preempt_mode_num``: the mode's bits, or BAD_MODE."""
    bits = 0
    modes = 0
    for tok in [t for t in text.split(",") if t]:
        low = tok.lower()
        if low == "gang":
            bits |= GANG
        elif low == "within":
            bits |= WITHIN
        elif low in ("off", "cluster"):
            modes += 1
        elif low == "cancel":
            bits += CANCEL
            modes += 1
        elif low == "requeue":
            bits += REQUEUE
            modes += 1
        elif low in ("on", "suspend"):
            bits += SUSPEND
            modes += 1
        else:
            return BAD_MODE
    if modes > 1 or (bits & GANG and bits & WITHIN):
        return BAD_MODE
    return bits


def preempt_mode_string(bits: int) -> str:
    """``preempt_mode_string`` (upper case; ``show qos`` lower-cases it)."""
    base = {CANCEL: "CANCEL", REQUEUE: "REQUEUE", SUSPEND: "SUSPEND"}
    if bits == 0:
        return "OFF"
    for bit, word in ((GANG, "GANG"), (WITHIN, "WITHIN")):
        if bits == bit:
            return word
        if bits & bit:
            return f"{word},{base.get(bits & ~bit, 'UNKNOWN')}"
    return base.get(bits, "UNKNOWN")


def mode_bits(text: str | None) -> int:
    """The bits of a stored preempt mode (``gang,requeue``; None is 0)."""
    bits = preempt_mode_num(text or "")
    return 0 if bits == BAD_MODE else bits


def get_double(name: str, text: str, out: Out) -> Any:
    """sacctmgr's ``get_double``: strtod's number, CLEAR if negative, None (after an
    error line, the command going on) if there is none."""
    meat = text.strip().strip("'\"").lower()
    try:
        number = float(meat)  # strtod's inf and nan too
    except ValueError:
        pass
    else:
        return CLEAR if number < 0 else number
    match = _DOUBLE.match(meat)
    number = float(match.group()) if match else 0.0
    if number == 0 and (meat[match.end() :] if match else meat):
        out.error(f"Invalid value for {name} ({meat})")
        return None
    return CLEAR if number < 0 else number


def seconds(text: str) -> Any:
    """``time_str2secs``: seconds, CLEAR for -1/INFINITE, None when malformed."""
    from fscli.engine.timestr import parse_duration_secs
    from fscli.errors import InvalidValue

    try:
        secs = parse_duration_secs(text.strip())
    except InvalidValue:
        return None
    return CLEAR if secs is None else secs


class Out:
    """What reading the words says, on which stream, and whether it ends the command
    (sacctmgr's ``exit_code``)."""

    def __init__(self) -> None:
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        self.failed = False

    def error(self, text: str) -> None:
        """Slurm's ``error()``: on stderr, the command goes on."""
        self.stderr.append(f"sacctmgr: error: {text}\n")

    def fail(self, text: str, stdout: bool = False) -> None:
        (self.stdout if stdout else self.stderr).append(text)
        self.failed = True

    def say(self, run: Run) -> None:
        run.out("".join(self.stdout))
        run.err("".join(self.stderr))


@dataclass
class Rec:
    """What ``_set_rec`` read: None where a value was not given, CLEAR for -1."""

    names: list[str] = field(default_factory=list)
    description: str | None = None
    flags: tuple[str, list[str], bool] | None = None  # (op, names, all cleared)
    grace_time: Any = None
    limits: dict[str, Any] = field(default_factory=dict)
    preempt: list[str] | None = None
    preempt_mode: int | None = None
    preempt_exempt: Any = None
    priority: Any = None
    raw_usage: Any = None
    usage_factor: Any = None
    usage_thres: Any = None
    limit_factor: Any = None
    min_prio: Any = None
    set: bool = False

    def broken_preempt(self) -> bool:
        """Plain names and ``+``/``-`` ones together (``preempt=a preempt+=b``): slurmdbd
        then writes SQL that fails (a quoted ``replace(...)``), so nothing is written."""
        items = self.preempt or []
        plain_names = any(i and i[0] not in "+-" for i in items)
        return plain_names and any(i[:1] in ("+", "-") for i in items)

    def changes(self):
        """The store's ``QosChanges`` for these values (as slurmdbd writes them)."""
        from fscli.engine.qos_changes import QosChanges

        changes = QosChanges()
        values = changes.values
        if self.description is not None:
            values["description"] = self.description
        if self.flags is not None:
            op, names, cleared = self.flags
            changes.flags = ("=", []) if cleared else ({"+": "+=", "-": "-="}.get(op, "="), names)
        if self.grace_time is not None:
            values["grace_time"] = None if self.grace_time is CLEAR else self.grace_time
        if self.priority is not None:
            values["priority"] = 0 if self.priority is CLEAR else self.priority
        if self.usage_factor is not None:
            values["usage_factor"] = 1.0 if self.usage_factor is CLEAR else self.usage_factor
        if self.usage_thres is not None:
            values["usage_threshold"] = None if self.usage_thres is CLEAR else self.usage_thres
        if self.limit_factor is CLEAR:
            values["limit_factor"] = None
        elif self.limit_factor:  # slurmdbd ignores 0
            values["limit_factor"] = self.limit_factor
        if self.preempt_mode is not None:
            values["preempt_mode"] = (
                preempt_mode_string(self.preempt_mode).lower() if self.preempt_mode else None
            )
        if self.preempt_exempt is not None:
            values["preempt_exempt_time"] = (
                None if self.preempt_exempt is CLEAR else self.preempt_exempt
            )
        if self.min_prio is not None:
            values["min_prio_thresh"] = None if self.min_prio is CLEAR else self.min_prio
        changes.limits = dict(self.limits)
        changes.preempt = self.preempt
        return changes


def read_rec(words: list[Word], known: list[str], out: Out, names: bool) -> Rec:
    """``_set_rec`` over the words (``names``: add's, where bare words and Name= name
    the QOS; modify's set ignores them)."""
    rec = Rec()
    option = ""  # sacctmgr's: set by a "+=" or "-=" word, kept by the "=" words after it
    for w in words:
        if w.op in ("+=", "-="):
            option = w.op[0]
        key = "name" if w.bare else first(w.key, QOS_REC)
        if key is None:
            out.fail(
                f" Unknown option: {w.raw}\n Use keyword 'where' to modify condition\n",
                stdout=True,
            )
        elif key == "name":
            if names:
                rec.names += [n.lower() for n in split_list(w.raw if w.bare else w.value)]
        else:
            _rec_word(key, w, rec, known, out, option)
    return rec


def _rec_word(key: str, w: Word, rec: Rec, known: list[str], out: Out, option: str) -> None:
    value = w.value
    if key == "description":
        if rec.description is None:
            rec.description = value.strip().strip("'\"").lower()
        rec.set = True
    elif key == "flags":
        _flags(w, rec, out, option)
    elif key == "preemptmode":
        bits = preempt_mode_num(value)
        if bits == BAD_MODE:
            out.fail(f" Bad Preempt Mode given: {w.raw}\n")
        else:
            rec.preempt_mode = bits
            rec.set = True
    elif key == "preempt":
        _preempt(w, rec, known, out, option)
    elif key == "preemptexempttime":
        secs = seconds(value)
        if secs is None:
            out.fail(f" Bad PreemptExemptTime format: {w.raw}\n")
        else:
            rec.preempt_exempt = secs
            rec.set = True
    elif key in ("usagefactor", "usagethreshold", "limitfactor"):
        label = {"usagefactor": "UsageFactor", "usagethreshold": "UsageThreshold"}
        number = get_double(label.get(key, "LimitFactor"), value, out)
        if number is not None and number is not CLEAR:
            # slurmdbd stores nothing for inf and garbage past ~1e13: fscli refuses what is
            # out of the field's range, for every front end (one line, nothing written)
            check_qos_number(RANGE_FIELD[key], number, value)
        if number is not None:
            attr = {"usagefactor": "usage_factor", "usagethreshold": "usage_thres"}
            setattr(rec, attr.get(key, "limit_factor"), number)
            rec.set = True
    elif key in ("gracetime", "priority", "rawusage", "minpriothresh"):
        number = _uint(LABELS[key], value, out)
        if number is not None:
            attr = {"gracetime": "grace_time", "rawusage": "raw_usage", "minpriothresh": "min_prio"}
            setattr(rec, attr.get(key, key), number)
            rec.set = True
    else:
        _limit(key, w, rec, out)


def _uint(label: str, value: str, out: Out) -> Any:
    """get_uint: errors are said and the command goes on (None)."""
    from fscli.cli.sacctmgr.values import Problems

    problems = Problems()
    number = get_uint(label, value, problems)
    for line in problems.lines:
        out.stderr.append(line + "\n")
    return number


def _limit(key: str, w: Word, rec: Rec, out: Out) -> None:
    from fscli.cli.sacctmgr.values import Problems

    name, _, single = key.partition(":")
    defn = limitdefs.named(name)
    if single:
        number = _uint(LABELS[key], w.value, out)
        if number is not None:
            amount = tresmod.CLEAR if number is CLEAR else number
            rec.limits[name] = {**rec.limits.get(name, {}), single: amount}
            rec.set = True
    elif defn.kind in ("tres", "tres_mins"):
        problems = Problems()
        amounts = tres_amounts(w.value, problems)
        out.stderr += [line + "\n" for line in problems.lines]
        if amounts is None:
            out.failed = True
        else:
            rec.limits[name] = {**rec.limits.get(name, {}), **amounts}
            rec.set = True
    elif defn.kind == "minutes":
        mins = minutes(w.value)
        if mins is None:
            label = "MaxWall" if name == "MaxWallDurationPerJob" else name
            out.fail(f" Bad {label} time format: {w.raw}\n")
        else:
            rec.limits[name] = mins
            rec.set = True
    else:
        number = _uint(LABELS.get(name, name), w.value, out)
        if number is not None:
            rec.limits[name] = number
            rec.set = True


def _flags(w: Word, rec: Rec, out: Out, op: str) -> None:
    """``str_2_qos_flags``: -1 clears every flag; a word naming no flag is refused.
    ``op`` is the last ``+``/``-`` of the command's words (``flags+=A flags=B`` adds B)."""
    value = w.value
    if _atoi(value) == -1:
        rec.flags = (op, [], True)
        rec.set = True
        return
    found = []
    for token in [t for t in value.split(",") if t]:
        hit = next((f for f in FLAG_MATCH if f.lower() in token.lower()), None)
        if hit and hit not in found:
            found.append(hit)
    if not found:
        out.fail(
            f" Unknown QOS flag used in:\n  '{value}'\n Valid QOS flags are\n"
            f"  '{','.join(FLAG_ORDER)}'\n",
            stdout=True,
        )
        return
    rec.flags = (op, found, False)
    rec.set = True


def _atoi(text: str) -> int:
    match = re.match(r"\s*([+-]?\d+)", text)
    return int(match.group(1)) if match else 0


def _preempt(w: Word, rec: Rec, known: list[str], out: Out, option: str) -> None:
    """``slurmdb_addto_qos_char_list``: names (``+``/``-`` from ``option``, the command's
    last ``+=``/``-=``, or their own), all known, not mixing ``=`` with ``+``/``-``, at
    least one not given before; "" empties the list."""
    items = rec.preempt if rec.preempt is not None else []
    value = w.value
    if value == "":
        if "" not in items:
            items.append("")
        rec.preempt = items
        rec.set = True
        return
    equal = add = False
    count = 0
    for name in split_list(value):
        mark = option
        if name[:1] in ("+", "-"):
            mark, name = name[0], name[1:]
        name = name.lower()
        if name not in known:
            valid = ",".join(known) or "(null)"  # printf's text for a NULL list
            out.error(f"You gave a bad qos '{name}'. Valid QOS's are {valid}")
            out.failed = True
            return
        if (mark and equal) or (not mark and add):
            out.error(
                "You can't set qos equal to something and then add or subtract from it "
                "in the same line"
            )
            out.failed = True
            return
        equal, add = equal or not mark, add or bool(mark)
        item = mark + name
        if item not in items:
            items.append(item)
            count += 1
    if count == 0:  # nothing new: "preempt+=a preempt+=a", "preempt=,"
        out.error("You gave me an empty qos list")
        out.failed = True
        return
    rec.preempt = items
    rec.set = True


# -- the Settings block of add (sacctmgr_print_qos_limits) --------------------------------
def _tres_setting(amounts: dict[str, Any]) -> str:
    from fscli.engine.tres import tres_order
    from fscli.render.sacctmgr import mem_text

    parts = []
    for name in tres_order(amounts):
        value = amounts[name]
        if value == tresmod.CLEAR:
            parts.append(f"{name}=NONE")
        elif tresmod.is_mb_based(name):
            parts.append(f"{name}={mem_text(value)}")
        else:
            parts.append(f"{name}={value}")
    return ",".join(parts)


# (limit, label, text for -1) in the block's order
_COUNT_LINES = (
    ("GrpJobs", "  GrpJobs                  = ", "NONE"),
    ("GrpJobsAccrue", "  GrpJobsAccrue            = ", "None"),
    ("GrpSubmitJobs", "  GrpSubmitJobs            = ", "NONE"),
)
_TRES_LINES = (
    ("GrpTRES", "  GrpTRES                  = "),
    ("GrpTRESMins", "  GrpTRESMins              = "),
    ("GrpTRESRunMins", "  GrpTRESRunMins           = "),
)
_MAX_LINES = (
    ("MaxJobsAccruePerAccount", "  MaxJobsAccruePerAccount  = "),
    ("MaxJobsAccruePerUser", "  MaxJobsAccruePerUser     = "),
    ("MaxJobsPerAccount", "  MaxJobsPerAccount        = "),
    ("MaxJobsPerUser", "  MaxJobsPerUser = "),
    ("MaxSubmitJobsPerAccount", "  MaxSubmitJobsPerAccount  = "),
    ("MaxSubmitJobsPerUser", "  MaxSubmitJobsPerUser     = "),
    ("MaxTRESPerAccount", "  MaxTRESPerAccount        = "),
    ("MaxTRESPerJob", "  MaxTRESPerJob            = "),
    ("MaxTRESPerNode", "  MaxTRESPerNode           = "),
    ("MaxTRESPerUser", "  MaxTRESPerUser           = "),
)
_LATE_TRES = (
    ("MinTRESPerJob", "  MinTRESPerJob            = "),
    ("MaxTRESMinsPerJob", "  MaxTRESMins              = "),
    ("MaxTRESRunMinsPerAccount", "  MaxTRESRUNMinsPerAccount = "),
    ("MaxTRESRunMinsPerUser", "  MaxTRESRUNMinsPerUser    = "),
)


def _limit_line(rec: Rec, name: str, label: str, none: str = "NONE") -> str:
    if name not in rec.limits:
        return ""
    value = rec.limits[name]
    if isinstance(value, dict):
        return f"{label}{_tres_setting(value)}\n"
    if value is CLEAR:
        return f"{label}{none}\n"
    if limitdefs.named(name).kind == "minutes":
        from fscli.engine.timestr import format_mins

        return f"{label}{format_mins(value)}\n"
    return f"{label}{value}\n"


def _number_line(label: str, value: Any, fmt: str = "{}") -> str:
    if value is None:
        return ""
    return f"{label}{'NONE' if value is CLEAR else fmt.format(value)}\n"


def settings_text(rec: Rec) -> str:
    from fscli.engine.timestr import format_secs

    text = ""
    if rec.flags is not None:
        op, names, cleared = rec.flags
        if cleared:
            shown = "Remove," + ",".join(FLAG_ORDER)
        else:
            shown = {"+": "Add,", "-": "Remove,"}.get(op, "") + flags_text(names)
        text += f"  Flags                    = {shown}\n"
    text += _number_line("  GraceTime                = ", rec.grace_time)
    for name, label, none in _COUNT_LINES:
        text += _limit_line(rec, name, label, none)
    for name, label in _TRES_LINES:
        text += _limit_line(rec, name, label)
    text += _limit_line(rec, "GrpWall", "  GrpWall                  = ")
    for name, label in _MAX_LINES:
        text += _limit_line(rec, name, label)
    text += _number_line("  MinPrioThresh            = ", rec.min_prio)
    for name, label in _LATE_TRES:
        text += _limit_line(rec, name, label)
    text += _limit_line(rec, "MaxWallDurationPerJob", "  MaxWall                  = ")
    if rec.preempt is not None:
        text += f"  Preempt                  = {','.join(sorted(rec.preempt))}\n"
    if rec.preempt_mode:
        text += f"  PreemptMode              = {preempt_mode_string(rec.preempt_mode)}\n"
    if rec.preempt_exempt is not None:
        shown = "NONE" if rec.preempt_exempt is CLEAR else format_secs(rec.preempt_exempt)
        text += f"  PreemptExemptTime        = {shown}\n"
    text += _number_line("  Priority                 = ", rec.priority)
    text += _number_line("  UsageFactor              = ", rec.usage_factor, "{:.4f}")
    text += _number_line("  UsageThreshold           = ", rec.usage_thres, "{:.4f}")
    text += _number_line("  LimitFactor              = ", rec.limit_factor, "{:.4f}")
    return text


# -- add ------------------------------------------------------------------------------
def add_qos(run: Run, words: list[str]) -> int:
    def body(tx: SacctmgrWrites) -> None:
        from fscli.errors import InvalidValue

        out = Out()
        rec = read_rec(plain(words), tx.qos_list(), out, names=True)
        out.say(run)
        if out.failed:
            raise run.refuse("")
        if not rec.names:
            raise run.refuse(" Need name of qos to add.\n")
        try:
            plan = tx.plan_add_qos(rec.names, rec.description, rec.changes())
        except InvalidValue as exc:
            raise run.refuse(f" {exc.message}\n") from None
        if not plan.new:
            run.out(" Nothing new added.\n")
            raise run.refuse("")
        desc = rec.description if rec.description is not None else plan.new[-1]
        run.out(
            " Adding QOS(s)\n"
            + "".join(f"  {n}\n" for n in plan.new)
            + " Settings\n"
            + f"  Description    = {desc}\n"
            + settings_text(rec)
        )
        if rec.broken_preempt():  # slurmdbd's INSERT fails, unreported: nothing added
            return
        tx.commit(plan)

    return run.write(body)


# -- conditions -----------------------------------------------------------------------
@dataclass
class Cond:
    names: list[str] = field(default_factory=list)
    descriptions: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    mode: int = 0
    given: bool = False
    flags: set[str] = field(default_factory=set)
    format: list[str] = field(default_factory=list)

    def picks(self, qos, ident: int) -> bool:
        if self.names and qos.name not in self.names:
            return False
        if self.descriptions and (qos.description or "").lower() not in self.descriptions:
            return False
        if self.ids and str(ident) not in self.ids:
            return False
        if self.mode:
            bits = mode_bits(qos.preempt_mode)
            if not (bits & self.mode or (self.mode & COND_OFF and bits == 0)):
                return False
        return True


def read_cond(words: list[Word], out: Out) -> Cond:
    """``_set_cond``: unknown words end the command (after the rest are read)."""
    from fscli.cli.sacctmgr.grammar import LIST_FLAGS

    cond = Cond()
    for w in words:
        if w.bare and first(w.raw, LIST_FLAGS):
            cond.flags.add(first(w.raw, LIST_FLAGS) or "")
            continue
        key = "name" if w.bare else first(w.key, QOS_COND)
        if key is None:
            out.fail(f" Unknown condition: {w.raw}\n{CONDITION_HINT}")
            continue
        values = [v.lower() for v in split_list(w.raw if w.bare else w.value)]
        if key == "format":
            cond.format += split_list(w.value)
        elif key == "preemptmode":
            mode = 0
            for tok in split_list(w.value):
                bits = preempt_mode_num(tok)
                if bits == BAD_MODE:
                    out.error(f"Unknown preempt_mode given '{tok}'")
                    mode = BAD_MODE
                    break
                mode |= bits or COND_OFF
            if mode == BAD_MODE or not split_list(w.value):
                out.fail(f" Bad Preempt Mode given: {w.raw}\n")
            else:
                cond.mode |= mode
                cond.given = True
        elif key == "id":
            for v in values:
                number, rest = _strtol(v)
                if number == 0 and rest:
                    out.error(f"Invalid value for QOS ID ({v})")
                    out.failed = True
                else:
                    cond.ids.append(str(number))
            cond.given = cond.given or bool(values)
        elif values:
            getattr(cond, "names" if key == "name" else "descriptions").extend(values)
            cond.given = True
    return cond


def _strtol(text: str) -> tuple[int, str]:
    from fscli.cli.sacctmgr.values import strtol

    return strtol(text)


def matched(rows: list, cond: Cond) -> list:
    """The QOS (and ids) the conditions pick, in the order slurmdbd's unordered SELECT
    returns them. MariaDB reads a small table whole (id order) but looks two or three
    names up in the name index (name order) when the table has more rows than that;
    an approximation of its cost model, measured on 2 to 10 QOS."""
    picked = [(q, ident) for q, ident in rows if cond.picks(q, ident)]
    wanted = set(cond.names)
    if 2 <= len(wanted) <= 3 and len(wanted) < len(rows):
        picked.sort(key=lambda pair: pair[0].name)
    return picked


# -- modify ---------------------------------------------------------------------------
def modify_qos(run: Run, words: list[str]) -> int:
    def body(tx: SacctmgrWrites) -> None:
        known = tx.qos_list()
        cond_words, rec_words = sections(words)
        out = Out()
        cond = read_cond(cond_words, out)
        rec = read_rec(rec_words, known, out, names=False)
        out.say(run)
        if out.failed:
            raise run.refuse("")
        if not rec.set:
            raise run.refuse(" You didn't give me anything to set\n")
        if not cond.given and not run.confirm(
            "You didn't set any conditions with 'WHERE'.\nAre you sure you want to continue?"
        ):
            run.out("Aborted\n")
            raise run.refuse("", 0)
        if rec.raw_usage is not None:
            if rec.raw_usage == 0:
                raise run.refuse(
                    " fscli sacctmgr cannot reset a QOS's RawUsage (fscli keeps no QOS usage)\n"
                )
            raise run.refuse("sacctmgr: error: Raw usage can only be set to 0 (zero)\n")
        changes = rec.changes()
        if changes.empty():  # LimitFactor=0 alone: slurmdbd has nothing to write
            run.out(" Nothing modified\n")
            raise run.refuse(no_change("qos"))
        rows = tx.qos_rows()
        picked = [q for q, _ in matched(rows, cond)]
        added = [i.lstrip("+") for i in rec.preempt or [] if i and i[0] != "-"]
        plan = tx.plan_modify_qos([q.name for q in picked], changes, added)
        if plan.loops:
            # checked QOS by QOS before slurmdbd runs its (maybe broken) SQL
            raise run.refuse(
                "sacctmgr: error: QOS Preemption loop detected\n"
                " Error with request: QOS Preemption loop detected\n"
            )
        if rec.broken_preempt():
            run.out(" Nothing modified\n")
            raise run.refuse(
                "sacctmgr: accounting_storage/slurmdbd: acct_storage_p_modify_qos: No error\n"
            )
        if not picked:
            run.out(" Nothing modified\n")
            raise run.refuse("")
        run.out(" Modified qos...\n" + "".join(f"  {q.name}\n" for q in picked))
        tx.commit(plan)

    return run.write(body)


# -- delete ---------------------------------------------------------------------------
def delete_qos(run: Run, words: list[str]) -> int:
    def body(tx: SacctmgrWrites) -> None:
        out = Out()
        cond = read_cond(plain(words), out)
        out.say(run)
        if not cond.given:
            raise run.refuse(" No conditions given to remove, not executing.\n")
        picked = [q.name for q, _ in matched(tx.qos_rows(), cond)]
        if not picked:
            run.out(" Nothing deleted\n")
            raise run.refuse("")
        plan = tx.plan_delete_qos(picked)
        if plan.refused:
            lines = []
            for v in plan.refused:
                line = (
                    f"  DefQOS = {v.assoc.default_qos:<10} C = {v.cluster:<10} A = {v.account:<20}"
                )
                if v.user and v.assoc.partition:
                    line += f" U = {v.user:<9} P = {v.assoc.partition}"
                elif v.user:
                    line += f" U = {v.user:<9}"
                lines.append(line + "\n")
            raise run.refuse(
                " Associations listed below have these as their Default QOS.\n"
                + "".join(lines)
                + " Please either remove the qos' listed above from list and resubmit,\n"
                " or change the default qos to remove the qos.\n"
                " Changes Discarded\n"
            )
        tx.commit(plan)
        run.out(" Deleting QOS(s)...\n" + "".join(f"  {n}\n" for n in picked))

    return run.write(body)


# -- show -----------------------------------------------------------------------------
# Field title -> the QOS limit it shows; SINGLE: one TRES of a TRES limit, as a number.
LIMIT_FIELDS = {
    "GrpTRES": "GrpTRES",
    "GrpTRESMins": "GrpTRESMins",
    "GrpTRESRunMins": "GrpTRESRunMins",
    "GrpJobs": "GrpJobs",
    "GrpJobsAccrue": "GrpJobsAccrue",
    "GrpSubmit": "GrpSubmitJobs",
    "GrpWall": "GrpWall",
    "MaxTRES": "MaxTRESPerJob",
    "MaxTRESPerNode": "MaxTRESPerNode",
    "MaxTRESMins": "MaxTRESMinsPerJob",
    "MaxTRESRunMinsPA": "MaxTRESRunMinsPerAccount",
    "MaxTRESRunMinsPU": "MaxTRESRunMinsPerUser",
    "MaxTRESPA": "MaxTRESPerAccount",
    "MaxTRESPU": "MaxTRESPerUser",
    "MaxJobs": "MaxJobsPerUser",
    "MaxJobsPU": "MaxJobsPerUser",
    "MaxJobsPA": "MaxJobsPerAccount",
    "MaxJobsAccruePA": "MaxJobsAccruePerAccount",
    "MaxJobsAccruePU": "MaxJobsAccruePerUser",
    "MaxSubmit": "MaxSubmitJobsPerUser",
    "MaxSubmitPU": "MaxSubmitJobsPerUser",
    "MaxSubmitPA": "MaxSubmitJobsPerAccount",
    "MaxWall": "MaxWallDurationPerJob",
    "MinTRES": "MinTRESPerJob",
}
SINGLE_FIELDS = {
    "GrpCPUs": ("GrpTRES", "cpu"),
    "GrpMem": ("GrpTRES", "mem"),
    "GrpNodes": ("GrpTRES", "node"),
    "GrpCPUMins": ("GrpTRESMins", "cpu"),
    "GrpCPURunMins": ("GrpTRESRunMins", "cpu"),
    "MaxCPUMins": ("MaxTRESMinsPerJob", "cpu"),
    "MaxCPURunMinsPU": ("MaxTRESRunMinsPerUser", "cpu"),
    "MaxCPUs": ("MaxTRESPerJob", "cpu"),
    "MaxCPUsPU": ("MaxTRESPerUser", "cpu"),
    "MaxNodes": ("MaxTRESPerJob", "node"),
    "MaxNodesPU": ("MaxTRESPerUser", "node"),
    "MinCPUs": ("MinTRESPerJob", "cpu"),
}


def cell(title: str, qos, ident: int) -> str:
    """One field of ``sacctmgr list qos`` for a QOS; fields a QOS has none of are empty."""
    from fscli.engine.timestr import format_secs
    from fscli.render.sacctmgr import limit_text

    if title in LIMIT_FIELDS:
        name = LIMIT_FIELDS[title]
        return limit_text(name, qos.limits.get(name))
    if title in SINGLE_FIELDS:
        name, tres = SINGLE_FIELDS[title]
        return str((qos.limits.get(name) or {}).get(tres, ""))
    if title == "Name":
        return qos.name
    if title == "Descr":
        return qos.description or ""
    if title == "ID":
        return str(ident)
    if title == "Priority":
        return str(qos.priority)
    if title == "GraceTime":
        return format_secs(qos.grace_time or 0)
    if title == "Preempt":
        return ",".join(sorted(qos.preempt))
    if title == "PreemptMode":
        return qos.preempt_mode or "cluster"
    if title == "PreemptExemptTime":
        exempt = qos.preempt_exempt_time
        return "" if exempt is None else format_secs(exempt)
    if title == "Flags":
        return flags_text(qos.flags)
    if title == "UsageThres":
        return "" if qos.usage_threshold is None else f"{qos.usage_threshold:f}"
    if title == "UsageFactor":
        return f"{qos.usage_factor:f}"
    if title == "LimitFactor":
        return "" if qos.limit_factor is None else f"{qos.limit_factor:f}"
    if title == "MinPrioThres":
        return "" if qos.min_prio_thresh is None else str(qos.min_prio_thresh)
    return ""


QOS_DEFAULT = (
    "Name,Prio,GraceT,Preempt,PreemptE,PreemptM,Flags%40,UsageThres,UsageFactor,"
    "GrpTRES,GrpTRESMins,GrpTRESRunMins,GrpJ,GrpS,GrpW,MaxTRES,MaxTRESPerN,"
    "MaxTRESMins,MaxW,MaxTRESPerUser,MaxJobsPerUser,MaxSubmitJobsPerUser,"
    "MaxTRESPerAcct,MaxJobsPerAcct,MaxSubmitJobsPerAcct,MinTRES"
)


def list_qos(run: Run, words: list[str]) -> int:
    """``sacctmgr list qos [conditions] [format=...]``."""
    from fscli.cli.sacctmgr.columns import UnknownField, columns, format_items
    from fscli.render.sacctmgr import table

    out = Out()
    cond = read_cond(plain(words), out)
    out.say(run)
    if out.failed:
        return 1
    try:
        cols = columns(format_items(cond.format or [QOS_DEFAULT]))
    except UnknownField as exc:
        run.err(str(exc))
        return 1
    with run.app.reading() as conn:
        from fscli.api.sacctmgr_writes import qos_rows

        every = qos_rows(conn)
        rows = [[cell(c.title, q, ident) for c in cols] for q, ident in matched(every, cond)]
    run.out(table(cols, rows, run.opts.parsable, not run.opts.noheader))
    return 0
