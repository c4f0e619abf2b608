"""``fscli sacctmgr ...``: sacctmgr 22.05 command lines over fscli's store.

With ``alias sacctmgr='fscli sacctmgr'`` an admin's scripts run unchanged: the same
options (``-i -n -p -P -Q -r -s -v -V``, and ``-M CLUSTER``), verbs, entities, keyword
abbreviations, messages, tables and exit codes as real sacctmgr (see
``tests/data/golden/slurm-22.05/sacctmgr_messages``). The grammar lives in
:mod:`.grammar`, each verb in its own module; writes are planned and committed through
the API (:mod:`fscli.api.sacctmgr_writes`: the native commands' ``Writes`` under
slurmdbd's rules), so the native commands and this front end share one implementation.
"""

from __future__ import annotations

import shlex
import sys

import click

from fscli.cli.complete import SacctmgrCompleter
from fscli.cli.sacctmgr.context import Refused, Run
from fscli.cli.sacctmgr.grammar import ENTITIES, NO_ENTITY, VERBS, OptionError, first, options
from fscli.cli.sacctmgr.words import sacctmgr_table

USAGE = """\
sacctmgr [<OPTION>] [<COMMAND>]
    Valid <OPTION> values are:
     -h or --help: equivalent to "help" command
     -i or --immediate: commit changes immediately without asking
     -n or --noheader: no header will be added to the beginning of output
     -p or --parsable: output will be '|' delimited with a '|' at the end
     -P or --parsable2: output will be '|' delimited without a '|' at the end
     -Q or --quiet: equivalent to "quiet" command
     -r or --readonly: equivalent to "readonly" command
     -s or --associations: equivalent to "associations" command
     -v or --verbose: equivalent to "verbose" command
     -V or --version: equivalent to "version" command
     -M or --cluster CLUSTER: work on CLUSTER (fscli)

  <keyword> may be omitted from the execute line and sacctmgr will execute
  in interactive mode. It will process commands as entered until explicitly
  terminated.

    Valid <COMMAND> values are:
     add|create <ENTITY> <SPECS>, modify|update <ENTITY> [where] <SPECS> set <SPECS>,
     delete|remove <ENTITY> <SPECS>, list|show <ENTITY> [<SPECS>],
     dump <CLUSTER> [file=<FILE>], load [file=]<FILE> [clean] [cluster=<CLUSTER>],
     help, exit|quit, oneliner, quiet, readonly, verbose, version.

  <ENTITY> may be account, association, cluster, coordinator, qos, tres,
  transaction, user (and event, wckey: fscli keeps none).
"""
VERSION = "slurm 22.05.8 (fscli sacctmgr)\n"


@click.command(
    context_settings={
        "ignore_unknown_options": True,
        "allow_extra_args": True,
        "help_option_names": [],
    }
)
@click.argument(
    "args", nargs=-1, type=click.UNPROCESSED, shell_complete=SacctmgrCompleter(sacctmgr_table)
)
@click.pass_obj
def sacctmgr(app, args) -> None:
    """Run a sacctmgr command line (sacctmgr 22.05's grammar, output and exit codes).

    Options, verbs, entities and keywords are sacctmgr's, abbreviations included;
    `-i` commits without asking (otherwise the commit question is read from stdin);
    `fscli sacctmgr -h` lists them. With `alias sacctmgr='fscli sacctmgr'`, sacctmgr
    scripts run unchanged against the fscli store.

    \b
    Example:
      fscli sacctmgr -i add account physics parent=science fairshare=40
      fscli sacctmgr -P show assoc format=Account,User,Share tree
    """
    raise SystemExit(main(app, list(args)))


def main(app, args: list[str]) -> int:
    """Run one sacctmgr invocation; its exit code."""
    try:
        opts = options(args)
    except OptionError as exc:
        click.echo(f'{exc}\nTry "sacctmgr --help" for more information', err=True)
        return 1
    run = Run(app, opts)
    if opts.help:
        run.out(USAGE)
        return 0
    if opts.version:
        run.out(VERSION)
        return 0
    if opts.words:
        return command(run, opts.words)
    return interactive(run)


def interactive(run: Run) -> int:
    """No command on the line: commands from stdin, one a line, until exit or the end;
    the last failure's exit code is kept, as sacctmgr does."""
    code = 0
    for line in sys.stdin:
        words = shlex.split(line)
        if not words:
            continue
        if first(words[0], VERBS) == "exit":
            break
        code = command(run, words) or code
    return code


def command(run: Run, words: list[str]) -> int:
    """One command (its words after the options)."""
    from fscli.errors import FscliError

    verb = first(words[0], VERBS)
    rest = words[1:]
    if verb is None:
        run.err(f"invalid keyword: {words[0]}\n")
        return 1
    try:
        return _dispatch(run, verb, rest)
    except Refused as stop:  # a read refused (an unknown cluster): said already
        return stop.code
    except FscliError as exc:
        run.err(f" {exc.message}\n")
        return 1


def _dispatch(run: Run, verb: str, rest: list[str]) -> int:
    from fscli.cli.sacctmgr import files, show

    flags = {"readonly": "readonly", "associations": "with_assoc"}
    if verb in flags:
        setattr(run.opts, flags[verb], True)
        return 0
    if verb in ("oneliner", "quiet", "verbose"):  # nothing reads them in sacctmgr 22.05
        return 0
    if verb == "help":
        run.out(USAGE)
        return 0
    if verb == "version":
        run.out(VERSION)
        return 0
    if verb == "dump":
        return files.dump(run, rest)
    if verb == "load":
        if run.opts.readonly:
            run.err("Can't run this command in readonly mode.\n")
            return 1
        return files.load(run, rest)
    if verb not in ENTITIES:
        run.err(
            f" fscli sacctmgr does not {verb}: fscli keeps no job records, rollups or "
            "daemon to act on (use 'fscli export' to save the store)\n"
        )
        return 1
    entity = first(rest[0], ENTITIES[verb]) if rest else None
    if entity is None:
        run.err(NO_ENTITY[verb] + "\n")
        return 1
    if verb == "list" and entity in show.LISTERS:  # without importing the writes
        return show.show(run, entity, rest[1:])
    from fscli.cli.sacctmgr import add, delete, modify, qos

    handlers = {
        ("add", "account"): add.add_account,
        ("add", "user"): add.add_user,
        ("add", "coordinator"): add.add_coordinator,
        ("add", "qos"): qos.add_qos,
        ("add", "cluster"): add.add_cluster,
        ("modify", "account"): modify.modify_account,
        ("modify", "user"): modify.modify_user,
        ("modify", "qos"): qos.modify_qos,
        ("delete", "account"): delete.delete_account,
        ("delete", "user"): delete.delete_user,
        ("delete", "coordinator"): delete.delete_coordinator,
        ("delete", "qos"): qos.delete_qos,
        ("list", "qos"): qos.list_qos,
        ("delete", "cluster"): delete.delete_cluster,
    }
    handler = handlers.get((verb, entity))
    if handler is not None:
        run.kind = (verb, entity)
        return handler(run, rest[1:])
    if verb == "list" and entity in show.EMPTY:
        return show.show_empty(run, entity)
    run.err(
        f" fscli sacctmgr cannot {verb} {entity}: fscli keeps no {entity} records "
        "(use the native 'fscli' commands for clusters and jobs)\n"
    )
    return 1
