"""The ``fscli`` command group: click's side of the program (:mod:`fscli.cli.main` is the
entry, and answers a TAB without it when it can).

Each subcommand lives in its own module, imported when it is run (``LazyGroup``), so
``fscli --help`` and shell completion stay fast. Errors a user can cause
(:class:`fscli.errors.FscliError`) become one line on stderr and exit 1 or 2; ``--debug``
shows the traceback that is otherwise hidden; Ctrl-C exits 130 with one line.
"""

from __future__ import annotations

import os
import re
import sys

import click

from fscli import __version__
from fscli.cli.complete import NamesCompleter
from fscli.cli.program import COMMANDS, HIDDEN, PROG, command_rows, interrupted

PATH_KEY = "fscli.command_path"
"""``ctx.meta`` key: the words of the command being run, after ``fscli``."""


class CliError(click.ClickException):
    """One line on stderr, ``fscli: error: ...``, and the error's exit code."""

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.exit_code = exit_code  # type: ignore[misc]  # click's is per class, fscli's per error

    def show(self, file=None) -> None:
        # One line, whatever the input: line breaks and control characters are escaped.
        line = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in self.message)
        click.echo(f"fscli: error: {line}", err=True)


def usage_line(exc: click.UsageError, words: list[str] | None = None) -> CliError:
    """click's usage error (three lines: usage, a hint, the error) as one line, exit 2:
    ``fscli: error: No such option '--x' (see 'fscli user add --help')``. ``words``: the
    command's path after ``fscli`` when the error does not say (click's option parser
    raises some without a context)."""
    message = exc.format_message().rstrip(".")
    if exc.ctx is not None:
        words = exc.ctx.command_path.split(" ")[1:]
    path = " ".join([PROG, *(words or ())])
    return CliError(f"{message} (see '{path} --help')", exc.exit_code)


NOT_FOUND = re.compile(
    r"\b(account|user|QOS|partition|cluster) '([^']+)' does not exist( on cluster [^\s:;,]+)?"
    r"|\bno (association) '([^']+)'( on cluster [^\s:;,]+)?"
)
"""The part of a not-found message that names the missing object and its kind."""


def with_name_hint(ctx: click.Context, exc) -> str:
    """``exc``'s message, with "did you mean" and the closest name of the store when it
    says that an account, user, QOS, partition or cluster does not exist (as a mistyped
    key gets one): ``account 'phsics' does not exist on cluster c1 (did you mean
    'physics'?)``."""
    from fscli.errors import NotFound, did_you_mean

    message = exc.message
    found = NOT_FOUND.search(message) if isinstance(exc, NotFound) else None
    if found is None or "did you mean" in message or "(known:" in message:
        return message
    from fscli.api.names import complete

    db = ctx.find_root().params.get("db")
    kind, name = (found.group(1), found.group(2)) if found.group(1) else found.group(4, 5)
    kind = {"association": "assoc"}.get(kind, kind.lower())
    hint = did_you_mean(name, complete(db, kind, ""))
    return message[: found.end()] + hint + message[found.end() :]


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
        except click.UsageError as exc:
            raise usage_line(exc, ctx.meta.get(PATH_KEY)) from None
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except FscliError as exc:
            if _debug(ctx):
                raise
            raise CliError(with_name_hint(ctx, exc), exc.exit_code) from None
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

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """click's, noting the command's path (``user add``) for :func:`usage_line`."""
        name, cmd, rest = super().resolve_command(ctx, args)
        path, inner, after = [name], cmd, rest
        while isinstance(inner, click.Group) and after:
            inner = inner.get_command(ctx, after[0])
            if inner is None:
                break
            path.append(after[0])
            after = after[1:]
        ctx.meta[PATH_KEY] = path
        return name, cmd, rest

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise usage_line(exc) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl(command_rows())


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["--help"]})
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
@click.version_option(__version__, "--version", prog_name=PROG)
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
