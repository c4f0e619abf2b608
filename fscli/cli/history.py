"""``fscli history`` — every change, like ``sacctmgr list transactions``."""

from __future__ import annotations

import click

from fscli.cli.output import output_options


@click.command()
@click.option("--since", metavar="TIME", help="Only changes at or after TIME (ISO 8601, now-7days).")
@output_options
@click.pass_obj
def history(app, since, out) -> None:
    """List recorded changes: time, actor, action, target, detail.

    \b
    Example:
      fscli history --since now-7days -P
    """
    from sqlalchemy import select

    from fscli.engine.timestr import format_when, parse_when
    from fscli.store import tables

    log = tables.transaction_log.c
    query = select(log.at, log.actor, log.action, log.target, log.detail).order_by(log.id)
    if since:
        query = query.where(log.at >= parse_when(since, app.now))
    with app.reading() as conn:
        rows = [[format_when(at), actor, action, target, detail]
                for at, actor, action, target, detail in conn.execute(query)]
    out.emit(["Time", "Actor", "Action", "Target", "Detail"], rows, "transactions")
