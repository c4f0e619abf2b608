"""GNU ``getopt_long`` as Slurm's own tools call it, for the ``slurm-sshare`` and
``slurm-sprio`` front ends (the shims of ``fscli shims``).

Slurm's sshare and sprio parse their command line with glibc's ``getopt_long``: short
options bundle (``-al``), a required value is the rest of the word or the next word
(``-oFMT``, ``-o FMT``), an optional one only the rest of the word (``-j5``, ``--jobs=5``),
long options may be cut to any unique prefix (``--form``), ``--`` ends the options and
the other words are moved behind them (permutation). glibc's messages are reproduced
word for word (``sshare: invalid option -- 'z'``); the tool adds its own "Try ..." line.
"""

from __future__ import annotations

from dataclasses import dataclass

NO, REQUIRED, OPTIONAL = 0, 1, 2
"""A long option's ``has_arg``."""


class GetoptError(Exception):
    """A word getopt refuses: ``message`` is glibc's line (without the newline)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class LongOption:
    """``struct option``: the name, ``has_arg`` and the value getopt returns for it."""

    name: str
    has_arg: int
    key: str


def _short_table(optstring: str) -> dict[str, int]:
    table = {}
    i = 0
    while i < len(optstring):
        letter = optstring[i]
        colons = 0
        while i + 1 + colons < len(optstring) and optstring[i + 1 + colons] == ":":
            colons += 1
        table[letter] = (NO, REQUIRED, OPTIONAL)[min(colons, 2)]
        i += 1 + colons
    return table


def getopt_long(
    prog: str, argv: list[str], optstring: str, longopts: list[LongOption]
) -> tuple[list[tuple[str, str | None]], list[str]]:
    """(the options as (key, value) in the order given, the other words) of ``argv``
    (the words after the program's name); :class:`GetoptError` on the first bad word."""
    shorts = _short_table(optstring)
    found: list[tuple[str, str | None]] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        i += 1
        if word == "--":
            rest.extend(argv[i:])
            break
        if not word.startswith("-") or word == "-":
            rest.append(word)
            continue
        if word.startswith("--"):
            key, value, i = _long(prog, word, argv, i, longopts)
            found.append((key, value))
            continue
        j = 1
        while j < len(word):
            letter = word[j]
            j += 1
            has_arg = shorts.get(letter) if letter != ":" else None
            if has_arg is None:
                raise GetoptError(f"{prog}: invalid option -- '{letter}'")
            if has_arg == NO:
                found.append((letter, None))
                continue
            if j < len(word):
                found.append((letter, word[j:]))
            elif has_arg == OPTIONAL:
                found.append((letter, None))
            elif i < len(argv):
                found.append((letter, argv[i]))
                i += 1
            else:
                raise GetoptError(f"{prog}: option requires an argument -- '{letter}'")
            break
    return found, rest


def _long(
    prog: str, word: str, argv: list[str], i: int, longopts: list[LongOption]
) -> tuple[str, str | None, int]:
    text = word[2:]
    name, eq, value = text.partition("=")
    exact = [o for o in longopts if o.name == name]
    matches = exact or [o for o in longopts if o.name.startswith(name)]
    if not matches:
        raise GetoptError(f"{prog}: unrecognized option '--{text}'")
    differ = [o for o in matches[1:] if (o.has_arg, o.key) != (matches[0].has_arg, matches[0].key)]
    if differ:  # glibc lists the first match and those that differ from it
        names = "".join(f" '--{o.name}'" for o in longopts if o is matches[0] or o in differ)
        raise GetoptError(f"{prog}: option '--{text}' is ambiguous; possibilities:{names}")
    option = matches[0]
    if eq:
        if option.has_arg == NO:
            raise GetoptError(f"{prog}: option '--{option.name}' doesn't allow an argument")
        return option.key, value, i
    if option.has_arg == REQUIRED:
        if i >= len(argv):
            raise GetoptError(f"{prog}: option '--{option.name}' requires an argument")
        return option.key, argv[i], i + 1
    return option.key, None, i
