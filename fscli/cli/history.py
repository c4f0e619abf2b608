"""``fscli history`` — every change, like ``sacctmgr list transactions``."""

from __future__ import annotations

import click

from fscli.cli.output import output_options


@click.command()
@click.option(
    "--since", metavar="TIME", help="Only changes at or after TIME (ISO 8601, now-7days)."
)
@output_options
@click.pass_obj
def history(app, since, out) -> None:
    """List recorded changes: time, actor, action, target, detail.

    \b
    Example:
      fscli history --since now-7days -P
    """
    from fscli.api.when import moment
    from fscli.engine.timestr import format_when

    start = moment(since, app.now) if since else None
    rows = [
        [format_when(c.at), c.actor, c.action, c.target, c.detail] for c in app.store.history(start)
    ]
    out.emit(["Time", "Actor", "Action", "Target", "Detail"], rows, "transactions")
