"""The command grammar a TAB reads without click (``fscli/cli/fast/grammar.json``),
generated from the click tree, so that it cannot drift from the commands:
``tests/cli/test_fast.py`` regenerates it and fails when the committed file differs.
Regenerate with::

    python -m fscli.cli.fast.generate > /tmp/grammar.json
    cp /tmp/grammar.json fscli/cli/fast/grammar.json

A data file, not a module: one line per command, each option without the fields that
hold their usual value (:data:`fscli.cli.fast.words.OPTION`).

A node (a command path) holds what click's completion reads of it: its options (names,
whether they take a value, help, how their value completes), its arguments, its
subcommands with their short help. A node the fast path cannot follow exactly (a callback
of fscli's own that runs while click parses, a chained group, odd ``nargs``, ...) says
why in ``fallback``, and the fast path hands such command lines to click.
"""

from __future__ import annotations

import json
import sys

import click

from fscli.cli.complete import (
    ChoicesCompleter,
    NamesCompleter,
    SacctmgrCompleter,
    WordsCompleter,
)
from fscli.cli.fast.words import OPTION
from fscli.cli.program import PROG

REGENERATE = (
    "python -m fscli.cli.fast.generate > /tmp/grammar.json && "
    "cp /tmp/grammar.json fscli/cli/fast/grammar.json"
)
SETTINGS = {"ignore_unknown_options", "allow_extra_args", "help_option_names"}
"""Context settings the fast path follows as they are: it falls back on every option it
does not know, extra arguments are allowed while completing, and ``get_params`` already
holds the help option's names."""


def grammar() -> dict[str, dict]:
    """Command path (its words joined by spaces, ``""`` for the group) -> node, for the
    whole click tree."""
    from fscli.cli.group import cli

    ctx = cli.make_context(PROG, [], resilient_parsing=True)
    nodes: dict[str, dict] = {}
    _walk(cli, ctx, (), nodes)
    return nodes


def _walk(cmd: click.Command, ctx: click.Context, path: tuple[str, ...], nodes: dict) -> None:
    params = cmd.get_params(ctx)
    node: dict = {
        "group": isinstance(cmd, click.Group),
        "interspersed": ctx.allow_interspersed_args,
        "options": [_option(p, ctx) for p in params if isinstance(p, click.Option)],
        "arguments": [_argument(p, ctx) for p in params if isinstance(p, click.Argument)],
    }
    reason = _unsupported(cmd, ctx, params)
    if reason:
        node["fallback"] = reason
    nodes[" ".join(path)] = node
    if isinstance(cmd, click.Group):
        node["commands"] = []
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is None:
                continue
            node["commands"].append([name, sub.get_short_help_str(), sub.hidden])
            sub_ctx = sub.make_context(name, [], parent=ctx, resilient_parsing=True)
            _walk(sub, sub_ctx, (*path, name), nodes)


def _option(param: click.Option, ctx: click.Context) -> dict:
    option = {
        "name": param.name,
        "opts": param.opts,
        "secondary": param.secondary_opts,
        "value": not (param.is_flag or param.count),
        "multiple": param.multiple,
        "hidden": param.hidden,
        "help": param.help,
        "complete": _completion(param, ctx),
        "envvar": param.envvar,
    }
    return {key: value for key, value in option.items() if OPTION.get(key, ...) != value}


def _click_eager(param: click.Parameter) -> bool:
    """Whether ``param`` is click's own help or version option: their callbacks do
    nothing while click completes (``resilient_parsing``)."""
    callback = param.callback
    return getattr(callback, "__module__", None) == "click.decorators" and getattr(
        callback, "__qualname__", ""
    ).partition(".")[0] in ("help_option", "version_option")


def _argument(param: click.Argument, ctx: click.Context) -> dict:
    return {"name": param.name, "nargs": param.nargs, "complete": _completion(param, ctx)}


def _completion(param: click.Parameter, ctx: click.Context) -> list | None:
    """How ``param``'s value completes, as the fast path knows it; None: ask click."""
    custom = param._custom_shell_complete
    kind = param.type
    if isinstance(custom, WordsCompleter) and param.nargs == -1:
        return ["words", custom.name_kind, custom.keys, custom.fixed]
    if isinstance(custom, SacctmgrCompleter) and param.nargs == -1:
        return ["sacctmgr", custom.table]
    if isinstance(custom, NamesCompleter):
        return ["names", custom.kind, custom.many]
    if isinstance(custom, ChoicesCompleter):
        return ["fixed", custom.choices, custom.many]
    if custom is not None:
        return None
    if type(kind).shell_complete is click.ParamType.shell_complete:
        return ["none"]  # the type completes nothing
    if type(kind) is click.Choice:
        return [
            "choice",
            [kind.normalize_choice(c, ctx) for c in kind.choices],
            kind.case_sensitive,
        ]
    if type(kind) is click.Path:
        return ["type", "dir" if kind.dir_okay and not kind.file_okay else "file"]
    if type(kind) is click.File:
        return ["type", "file"]
    return None


def _unsupported(cmd: click.Command, ctx: click.Context, params: list) -> str | None:
    """Why the fast path cannot parse ``cmd``'s words as click does; None when it can."""
    if isinstance(cmd, click.Group) and (
        cmd.chain or any(isinstance(p, click.Argument) for p in params)
    ):
        return "a chained group or a group with arguments"
    if ctx.token_normalize_func is not None or set(cmd.context_settings) - SETTINGS:
        return f"context settings {sorted(cmd.context_settings)}"
    if cmd.deprecated:
        return "deprecated"
    if not isinstance(cmd, click.Group) and not ctx.allow_interspersed_args:
        return "options only before the arguments"
    for p in params:
        if (
            p.callback is not None
            and not _click_eager(p)
            and not getattr(p.callback, "skipped_while_completing", False)
        ):
            return f"{p.name}: a callback runs while click parses"
        if p.deprecated:
            return f"{p.name}: deprecated"
        if isinstance(p, click.Option) and (
            p.nargs != 1
            or p._flag_needs_value
            or not all(o.startswith("-") for o in p.opts + p.secondary_opts)
        ):
            return f"{p.name}: an option of another form than -x, --name [VALUE]"
    shape = [p.nargs for p in params if isinstance(p, click.Argument)]
    if any(n not in (1, -1) for n in shape) or -1 in shape[:-1]:
        return f"arguments of nargs {shape}"
    return None


def source() -> str:
    """The text of ``grammar.json``: a JSON object, one command a line."""
    lines = [
        f"{json.dumps(path)}: {json.dumps(node, separators=(',', ':'))}"
        for path, node in grammar().items()
    ]
    return "{\n" + ",\n".join(lines) + "\n}\n"


if __name__ == "__main__":
    sys.stdout.write(source())
