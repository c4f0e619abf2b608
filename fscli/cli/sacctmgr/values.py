"""Association settings read as sacctmgr reads them, into fscli's ``AssocChanges``.

sacctmgr is lenient in its own ways and scripts rely on them: a number is C's
``strtol`` (``5x`` is 5, ``abc`` is an error, a negative value clears), a TRES amount
is ``strtoull`` plus one unit letter (``cpu=abc`` is 0 after an ``Invalid unit type``
error, ``mem=62.50G`` is 62), an unknown TRES name or a bad QOS makes the whole word
unknown. Messages are Slurm's, ``sacctmgr: error: ...`` for its ``error()`` calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from fscli.cli.sacctmgr.grammar import Word, split_list
from fscli.engine import tres as tresmod
from fscli.engine.assoc_changes import AssocChanges, QosEdit
from fscli.engine.limits import definitions as limitdefs
from fscli.engine.timestr import parse_duration_mins
from fscli.errors import InvalidValue

_NUMBER = re.compile(r"\s*([+-]?)([0-9]*)")


class Problems:
    """What a command says on stderr while reading its words, and whether it failed."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.failed = False

    def error(self, text: str) -> None:
        """Slurm's ``error()``: prefixed, and fatal to the command."""
        self.lines.append(f"sacctmgr: error: {text}")
        self.failed = True

    def warn(self, text: str) -> None:
        """An ``error()`` sacctmgr prints without failing the command."""
        self.lines.append(f"sacctmgr: error: {text}")

    def say(self, text: str) -> None:
        self.lines.append(text)
        self.failed = True

    def unknown(self, raw: str, hint: str = " Use keyword 'where' to modify condition") -> None:
        self.say(f" Unknown option: {raw}\n{hint}" if hint else f" Unknown option: {raw}")

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)

    def settle(self, run) -> None:
        """End the command (``run.refuse``) if a word was refused; else say the warnings."""
        if self.failed:
            raise run.refuse(self.text())
        run.err(self.text())


@dataclass
class Settings:
    """The association settings of an add or a modify (``None``: not given)."""

    shares: int | str | None = None
    parent: str | None = None
    priority: Any = None
    qos: QosEdit | None = None
    qos_items: list[str] = field(default_factory=list)  # as given: "high", "+low"
    default_qos: str | None = None  # "" clears
    limits: dict[str, Any] = field(default_factory=dict)

    def changes(self, modify: bool = False) -> AssocChanges:
        """``modify``: for slurmdbd's modify, whose ``qos='...'`` for the plain items of a
        list is written after (so over) what its ``+``/``-`` items did."""
        qos = self.qos
        if modify and qos is not None and qos.op == "=":
            qos = QosEdit("=", [n for n in qos.names if n[0] not in "+-"])
        return AssocChanges(
            # a cleared FairShare (-1: printed NONE) is slurmdbd's default share, 1
            shares=1 if self.shares is limitdefs.CLEAR else self.shares,
            priority=self.priority,
            qos=qos,
            default_qos=self.default_qos,
            limits=dict(self.limits),
        )

    def given(self) -> bool:
        return self.parent is not None or not self.changes().empty()


def strtol(text: str) -> tuple[int, str]:
    """C's ``strtol``: the leading number (0 if none) and what follows it."""
    match = _NUMBER.match(text)
    assert match is not None, "every text starts with a (maybe empty) number"
    sign, digits = match.group(1), match.group(2)
    if not digits:
        return 0, text
    number = int(digits)
    return (-number if sign == "-" else number), text[match.end() :]


def get_uint(name: str, text: str, problems: Problems) -> Any:
    """sacctmgr's ``get_uint``: a count, ``CLEAR`` for a negative one, None on error."""
    meat = text.strip().strip("'\"").lower()
    number, rest = strtol(meat)
    if number == 0 and rest:
        problems.error(f"Invalid value for {name} ({meat})")
        return None
    return limitdefs.CLEAR if number < 0 else number


def tres_amounts(text: str, problems: Problems) -> dict[str, int] | None:
    """``slurmdb_format_tres_str``: ``cpu=4,mem=2G`` → amounts (memory in MB); ``-1``
    clears one TRES; None (after an error line) for an unknown TRES."""
    out: dict[str, int] = {}
    for item in text.lstrip(",").split(","):
        name, sep, value = item.partition("=")
        if not sep:
            problems.error(f"slurmdb_format_tres_str: no TRES id found for {item}")
            return None
        try:
            key = tresmod.normalize_name(name)
        except InvalidValue:
            problems.error(f"slurmdb_format_tres_str: no TRES known by type {name}")
            return None
        number, rest = strtol(value)
        if number < 0:
            out[key] = tresmod.CLEAR
            continue
        unit = rest[:1]
        if unit:
            power = "\0KMGTP".find(unit.upper()) if unit.upper() in "KMGTP" else -1
            if power < 0:
                problems.warn(f"Invalid unit type '{unit}'. Possible options are 'KMGTP'")
            else:
                base = 2 if tresmod.is_mb_based(key) else 0
                if power > base:
                    number *= 1024 ** (power - base)
        out[key] = number
    return out


def minutes(text: str) -> Any:
    """``time_str2mins``: minutes, ``CLEAR`` for -1, None when malformed."""
    if text.strip() == "-1":
        return limitdefs.CLEAR
    try:
        mins = parse_duration_mins(text.strip())
    except InvalidValue:
        return None
    return limitdefs.CLEAR if mins is None else mins


