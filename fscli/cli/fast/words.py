"""The words after ``fscli`` as click's parser reads them, for the command lines whose
reading is plain: subcommands, options named in full (``-Q``, ``--db URL``, ``--db=URL``)
and words that do not start with ``-``. The nodes come from the generated grammar
(:mod:`fscli.cli.fast.grammar`).

This follows click's ``OptionParser`` and ``_resolve_context`` in resilient mode (as
completion parses): parsing stops quietly at a missing value. Anything else, bundled or
unknown options, a lone ``-``, ``--``, an option's value that starts with ``-``, a node
marked ``fallback``, makes :func:`parse` return None.
"""

from __future__ import annotations

from fscli.cli.fast.grammar import NODES


class Parsed:
    """What the parse leaves: the last command's node and path, the options given on its
    command line (indexes into its options, in the order of their first use), its
    positional words, ``--db`` (as the group's ``db`` parameter holds it), and whether
    every word was read at that node (``clean``: no word left, no value missing)."""

    def __init__(self) -> None:
        self.node = NODES[()]
        self.path: tuple[str, ...] = ()
        self.given: list[int] = []
        self.positional: list[str] = []
        self.db: str | None = None
        self.clean = True


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
                        parsed.clean = False
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
        if path not in NODES:  # not a command: click stays at the group
            parsed.clean = False
            break
        parsed.node, parsed.path = NODES[path], path
        i += 1
    if parsed.db is None:
        db = next(o for o in NODES[()]["options"] if o["name"] == "db")
        parsed.db = environ.get(db.get("envvar") or "") or None
    return parsed


def _option(node: dict, word: str) -> tuple[int, str | None] | None:
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


def eager(argv: list[str], environ) -> str | None:
    """``help`` or ``version`` when ``argv`` is the group's options only and click would
    answer it with its help or version option (the first of them given: click runs eager
    options in the order they came); None otherwise."""
    parsed = parse(argv, environ)
    if parsed is None or parsed.path or not parsed.clean:
        return None
    for index in parsed.given:
        action = parsed.node["options"][index].get("eager")
        if action:
            return action
    return None
