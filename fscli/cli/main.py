"""The ``fscli`` command group.

Only click is imported here: each subcommand lives in its own module, imported when it
is run (``LazyGroup``), so ``fscli --help`` and shell completion stay fast. Errors a user
can cause (:class:`fscli.errors.FscliError`) become one line on stderr and exit 1 or 2;
``--debug`` shows the traceback that is otherwise hidden; Ctrl-C exits 130 with one line.
"""

from __future__ import annotations

import os
import sys

import click

from fscli import __version__

# name -> (module, attribute, one-line help shown by `fscli --help`)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "account": ("fscli.cli.account", "account", "Add, modify, delete and list accounts."),
    "apply": ("fscli.cli.trees", "apply", "Make the store match a YAML tree (plan, then apply)."),
    "assoc": ("fscli.cli.assoc", "assoc", "List associations (flat or as a tree)."),
    "bqueues": ("fscli.cli.lsf", "bqueues", "LSF queue view with the fairshare block."),
    "cluster": ("fscli.cli.cluster", "cluster", "Add, modify, delete and list clusters."),
    "compare": (
        "fscli.cli.lsf",
        "compare",
        "Rank users under Slurm and LSF policies side by side.",
    ),
    "config": ("fscli.cli.config", "config", "Priority configuration (slurm.conf names)."),
    "db": ("fscli.cli.db", "db", "Store schema: upgrade, current version."),
    "demo": ("fscli.cli.demo", "demo", "Build a demo cluster and show what fscli does."),
    "dump": ("fscli.cli.trees", "dump", "Write a sacctmgr dump flat file."),
    "export": ("fscli.cli.trees", "export", "Export the whole cluster (YAML or dump format)."),
    "history": ("fscli.cli.history", "history", "Every change made to the store."),
    "job": ("fscli.cli.job", "job", "Submit, list, cancel and import jobs."),
    "limits": ("fscli.cli.limits", "limits", "Set, show, resolve and check limits."),
    "load": ("fscli.cli.trees", "load", "Read a sacctmgr dump flat file into the store."),
    "lsf": ("fscli.cli.lsf", "lsf", "LSF fairshare: parameters, queues, user groups."),
    "partition": ("fscli.cli.partition", "partition", "Add, modify, delete and list partitions."),
    "plot": ("fscli.cli.plot", "plot", "Draw usage, shares, sprio or LSF as a chart (SVG/PNG)."),
    "qos": ("fscli.cli.qos", "qos", "Add, modify, delete and list QOS."),
    "sacctmgr": (
        "fscli.cli.sacctmgr",
        "sacctmgr",
        "Run sacctmgr command lines (22.05 grammar, output, exit codes).",
    ),
    "sprio": ("fscli.cli.sprio", "sprio", "Job priority factors, like sprio."),
    "sshare": ("fscli.cli.sshare", "sshare", "Fair-share of every association, like sshare."),
    "tree": ("fscli.cli.tree", "tree", "The account tree with shares, usage and fair-share."),
    "usage": ("fscli.cli.usage", "usage", "Charge, set and import usage."),
    "user": ("fscli.cli.user", "user", "Add, modify, delete and list users."),
}


def available_commands() -> dict[str, tuple[str, str, str]]:
    """Commands whose module exists in this build (later issues add the others)."""
    from importlib.util import find_spec

    return {name: spec for name, spec in COMMANDS.items() if find_spec(spec[0]) is not None}


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
        return sorted(available_commands())

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        spec = available_commands().get(name)
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
        rows = [(name, spec[2]) for name, spec in sorted(available_commands().items())]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


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
    shell_complete=lambda ctx, _param, incomplete: _cluster_names(ctx, incomplete),
)
@click.option("--at", "at", metavar="TIME", help="Evaluate as of TIME (ISO 8601, now, now-2days).")
@click.option("-Q", "--quiet", is_flag=True, help="No change summaries on stderr.")
@click.option("--debug", is_flag=True, help="Show the traceback of an error.")
@click.option(
    "--read-only",
    envvar="FSCLI_READ_ONLY",
    is_flag=True,
    help="Refuse every change to the store (for viewers; env FSCLI_READ_ONLY=1).",
)
@click.version_option(__version__, prog_name="fscli")
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


def _cluster_names(ctx: click.Context, incomplete: str) -> list[str]:
    from fscli.cli.complete import names

    return names(ctx, "cluster", incomplete)


def interrupted() -> None:
    """Ctrl-C: one line on stderr, no traceback, exit 130 (128 + SIGINT) like a shell."""
    click.echo("Interrupted", err=True)
    sys.exit(130)


def main(argv: list[str] | None = None) -> None:
    """Console entry point."""
    try:
        cli.main(args=argv, prog_name="fscli")
    except KeyboardInterrupt:
        interrupted()


def console() -> None:
    """The ``fscli`` program: :func:`main`, then leave without tearing the heap down.

    A view may hold a few hundred thousand objects when it ends, and freeing them one by
    one at interpreter exit costs about 0.3 s at 100,000 jobs, for nothing. By then every
    transaction is committed and the store disposed of, so flush the output and exit.
    """
    try:
        main()
        code = 0
    except SystemExit as exc:
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
        code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    os._exit(code)