def add_qos_items(
    items: list[str], text: str, option: str, known: list[str], problems: Problems
) -> int:
    """``slurmdb_addto_qos_char_list``: add the names of one word to the list the words
    of a command share (``+name``/``-name`` with ``option`` or their own sign); how many
    were new, or -1 (the list emptied) for an unknown QOS or ``=`` mixed with ``+``/``-``
    in one word. An empty value is the empty list (``qos=``). Its errors do not fail the
    command by themselves: the word they make unknown does (add user takes it as a
    condition instead, and goes on)."""
    if text == "":
        items.append("")
        return 1
    count = 0
    plain = signed = False
    for name in split_list(text.lower()):
        sign = option
        if name[:1] in ("+", "-"):
            sign, name = name[0], name[1:]
        if name not in known:
            problems.warn(
                f"You gave a bad qos '{name}'. Valid QOS's are {','.join(known) or '(null)'}"
            )
            items.clear()
            return -1
        if (sign and plain) or (not sign and signed):
            problems.warn(
                "You can't set qos equal to something and then add or subtract from it "
                "in the same line"
            )
            items.clear()
            return -1
        plain, signed = plain or not sign, signed or bool(sign)
        item = sign + name
        if item not in items:
            items.append(item)
            count += 1
    if count == 0:
        problems.warn("You gave me an empty qos list")
    return count


def sticky(words: list[Word]) -> list[Word]:
    """The words with sacctmgr's ``option`` carried: a ``+=``/``-=`` word sets it for
    every later word of the same request (``qos+=a qos=b`` adds b too), since
    ``parse_option_end`` leaves it alone for a plain ``=``."""
    out = []
    option = ""
    for w in words:
        if w.op in ("+=", "-="):
            option = w.op
        elif w.op == "=" and option:
            w = Word(w.raw, w.key, option, w.value)
        out.append(w)
    return out


def qos_edit(items: list[str]) -> QosEdit:
    """The store's edit for the listed items: a new list, or names added or removed. A
    list whose first item is plain is stored as given, signed items and all (slurmdbd's
    add writes the whole list into ``qos``); a modify keeps its plain items only
    (:meth:`Settings.changes`)."""
    names = [i for i in items if i]
    if not names or names[0][0] not in "+-":
        return QosEdit("=", names)
    return QosEdit(names[0][0] + "=", [n[1:] for n in names if n[0] == names[0][0]])


def assoc_setting(
    canon: str, w: Word, settings: Settings, known_qos: list[str], problems: Problems
) -> bool:
    """Read one association setting (``canon`` from ``grammar.ASSOC_REC``) into
    ``settings``; False when the value is refused (the caller reports the word)."""
    value = w.value
    if canon == "FairShare":
        if value.strip().lower().startswith("parent"):
            settings.shares = "parent"
            return True
        number = get_uint("FairShare", value, problems)
        if number is None:
            return False
        settings.shares = number
        return True
    if canon == "Parent":
        settings.parent = value.strip().strip("'\"").lower()
        return True
    if canon == "Priority":
        number = get_uint("Priority", value, problems)
        settings.priority = number
        return number is not None
    if canon == "DefaultQOS":
        name = value.strip().lower()
        if strtol(name)[0] == -1:
            settings.default_qos = ""
        elif name in known_qos:
            settings.default_qos = name
        else:
            problems.say(
                f"You gave a bad default qos '{value}'.  Use 'list qos' to get complete list."
            )
        return True
    if canon == "QOS":
        option = w.op[:1] if w.op in ("+=", "-=") else ""
        if add_qos_items(settings.qos_items, value, option, known_qos, problems) <= 0:
            return False
        settings.qos = qos_edit(settings.qos_items)
        return True
    name, _, single = canon.partition(":")
    defn = limitdefs.lookup(name)
    assert defn is not None, "ASSOC_REC names only registered limits"
    if single:  # GrpCPUs=10 and the other legacy one-TRES keys
        number = get_uint(w.key or name, value, problems)
        if number is None:
            return False
        amount = tresmod.CLEAR if number is limitdefs.CLEAR else number
        settings.limits.setdefault(name, {})[single] = amount
        return True
    if defn.kind in ("tres", "tres_mins"):
        amounts = tres_amounts(value, problems)
        if amounts is None:
            return False
        # a second word for one limit is merged into the first (slurmdb_combine_tres_strings)
        settings.limits[name] = {**settings.limits.get(name, {}), **amounts}
        return True
    if defn.kind == "minutes":
        mins = minutes(value)
        if mins is None:
            label = "MaxWall" if name == "MaxWallDurationPerJob" else name
            problems.say(f" Bad {label} time format: {w.raw}")
            return False
        settings.limits[name] = mins
        return True
    number = get_uint(name, value, problems)
    if number is None:
        return False
    settings.limits[name] = number
    return True


def slurm_admin_level(text: str) -> str | None:
    """An admin level as ``str_2_slurmdb_admin_level`` reads it: by its first letter
    alone (``n``one, ``o``perator, ``s``uperuser or ``a``dmin); anything else is "not
    set" (None), which leaves the level as it is rather than failing the command."""
    levels = {"n": "None", "o": "Operator", "s": "Administrator", "a": "Administrator"}
    return levels.get(text.strip("'\"")[:1].lower())


def no_change(what: str) -> str:
    """slurmdbd's "nothing to change" (``SLURM_NO_CHANGE_IN_DATA``) for a modify of
    ``what`` (users, qos), as sacctmgr's accounting_storage plugin reports it."""
    return (
        f"sacctmgr: accounting_storage/slurmdbd: acct_storage_p_modify_{what}: Request "
        "didn't affect anything or your user doesn't have privilege to perform this action\n"
    )
