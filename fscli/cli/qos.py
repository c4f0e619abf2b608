"""``fscli qos add|modify|delete|list``."""

from __future__ import annotations

import click

from fscli.cli.complete import words_completer
from fscli.cli.output import (
    NOTHING_DELETED,
    NOTHING_MODIFIED,
    dry_run_option,
    output_options,
    report,
)
from fscli.cli.words import delete_words, key_table, parse_words, reject_unused

QOS_SETTINGS = {
    "priority": (),
    "flags": (),
    "usagefactor": (),
    "limitfactor": (),
    "usagethreshold": ("usagethres",),
    "gracetime": (),
}
"""The QOS settings besides limits (with their aliases): `qos add/modify` and `limits set
qos=` (and every `--with qos=`) take the same words."""
BASE_KEYS = {"name": ("names",), **QOS_SETTINGS, "description": ("descr",)}
KEYS = key_table(BASE_KEYS, "qos")
SETTINGS = {"context_settings": {"ignore_unknown_options": True}}


def qos_changes(parsed, command: str):
    """The QOS settings among the words' values."""
    from fscli.engine.qos_changes import QosChanges, set_word
    from fscli.errors import UsageProblem

    changes = QosChanges()
    for key, word in parsed.values.items():
        if word.op != "=" and key != "flags":
            raise UsageProblem(
                f"'{key}{word.op}' is not allowed in {command}: only flags+= and flags-="
            )
        set_word(changes, key, word.op, word.value)
    return changes


def _write(app, words, dry_run: bool, verb: str) -> None:
    """``qos add|modify``: the same words and values."""
    command = f"qos {verb}"
    parsed = parse_words(words, KEYS, command, modify=verb == "modify")
    reject_unused(parsed, ("name",), command)
    changes = qos_changes(parsed, command)
    with app.changes(dry_run) as tx:
        write = tx.add_qos if verb == "add" else tx.modify_qos
        lines = write(parsed.all_names(), changes=changes)
    report(app, lines, dry_run, NOTHING_MODIFIED if verb == "modify" else "")


@click.group()
def qos() -> None:
    """Quality of service records: priority, flags, usage factor and QOS limits.

    \b
    Example:
      fscli qos add high priority=100
    """


@qos.command("add", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("qos", KEYS))
@dry_run_option
@click.pass_obj
def add(app, words, dry_run) -> None:
    """Add QOS.

    \b
    Example:
      fscli qos add high priority=100 flags=DenyOnLimit MaxJobsPerUser=10
    """
    _write(app, words, dry_run, "add")


@qos.command("modify", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("qos", KEYS))
@dry_run_option
@click.pass_obj
def modify(app, words, dry_run) -> None:
    """Change QOS settings or limits (-1 clears).

    \b
    Example:
      fscli qos modify high set flags+=OverPartQOS GrpTRES=cpu=256
    """
    _write(app, words, dry_run, "modify")


@qos.command("delete", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("qos", KEYS))
@dry_run_option
@click.pass_obj
def delete(app, words, dry_run) -> None:
    """Delete QOS (removed from association QOS lists; refused while jobs use it).

    \b
    Example:
      fscli qos delete high
    """
    from fscli.errors import UsageProblem

    names = delete_words(words, KEYS, "qos delete", ("name",), modify=False).all_names()
    if not names:
        raise UsageProblem("name the QOS to delete")
    with app.changes(dry_run) as tx:
        lines = tx.delete_qos(names)
    report(app, lines, dry_run, NOTHING_DELETED)


@qos.command("list")
@output_options
@click.pass_obj
def list_(app, out) -> None:
    """List QOS with priority, flags, factors and the limits that are set.

    \b
    Example:
      fscli qos list -P
    """
    from fscli.engine.limits import definitions as limitdefs
    from fscli.engine.timestr import format_secs

    def factor(value: float | None) -> str | float | None:
        return value if out.json else "" if value is None else f"{value:f}"

    qos_all = app.store.qos()
    columns = ["Name", "Priority", "GraceTime", "Flags", "UsageThres", "UsageFactor", "LimitFactor"]
    columns += [d.name for d in limitdefs.QOS_LIMITS]
    rows = []
    for q in qos_all:
        row = [
            q.name,
            q.priority,
            (q.grace_time or 0) if out.json else format_secs(q.grace_time or 0),  # seconds
            ",".join(sorted(q.flags)),
            factor(q.usage_threshold),
            factor(q.usage_factor),
            factor(q.limit_factor),
        ]
        row += [out.limit(d, q.limits.get(d.name)) for d in limitdefs.QOS_LIMITS]
        rows.append(row)
    out.emit(columns, rows, "qos", numeric=("Priority",), keep=("Name", "Priority"))
