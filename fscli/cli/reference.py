"""``docs/cli.md``: the command reference, generated from every command's ``--help``.

A test regenerates it and fails when the committed file differs, so the reference
cannot drift from the code. Regenerate with ``python -m fscli.cli.reference > docs/cli.md``.
"""

from __future__ import annotations

import click

from fscli.cli.main import cli


def _walk(command: click.Command, path: list[str], ctx: click.Context):
    yield path, command, ctx
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            sub_ctx = click.Context(sub, info_name=name, parent=ctx)
            yield from _walk(sub, [*path, name], sub_ctx)


def commands() -> list[tuple[list[str], click.Command, click.Context]]:
    root = click.Context(cli, info_name="fscli", terminal_width=100, max_content_width=100)
    return list(_walk(cli, ["fscli"], root))


def cli_reference() -> str:
    out = ["# fscli command reference", "",
           "Generated from `--help` by `python -m fscli.cli.reference`; do not edit by hand.", ""]
    for path, command, ctx in commands():
        out += [f"## {' '.join(path)}", "", "```", command.get_help(ctx).rstrip(), "```", ""]
    return "\n".join(out)


if __name__ == "__main__":
    click.echo(cli_reference(), nl=False)
