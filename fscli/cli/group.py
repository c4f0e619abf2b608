"""The ``fscli`` command group: click's side of the program (:mod:`fscli.cli.main` is the
entry, and answers ``--help``, ``--version`` and TAB without it when it can).

Each subcommand lives in its own module, imported when it is run (``LazyGroup``), so
``fscli --help`` and shell completion stay fast. Errors a user can cause
(:class:`fscli.errors.FscliError`) become one line on stderr and exit 1 or 2; ``--debug``
shows the traceback that is otherwise hidden; Ctrl-C exits 130 with one line.
"""

from __future__ import annotations

import os
import sys

import click

from fscli import __version__
from fscli.cli.complete import NamesCompleter
from fscli.cli.main import (
    COMMANDS,
    HELP_OPTIONS,
    HIDDEN,
    PROG,
    VERSION_MESSAGE,
    VERSION_OPTIONS,
    command_rows,
    interrupted,
)


class CliError(click.ClickException):
    """One line on stderr, ``fscli: error: ...``, and the error's exit code."""

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.exit_code = exit_code

    def show(self, file=None) -> None:
        # One line, whatever the input: line breaks and control characters are escaped.
        line = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in self.message)
        click.echo(f"fscli: error: {line}", err=True)


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when that subcommand runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        spec = COMMANDS.get(name) or HIDDEN.get(name)
        if spec is None:
            return None
        from importlib import import_module

        return getattr(import_module(spec[0]), spec[1])

    def invoke(self, ctx: click.Context):
        """Run the subcommand; turn user errors into one line and an exit code."""
        from fscli.errors import FscliError

        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except FscliError as exc:
            if _debug(ctx):
                raise
            raise CliError(exc.message, exc.exit_code) from None
        except KeyboardInterrupt:
            interrupted()
        except BrokenPipeError:
            os._exit(0)
        except Exception as exc:
            if _debug(ctx):
                raise
            raise CliError(
                f"internal error: {exc.__class__.__name__}: {exc} "
                "(run with --debug for the traceback)",
                70,
            ) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl(command_rows())


@click.group(cls=LazyGroup, context_settings={"help_option_names": HELP_OPTIONS})
@click.option(
    "--db",
    envvar="FSCLI_DB",
    metavar="URL",
    help="Store: SQLAlchemy URL or SQLite file (default: ~/.local/share/fscli/fscli.db).",
)
@click.option(
    "--cluster",
    envvar="FSCLI_CLUSTER",
    metavar="NAME",
    help="Cluster to work on.",
    shell_complete=NamesCompleter("cluster"),
)
@click.option(
    "--at",
    "at",
    envvar="FSCLI_AT",
    metavar="TIME",
    help="Evaluate as of TIME (ISO 8601, now, now-2days; env FSCLI_AT).",
)
@click.option("-Q", "--quiet", is_flag=True, help="No change summaries on stderr.")
@click.option("--debug", is_flag=True, help="Show the traceback of an error.")
@click.option(
    "--read-only",
    envvar="FSCLI_READ_ONLY",
    is_flag=True,
    help="Refuse every change to the store (for viewers; env FSCLI_READ_ONLY=1).",
)
@click.version_option(__version__, *VERSION_OPTIONS, prog_name=PROG, message=VERSION_MESSAGE)
@click.pass_context
def cli(
    ctx: click.Context,
    db: str | None,
    cluster: str | None,
    at: str | None,
    quiet: bool,
    debug: bool,
    read_only: bool,
) -> None:
    """fscli: fair-share, job priority and limits for HPC administrators.

    \b
    Example:
      fscli account add physics parent=science fairshare=40
      fscli sshare -a -l
    """
    from fscli.cli.app import App

    ctx.obj = App(db=db, cluster=cluster, at=at, quiet=quiet, debug=debug, read_only=read_only)
    ctx.call_on_close(ctx.obj.close)
    if at:
        from fscli.errors import FscliError

        try:
            _ = ctx.obj.now  # a malformed --at is an error even for commands that ignore time
        except FscliError as exc:
            raise CliError(exc.message, exc.exit_code) from None


def _debug(ctx: click.Context) -> bool:
    """``--debug`` was given (ctx.obj is set once the group's callback ran)."""
    return bool(getattr(ctx.obj, "debug", False)) or "--debug" in sys.argv
