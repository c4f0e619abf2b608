"""The words after ``fscli`` as click's parser reads them, for the command lines whose
reading is plain: subcommands, options named in full (``-Q``, ``--db URL``, ``--db=URL``)
and words that do not start with ``-``. The nodes come from the grammar generated from the
click tree (``grammar.json``, :mod:`fscli.cli.fast.generate`).

This follows click's ``OptionParser`` and ``_resolve_context`` in resilient mode (as
completion parses): parsing stops quietly at a missing value. Anything else, bundled or
unknown options, a lone ``-``, ``--``, an option's value that starts with ``-``, a node
marked ``fallback``, makes :func:`parse` return None.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as a TAB need not
if TYPE_CHECKING:
    from typing import Any

    Node = dict[str, Any]

GRAMMAR = os.path.join(os.path.dirname(__file__), "grammar.json")
OPTION: dict[str, Any] = {
    "secondary": [],
    "value": False,
    "multiple": False,
    "hidden": False,
    "help": None,
    "complete": ["none"],
    "envvar": None,
}
"""An option's fields where the grammar leaves them out (their usual values)."""

_nodes: dict[str, Node] = {}


def nodes() -> dict[str, Node]:
    """Command path (words joined by spaces) -> node of the grammar, read on first use."""
    if not _nodes:
        with open(GRAMMAR, encoding="utf-8") as file:
            found: dict[str, Node] = read_json(file.read())
        for node in found.values():
            node["options"] = [{**OPTION, **option} for option in node["options"]]
        _nodes.update(found)
    return _nodes


class _Strict:
    """What the C scanner of :mod:`json` reads its settings from (``json.JSONDecoder``'s)."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float = parse_constant = float
    parse_int = int


def read_json(text: str):
    """``json.loads(text)`` of a document without leading blanks, by the C scanner that
    ``json`` uses: ``json`` itself imports ``re`` and ``enum``, which nothing else a TAB
    runs needs (several ms of its 40, issue 21)."""
    try:
        from _json import make_scanner
    except ImportError:  # an interpreter without json's C speedups
        import json

        return json.loads(text)
    return make_scanner(_Strict())(text, 0)[0]  # type: ignore[arg-type]  # any settings object


class Parsed:
    """What the parse leaves: the last command's node and path, the options given on its
    command line (indexes into its options, in the order of their first use), its
    positional words, and ``--db`` (as the group's ``db`` parameter holds it)."""

    def __init__(self) -> None:
        self.node: Node = nodes()[""]
        self.path: tuple[str, ...] = ()
        self.given: list[int] = []
        self.positional: list[str] = []
        self.db: str | None = None


def parse(args: list[str], environ) -> Parsed | None:
    """``args`` (the complete words after ``fscli``) followed through the command tree."""
    if "--" in args:
        return None
    parsed = Parsed()
    i = 0
    while True:
        node = parsed.node
        if "fallback" in node:
            return None
        parsed.given, parsed.positional = [], []
        while i < len(args):
            word = args[i]
            if word.startswith("-"):
                found = _option(node, word)
                if found is None:
                    return None
                index, value = found
                option = node["options"][index]
                if option["value"] and value is None:
                    if i + 1 == len(args):  # the value is missing: click stops parsing here,
                        parsed.positional = []  # before it hands words to the arguments
                        i += 1
                        break
                    value = args[i + 1]
                    if value.startswith("-"):
                        return None
                    i += 1
                elif not option["value"] and value is not None:
                    return None
                if not parsed.path and option["name"] == "db":
                    parsed.db = value
                if index not in parsed.given:
                    parsed.given.append(index)
                i += 1
            elif node["interspersed"]:
                parsed.positional.append(word)
                i += 1
            else:
                break
        if not node["group"] or i == len(args):
            break
        path = (*parsed.path, args[i])
        command = nodes().get(" ".join(path))
        if command is None:  # not a command: click stays at the group
            break
        parsed.node, parsed.path = command, path
        i += 1
    if parsed.db is None:
        db = next(o for o in nodes()[""]["options"] if o["name"] == "db")
        parsed.db = environ.get(db["envvar"] or "") or None
    return parsed


def _option(node: Node, word: str) -> tuple[int, str | None] | None:
    """(index of the option ``word`` names, its ``=value`` or None); None for a word the
    parser would read otherwise (unknown, bundled short options, ``-`` alone)."""
    name, eq, value = word.partition("=")
    for index, option in enumerate(node["options"]):
        names = (*option["opts"], *option["secondary"])
        if word in names:
            return index, None
        if eq and name in names and not _is_short(name):
            return index, value
    return None


def _is_short(name: str) -> bool:
    """``-x``: click reads it (and ``-x=1``) as a short option, ``=1`` being its value."""
    return len(name) == 2 and name[1] != "-"
