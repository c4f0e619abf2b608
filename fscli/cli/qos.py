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

BASE_KEYS = {
    "name": ("names",),
    "priority": (),
    "flags": (),
    "usagefactor": (),
    "limitfactor": (),
    "usagethreshold": ("usagethres",),
    "gracetime": (),
    "description": ("descr",),
}
KEYS = key_table(BASE_KEYS, "qos")
SETTINGS = {"context_settings": {"ignore_unknown_options": True}}


def qos_changes(parsed, command: str):
    from fscli.engine import limitdefs
    from fscli.engine.timestr import parse_duration_secs
    from fscli.errors import UsageProblem
    from fscli.store.assoc_fields import parse_priority
    from fscli.store.resources import QosChanges, parse_flags, parse_float

    changes = QosChanges()
    for key, word in parsed.values.items():
        if word.op != "=" and key != "flags":
            raise UsageProblem(
                f"'{key}{word.op}' is not allowed in {command}: only flags+= and flags-="
            )
        value = word.value
        if key == "priority":
            prio = parse_priority(value)
            changes.values["priority"] = 0 if prio is limitdefs.CLEAR else prio
        elif key == "flags":
            changes.flags = (word.op, parse_flags(value))
        elif key == "usagefactor":
            changes.values["usage_factor"] = parse_float("UsageFactor", value)
        elif key == "limitfactor":
            changes.values["limit_factor"] = parse_float("LimitFactor", value, clear=True)
        elif key == "usagethreshold":
            changes.values["usage_threshold"] = parse_float(
                "UsageThreshold", value, 0.0, 1.0, clear=True
            )
        elif key == "gracetime":
            changes.values["grace_time"] = parse_duration_secs(value, "GraceTime")
        elif key == "description":
            changes.values["description"] = value
        else:
            defn = limitdefs.lookup(key)
            changes.limits[defn.name] = limitdefs.parse_limit(defn, value)
    return changes


def _write(app, words, dry_run: bool, verb: str, writer) -> None:
    """``qos add|modify``: the same words and values; ``writer`` adds or changes the named QOS."""
    from fscli.store.admin import Admin

    command = f"qos {verb}"
    parsed = parse_words(words, KEYS, command, modify=verb == "modify")
    reject_unused(parsed, ("name",), command)
    changes = qos_changes(parsed, command)
    with app.transaction(dry_run) as session:
        lines = writer(Admin(session, app.now, app.actor), parsed.all_names(), changes)
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
    from fscli.store.resources import add_qos

    _write(app, words, dry_run, "add", add_qos)


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
    from fscli.store.resources import modify_qos

    _write(app, words, dry_run, "modify", modify_qos)


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
    from fscli.store.admin import Admin
    from fscli.store.resources import delete_qos

    names = delete_words(words, KEYS, "qos delete", ("name",), modify=False).all_names()
    if not names:
        raise UsageProblem("name the QOS to delete")
    with app.transaction(dry_run) as session:
        lines = delete_qos(Admin(session, app.now, app.actor), names)
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
    from fscli.engine import limitdefs
    from fscli.engine.timestr import format_secs
    from fscli.store.snapshot import load_qos

    def factor(value: float | None) -> str | float | None:
        return value if out.json else "" if value is None else f"{value:f}"

    with app.reading() as conn:
        qos_map = load_qos(conn)
    columns = ["Name", "Priority", "GraceTime", "Flags", "UsageThres", "UsageFactor", "LimitFactor"]
    columns += [d.name for d in limitdefs.QOS_LIMITS]
    rows = []
    for q in sorted(qos_map.values(), key=lambda q: q.name):
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
