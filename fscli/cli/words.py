"""sacctmgr's ``key=value`` grammar, parsed in one place.

``fscli account modify physics set fairshare=30 GrpTRES=cpu=64`` → names ``[physics]``,
values ``{FairShare: 30, GrpTRES: ...}``. Keys are case-insensitive and may be given by
any alias; ``where`` is optional and ignored; words before ``set`` select, words after
it are new values. Without ``set``, bare names and identity keys (``cluster``,
``account``, ``user``, ``partition``, ``name``) select and every other key is a value.
``qos+=high`` and ``qos-=high`` are list edits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fscli.engine.limits import definitions as limitdefs
from fscli.errors import Conflict, InvalidValue, UsageProblem, did_you_mean

IDENTITY = ("name", "cluster", "account", "user", "partition")
COUNT_MAX = 2**31 - 1  # node/CPU counts live in 32-bit columns on every backend


@dataclass
class Word:
    """One ``key<op>value`` word of a command line (op ``=``, ``+=`` or ``-=``)."""

    key: str
    op: str
    value: str


@dataclass
class Words:
    """A command line's words: bare names, words that select (before ``set``) and new values."""

    names: list[str] = field(default_factory=list)
    select: dict[str, Word] = field(default_factory=dict)
    values: dict[str, Word] = field(default_factory=dict)

    def get(self, key: str, default: str | None = None) -> str | None:
        word = self.values.get(key) or self.select.get(key)
        return word.value if word else default

    def all_names(self) -> list[str]:
        """Bare names plus ``name=`` values, comma-split, in order. A name given twice is
        an error: a modify or delete would otherwise do (and log) its work twice."""
        names = list(self.names)
        if "name" in self.select:
            names += split_list(self.select["name"].value)
        seen: set[str] = set()
        for name in names:
            if name in seen:
                raise Conflict(f"'{name}' is named twice")
            seen.add(name)
        return names


def count_value(key: str, text: str, maximum: int = COUNT_MAX) -> int:
    """A whole number 0..``maximum`` (a node or CPU count, a factor), or a clear error."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(maximum)):
        if text.startswith("-") and text[1:].isdigit():
            raise InvalidValue(f"invalid {key} '{text}': must be >= 0")
        raise InvalidValue(
            f"invalid {key} '{text[:40]}': expected a whole number from 0 to {maximum}"
        )
    number = int(text)
    if number > maximum:
        raise InvalidValue(f"invalid {key} '{text}': out of range (at most {maximum})")
    return number


def whole_number(key: str, text: str, low: int | None = 0, high: int | None = COUNT_MAX) -> int:
    """A whole number ``low``..``high`` in ASCII digits, an optional sign first (``None``: no
    bound here, the caller checks the range). Not ``int()`` alone: it would take ``1_000``
    and digits of other scripts, which sbatch and scontrol refuse."""
    digits = text.strip()
    expected = "a whole number" + (f" >= {low}" if low is not None else "")
    if not re.fullmatch(r"[+-]?[0-9]{1,4000}", digits):  # int() reads at most 4300 digits
        raise InvalidValue(f"invalid {key} '{text[:40]}': expected {expected}")
    value = int(digits)
    if low is not None and value < low:
        raise InvalidValue(f"invalid {key} '{text}': expected {expected}")
    if high is not None and value > high:
        raise InvalidValue(f"invalid {key} '{text}': out of range (at most {high})")
    return value


def mem_per_node(text: str) -> int:
    """``mem=`` of a job (``job submit``, ``limits check``): a size per node, as sbatch --mem."""
    from fscli.engine.tres import parse_value

    per_node = parse_value("mem", text)
    if per_node < 0:
        raise InvalidValue(f"invalid mem '{text}': expected a size like 4G or 2000M")
    return per_node


def split_list(text: str) -> list[str]:
    return [part.strip() for part in str(text).split(",") if part.strip()]


def key_table(base: dict[str, tuple[str, ...]], limit_scope: str | None) -> dict[str, str]:
    """lowercase alias → canonical key, for the command's own keys plus its limits."""
    table: dict[str, str] = {}
    for canon, aliases in base.items():
        for alias in (canon, *aliases):
            table[alias.lower()] = canon
    if limit_scope:
        for d in limitdefs.LIMITS:
            if limit_scope in d.scopes:
                for alias in (d.name, *d.aliases):
                    table[alias.lower()] = d.name
    return table


def parse_words(
    args: tuple[str, ...] | list[str], keys: dict[str, str], command: str, modify: bool = False
) -> Words:
    """Split command words into names, selection and values (see module docstring)."""
    words = Words()
    has_set = any(a.lower() == "set" for a in args)
    after_set = False
    for arg in args:
        low = arg.lower()
        if low == "where":
            continue
        if low == "set":
            if after_set:
                raise UsageProblem(f"'set' given twice in {command}")
            after_set = True
            continue
        if "=" not in arg:
            if after_set:
                raise UsageProblem(f"'{arg}' after 'set' in {command}: expected KEY=VALUE")
            words.names += split_list(arg)
            continue
        key, _, value = arg.partition("=")
        op = "="
        if key.endswith(("+", "-")) and len(key) > 1:
            op, key = key[-1] + "=", key[:-1]
        canon = keys.get(key.strip().lower())
        if canon is None:
            defn = limitdefs.lookup(key.strip())
            if defn is not None:
                kind = "an association" if limitdefs.ASSOC in defn.scopes else "a QOS"
                raise UsageProblem(f"{defn.name} is {kind} limit; it cannot be set in {command}")
            hint = did_you_mean(key.strip(), sorted(set(keys.values())))
            raise UsageProblem(f"unknown key '{key}' for {command}{hint}")
        word = Word(canon, op, value)
        if modify and (after_set or (not has_set and canon not in IDENTITY)):
            target = words.values
        elif modify:
            target = words.select
        else:
            target = words.select if canon in IDENTITY else words.values
        if canon in target:
            raise UsageProblem(f"key '{canon}' given twice in {command}")
        target[canon] = word
    return words


def reject_changes(words: Words, command: str) -> None:
    """A delete takes names (and where it applies, cluster=): KEY=VALUE words it would
    ignore are an error, so that a mistyped command never deletes something else."""
    if words.values:
        key = next(iter(words.values))
        raise UsageProblem(f"'{key}=' cannot be used in {command}: give only what to delete")


def reject_unused(words: Words, allowed_select: tuple[str, ...], command: str) -> None:
    """Selection keys a command cannot use are an error, not silently ignored."""
    for key in words.select:
        if key not in allowed_select:
            raise UsageProblem(
                f"'{key}=' cannot select in {command}; allowed: "
                f"{', '.join(allowed_select) or 'names only'}"
            )


def delete_words(
    args: tuple[str, ...] | list[str],
    keys: dict[str, str],
    command: str,
    select: tuple[str, ...],
    modify: bool = True,
) -> Words:
    """The words of a ``delete``: only ``select`` keys and names, never a value to set, so
    that a mistyped delete is refused instead of deleting what its names alone pick."""
    words = parse_words(args, keys, command, modify=modify)
    option = next((name for name in words.names if name.startswith("-")), None)
    if option is not None:  # no name starts with '-': an option (--json) the command lacks
        raise UsageProblem(f"No such option '{option}' (see 'fscli {command} --help')")
    reject_unused(words, select, command)
    reject_changes(words, command)
    return words
