"""The output options every list/view command shares, from one decorator.

``-p``/``-P`` Slurm parsable text, ``-n`` no header, ``--json``; otherwise a rich table.
Data goes to stdout; messages go to stderr.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import click


@dataclass
class Output:
    """The output flags a view was given (``-p``/``-P``, ``-n``, ``--json``), and writing rows in that form."""

    parsable: str | None = None  # "p" (trailing |) or "P"
    noheader: bool = False
    json: bool = False

    def emit(
        self,
        columns: Sequence[str],
        rows: Sequence[Sequence[Any]],
        key: str,
        title: str | None = None,
        numeric: Sequence[str] = (),
        meta: dict | None = None,
        keep: Sequence[str] | None = None,
    ) -> None:
        """Print rows; a rich table leaves out all-empty columns except those in ``keep``."""
        from fscli.render import tables

        if self.json:
            click.echo(tables.as_json(key, columns, rows, meta), nl=False)
        elif self.parsable:
            click.echo(
                tables.parsable(columns, rows, self.parsable == "p", not self.noheader), nl=False
            )
        else:
            if keep is not None:
                columns, rows = tables.drop_empty_columns(columns, rows, keep)
            tables.show(columns, rows, title, not self.noheader, [c in numeric for c in columns])

    # A value as people read it, or as --json carries it (numbers as numbers, the units
    # docs/json.md gives): one place, so that every command says it the same way.

    def minutes(self, value: int | None) -> str | int | None:
        """A duration stored in minutes: ``D-HH:MM:SS`` (``UNLIMITED``) for people, the
        number of minutes (null: unlimited) in JSON."""
        from fscli.engine.timestr import INFINITE_MINUTES, format_mins

        if self.json:
            return None if value is None or value >= INFINITE_MINUTES else value
        return format_mins(value)

    def tres(self, value: dict[str, int] | None) -> str | dict[str, int] | None:
        """TRES counts: Slurm's text (``cpu=4,mem=8G``) for people, ``{tres: count}``
        (memory in MB) or null in JSON."""
        from fscli.engine.tres import format_tres

        if self.json:
            return dict(value) if value else None
        return format_tres(value)

    def limit(self, defn, value):
        """A stored limit: as sacctmgr prints it, or in JSON a count, minutes or a TRES
        object (null when unset)."""
        from fscli.engine.limits.definitions import format_limit

        if self.json:
            return dict(value) if isinstance(value, dict) else value
        return format_limit(defn, value)

    def when(self, epoch: int | None) -> str | None:
        """A moment as Slurm prints it (local time); JSON says null rather than ""."""
        from fscli.engine.timestr import format_when

        return None if self.json and epoch is None else format_when(epoch)

    def setting(self, text: str) -> str | int | float:
        """A setting's value as stored (text): a number in JSON when it is one."""
        if not self.json:
            return text
        for kind in (int, float):
            try:
                return kind(text)
            except ValueError:
                pass
        return text


def output_options(func: Callable) -> Callable:
    """Adds ``-p``, ``-P``, ``-n`` and ``--json``; passes ``out: Output`` to the command."""

    @click.option(
        "-p",
        "--parsable",
        "parsable_p",
        is_flag=True,
        help="Parsable output, '|' after every field.",
    )
    @click.option(
        "-P", "--parsable2", "parsable_P", is_flag=True, help="Parsable output, '|' between fields."
    )
    @click.option("-n", "--noheader", is_flag=True, help="No header line.")
    @click.option("--json", "as_json", is_flag=True, help="JSON output.")
    @functools.wraps(func)
    def wrapper(*args, parsable_p: bool, parsable_P: bool, noheader: bool, as_json: bool, **kwargs):
        mode = "P" if parsable_P else ("p" if parsable_p else None)
        return func(*args, out=Output(mode, noheader, as_json), **kwargs)

    return wrapper


def dry_run_option(func: Callable) -> Callable:
    return click.option("--dry-run", is_flag=True, help="Show what would change; change nothing.")(
        func
    )


NOTHING_MODIFIED = "nothing modified: every value is already set"
NOTHING_DELETED = "nothing deleted: nothing matches"


def report(app, lines: list[str], dry_run: bool, nothing: str = "") -> None:
    """Print the change summary on stderr (prefixed when nothing was committed); with no
    lines (a change that changes nothing, which writes no history), ``nothing``."""
    for line in lines:
        app.say(("would have " + line) if dry_run else line)
    if not lines and nothing:
        app.say(nothing)


def svg_option(func: Callable) -> Callable:
    return click.option(
        "--svg", metavar="FILE", help="Also save what is printed as an SVG picture in FILE."
    )(func)


def command_line(ctx: click.Context, leave_out: Sequence[str] = ("svg",)) -> str:
    """The command line that ran ``ctx`` (what the user typed, in declaration order)."""
    import shlex

    from click.core import ParameterSource

    chain = []
    while ctx is not None:
        chain.append(ctx)
        ctx = ctx.parent
    words: list[str] = []
    for level in reversed(chain):
        words.append("fscli" if level.parent is None else level.info_name or "")
        for param in level.command.params:
            if (
                param.name in leave_out
                or param.name not in level.params
                or level.get_parameter_source(param.name) is not ParameterSource.COMMANDLINE
            ):
                continue
            value = level.params[param.name]
            values = list(value) if isinstance(value, (tuple, list)) else [value]
            if isinstance(param, click.Argument):
                words += [str(v) for v in values]
            elif getattr(param, "is_flag", False):
                words.append(
                    param.secondary_opts[0] if not value and param.secondary_opts else param.opts[0]
                )
            else:
                for item in values:
                    words += [param.opts[0], _shown(param.name, str(item))]
    return " ".join(shlex.quote(w) for w in words)


def _shown(name: str, value: str) -> str:
    """An option's value as a picture may show it: never a database password."""
    if name != "db":
        return value
    from fscli.api.names import shown_location

    return shown_location(value)
