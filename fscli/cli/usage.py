"""``fscli usage add|set|import`` — charge usage to associations, or import it from Slurm."""

from __future__ import annotations

import sys

import click

from fscli.cli.complete import words_completer
from fscli.cli.output import dry_run_option, report
from fscli.cli.words import key_table

KEYS = key_table(
    {
        "user": ("users",),
        "account": ("accounts", "acct"),
        "cluster": ("clusters",),
        "raw": ("rawusage", "usage"),
        "at": ("time", "when"),
    },
    None,
)
SETTINGS = {"context_settings": {"ignore_unknown_options": True}}


def read_text(path: str) -> str:
    """A file's text (``-`` = stdin); an unreadable file is one clear error."""
    from fscli.errors import InvalidValue

    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidValue(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def _charge(app, words, dry_run: bool, command: str) -> None:
    from fscli.cli.words import parse_words
    from fscli.engine.timestr import parse_when
    from fscli.errors import UsageProblem
    from fscli.io.usage_import import usage_amount

    parsed = parse_words(words, KEYS, command)
    if parsed.names:
        raise UsageProblem(
            f"unexpected word '{parsed.names[0]}' in {command}: "
            "expected user=U account=A raw=N [at=TIME]"
        )
    account, raw = parsed.get("account"), parsed.get("raw")
    if not account or raw is None:
        raise UsageProblem(f"{command} needs account=A and raw=N (and user=U for a user)")
    amount = usage_amount(raw, "usage")
    at = parse_when(when, app.now) if (when := parsed.get("at")) else app.now
    with app.changes(dry_run) as tx:
        charge = tx.add_usage if command == "usage add" else tx.set_usage
        lines = charge(
            account, amount, at, parsed.get("user"), parsed.get("cluster") or app.cluster_name
        )
    report(app, lines, dry_run)


@click.group()
def usage() -> None:
    """Usage charges (billing TRES-seconds) that fair-share decays and ranks.

    \b
    Example:
      fscli usage add user=alice account=physics raw=3600
      fscli usage import jobs.txt --format sacct
    """


@usage.command("add", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer(None, KEYS))
@dry_run_option
@click.pass_obj
def add(app, words, dry_run) -> None:
    """Charge N billing TRES-seconds to a user (or an account itself) at TIME (default now).

    \b
    Example:
      fscli usage add user=alice account=physics raw=3600 at=now-2days
      fscli usage add account=chem raw=1200
    """
    _charge(app, words, dry_run, "usage add")


@usage.command("set", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer(None, KEYS))
@dry_run_option
@click.pass_obj
def set_(app, words, dry_run) -> None:
    """Set RawUsage as of TIME: earlier charges are replaced by one charge of N.

    \b
    Example:
      fscli usage set user=alice account=physics raw=960 at=2026-05-01T12:00:00
    """
    _charge(app, words, dry_run, "usage set")


@usage.command("import")
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--format",
    "fmt",
    default="sacct",
    show_default=True,
    metavar="sacct|sshare",
    help="sacct -P job records, or sshare -P/-p rows.",
)
@click.option(
    "--skip-unknown",
    is_flag=True,
    help="Import what matches the store; list the unknown users/accounts skipped.",
)
@dry_run_option
@click.pass_obj
def import_(app, path, fmt, skip_unknown, dry_run) -> None:
    """Import usage: sacct jobs (charged pass by pass) or sshare RawUsage (as of --at).

    \b
    Example:
      sacct -a -X -P -S now-14days -o JobID,User,Account,Partition,QOS,Start,End,AllocTRES \\
        > jobs.txt && fscli usage import jobs.txt --format sacct
      sshare -a -l -P > shares.txt && fscli usage import shares.txt --format sshare
    """
    from fscli.cli.progress import progress
    from fscli.errors import UsageProblem
    from fscli.io.usage_import import parse_sacct, parse_sshare

    fmt = fmt.lower()
    if fmt not in ("sacct", "sshare"):  # before the file is read or the store opened
        raise UsageProblem(f"unknown --format '{fmt}': expected sacct or sshare")
    text = read_text(path)
    usage = parse_sacct(text) if fmt == "sacct" else parse_sshare(text)  # before the store
    with progress(app, "importing usage") as step, app.changes(dry_run) as tx:
        lines = tx.import_usage(usage, path, skip_unknown, app.cluster_name, progress=step)
    report(app, lines, dry_run)
