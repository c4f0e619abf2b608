"""A TAB without click: click's shell-completion protocol (``_FSCLI_COMPLETE=bash_complete``,
``zsh_complete``, ``fish_complete``) answered from the generated grammar.

This follows ``click/shell_completion.py`` (``get_completion_args``, ``_resolve_context``,
``_resolve_incomplete``, the ``shell_complete`` methods, ``format_completion``) and click's
option parser for the command lines it understands: subcommands, options named in full
(``-Q``, ``--db URL``, ``--db=URL``) and plain words. Anything else (quotes, ``--``,
bundled or unknown options, a value that looks like an option, a node the grammar marks
``fallback``, a value whose completion only click knows) returns None, and click answers.
``tests/cli/test_fast.py`` holds the answers equal to click's.
"""

from __future__ import annotations

from fscli.cli.fast.words import Parsed, parse

SPECIAL = frozenset("'\"\\")
"""Characters that make ``shlex`` (click's ``split_arg_string``) do more than split."""


def complete(instruction: str, environ) -> str | None:
    """The lines click would print for ``instruction`` (``bash_complete``, ...); None when
    click must answer."""
    shell, _, action = instruction.partition("_")
    if action != "complete" or shell not in FORMATS:
        return None
    given = _completion_args(shell, environ)
    if given is None:
        return None
    args, incomplete = given
    items = _items(args, incomplete, environ)
    if items is None:
        return None
    return "\n".join(FORMATS[shell](value, kind, help_) for value, kind, help_ in items)


def _split(text: str) -> list[str] | None:
    """click's ``split_arg_string`` (``shlex``: words between spaces, tabs, line ends) of
    text that holds no quote or backslash; None for other text."""
    if SPECIAL.intersection(text):
        return None
    spaced = text.replace("\t", " ").replace("\r", " ").replace("\n", " ")
    return [word for word in spaced.split(" ") if word]


def _completion_args(shell: str, environ) -> tuple[list[str], str] | None:
    """(complete words after the program, word being completed), as click's
    ``get_completion_args`` of ``shell`` reads them from the environment."""
    if "COMP_WORDS" not in environ or "COMP_CWORD" not in environ:
        return None
    cwords = _split(environ["COMP_WORDS"])
    if cwords is None:
        return None
    if shell == "fish":  # COMP_CWORD is the word being completed
        incomplete = environ["COMP_CWORD"]
        if incomplete:
            parts = _split(incomplete)
            if not parts:  # click fails on it
                return None
            incomplete = parts[0]
        args = cwords[1:]
        if incomplete and args and args[-1] == incomplete:
            args.pop()
        return args, incomplete
    if not environ["COMP_CWORD"].isdigit():
        return None
    cword = int(environ["COMP_CWORD"])
    return cwords[1:cword], cwords[cword] if cword < len(cwords) else ""


def _items(args: list[str], incomplete: str, environ) -> list | None:
    """(value, type, help) of every answer; None when click must answer
    (``_resolve_incomplete`` and the ``shell_complete`` it calls)."""
    parsed = parse(args, environ)
    if parsed is None:
        return None
    node = parsed.node
    if incomplete == "=":
        incomplete = ""
    elif "=" in incomplete and incomplete.startswith("-"):
        name, _, incomplete = incomplete.partition("=")
        args = [*args, name]
    if "--" not in args and incomplete.startswith("-"):
        return _command_items(parsed, incomplete)
    if args and args[-1].startswith("-"):
        for option in node["options"]:
            if option["value"] and args[-1] in option["opts"]:
                return _values(option["complete"], incomplete, [], parsed.db)
    singles = [a for a in node["arguments"] if a["nargs"] == 1]
    if len(parsed.positional) < len(singles):
        return _values(singles[len(parsed.positional)]["complete"], incomplete, [], parsed.db)
    if len(singles) < len(node["arguments"]):  # the last argument takes any number of words
        before = parsed.positional[len(singles) :]
        return _values(node["arguments"][-1]["complete"], incomplete, before, parsed.db)
    return _command_items(parsed, incomplete)


def _command_items(parsed: Parsed, incomplete: str) -> list:
    """``Group.shell_complete``/``Command.shell_complete``: subcommands, then option names
    (not those given already) when the word starts like an option."""
    node = parsed.node
    items = [
        (name, "plain", short)
        for name, short, hidden in node.get("commands", ())
        if name.startswith(incomplete) and not hidden
    ]
    if incomplete and not incomplete[0].isalnum():
        for index, option in enumerate(node["options"]):
            if option["hidden"] or (index in parsed.given and not option["multiple"]):
                continue
            names = (*option["opts"], *option["secondary"])
            items += [(n, "plain", option["help"]) for n in names if n.startswith(incomplete)]
    return items


def _values(spec: list | None, incomplete: str, before: list[str], db: str | None) -> list | None:
    """A parameter's ``shell_complete`` answer, by the grammar's ``complete`` entry."""
    if spec is None:
        return None
    kind = spec[0]
    if kind == "none":
        return []
    if kind == "type":
        return [(incomplete, spec[1], None)]
    if kind == "choice":
        choices, case_sensitive = spec[1], spec[2]
        fold = (lambda s: s) if case_sensitive else str.lower
        return [(c, "plain", None) for c in choices if fold(c).startswith(fold(incomplete))]
    from fscli.cli.complete import (
        WordsCompleter,
        fixed_values,
        listed,
        sacctmgr_values,
        store_names,
    )

    def lookup(name_kind: str, prefix: str) -> list[str]:
        return store_names(db, name_kind, prefix)

    if kind == "names":
        found = listed(lambda prefix: lookup(spec[1], prefix), incomplete, spec[2])
    elif kind == "fixed":
        found = listed(lambda prefix: fixed_values(spec[1], prefix), incomplete, spec[2])
    elif kind == "sacctmgr":
        found = sacctmgr_values(spec[1], before, incomplete, lookup)
    else:
        found = WordsCompleter(spec[1], spec[2], spec[3]).values(before, incomplete, lookup)
    return [(value, "plain", None) for value in found]


def _bash(value: str, kind: str, help_: str | None) -> str:
    return f"{kind},{value}"


def _zsh(value: str, kind: str, help_: str | None) -> str:
    help_ = help_ or "_"
    if help_ != "_":  # _describe splits value from help at the first unescaped colon
        value = value.replace(":", r"\:")
    return f"{kind}\n{value}\n{help_}"


def _fish(value: str, kind: str, help_: str | None) -> str:
    if not help_:
        return f"{kind},{value}"
    help_ = help_.replace("\n", "\\n").replace("\t", " ")
    return f"{kind},{value}\t{help_}"


FORMATS = {"bash": _bash, "zsh": _zsh, "fish": _fish}
"""click's ``format_completion`` of each shell."""
