"""``fscli history`` — every change, like ``sacctmgr list transactions``: an audit log
whose rows say what each setting was and became (``fairshare=70 -> 120``), filtered by
cluster, object, actor, action and time."""

from __future__ import annotations

import click

from fscli.cli.complete import NamesCompleter
from fscli.cli.output import output_options


@click.command()
@click.option(
    "--since", metavar="TIME", help="Only changes at or after TIME (ISO 8601, now-7days)."
)
@click.option("--until", metavar="TIME", help="Only changes at or before TIME.")
@click.option(
    "--cluster",
    metavar="NAME",
    shell_complete=NamesCompleter("cluster"),
    help="Only changes made on cluster NAME (QOS and users belong to none).",
)
@click.option(
    "--object",
    "target",
    metavar="NAME",
    help="Only changes to an object named NAME (account, user, QOS, partition, setting).",
)
@click.option("--actor", metavar="USER", help="Only changes made by USER (the Actor column).")
@click.option(
    "--action",
    metavar="WORDS",
    help="Only actions with every one of WORDS ('modify', 'delete qos', 'config').",
)
@output_options
@click.pass_obj
def history(app, since, until, cluster, target, actor, action, out) -> None:
    """List recorded changes: time, actor, action, target, and each setting changed as
    KEY=OLD -> NEW (- when unset), in the units the commands take. Rows written before
    fscli kept old values show the new ones only. --json gives each row's cluster and
    its changes as {Key, Old, New} too.

    \b
    Example:
      fscli history --since now-7days -P
      fscli history --object chem --action modify
      fscli history --cluster c1 --actor root --until 2026-05-01T00:00:00 --json
    """
    from fscli.api.when import moment
    from fscli.engine.timestr import format_when

    found = app.store.history(
        moment(since, app.now) if since else None,
        moment(until, app.now) if until else None,
        cluster=cluster,
        target=target,
        actor=actor,
        action=action,
    )
    columns = ["Time", "Actor", "Action", "Target", "Detail"]
    rows = [[format_when(c.at), c.actor, c.action, c.target, c.detail] for c in found]
    if out.json:
        columns += ["Cluster", "Changes"]
        for row, change in zip(rows, found):
            row += [change.cluster, _changes(change.changes)]
    out.emit(columns, rows, "transactions")


def _changes(changes) -> list[dict] | None:
    """A row's (key, old, new) triples as JSON objects (null: no old values kept)."""
    if changes is None:
        return None
    return [{"Key": key, "Old": old, "New": new} for key, old, new in changes]
