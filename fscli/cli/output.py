"""The output options every list/view command shares, from one decorator, and
:func:`emit`, which prints a view in the form they ask for.

``-p``/``-P`` Slurm parsable text, ``-n`` no header, ``--json``; otherwise a rich table.
Data goes to stdout; messages go to stderr. How each value and each view reads is
:mod:`fscli.render`'s business: the CLI parses options and emits.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from fscli.render.values import ValueForms

if TYPE_CHECKING:
    from fscli.render.views import View


@dataclass
class Output(ValueForms):
    """The output flags a command was given (``-p``/``-P``, ``-n``, ``--json``), writing
    rows in that form, and each value in it (:class:`~fscli.render.values.ValueForms`)."""

    parsable: str | None = None  # "p" (trailing |) or "P"
    noheader: bool = False

    def emit(
        self, columns: Sequence[str], rows: Sequence[Sequence[Any]], key: str, **options: Any
    ) -> None:
        """Print rows as a :class:`~fscli.render.views.RowsView` (``options``: its
        ``title``, ``numeric``, ``meta`` and ``keep``)."""
        from fscli.render.views import RowsView

        emit(RowsView(columns, rows, key, **options), self)


def emit(
    view: View, out: Output, svg: str | None = None, say: Callable[[str], None] | None = None
) -> None:
    """Print ``view`` in the form ``out`` asks for: ``--json``'s document; Slurm's text
    (``-p``/``-P``, or the view's only text form) a piece at a time; else its table for
    people, also saved as an SVG picture in ``svg``. Warnings go to stderr first; notes
    are said through ``say`` (the app's, silenced by ``-Q``) unless JSON carries them."""
    from fscli.heap import bulk, keep_until_exit

    keep_until_exit(view)  # its rows are freed with the process, not object by object
    for warning in view.warnings:
        click.echo(f"fscli: warning: {warning}", err=True)
    if out.json:
        with bulk():
            text = view.json()
        click.echo(text, nl=False)
        return
    for note in view.notes:
        (say or _stderr)(note)
    table = None if out.parsable else view.table()
    if table is None:
        with bulk():  # each piece is gone before the next: no collector passes
            for text in view.text(out.parsable, not out.noheader):
                click.echo(text, nl=False)
        return
    from fscli.render import tables

    header = not out.noheader
    tables.show(table.columns, table.cells, table.title, header, table.right)
    if svg is not None:
        picture = tables.picture(table.columns, table.cells, table.title, header, table.right)
        tables.save_svg(picture, svg, command_line(click.get_current_context()))


def _stderr(message: str) -> None:
    click.echo(message, err=True)


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
        return func(*args, out=Output(json=as_json, parsable=mode, noheader=noheader), **kwargs)

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
    level: click.Context | None = ctx
    while level is not None:
        chain.append(level)
        level = level.parent
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
