"""``fscli db upgrade|current`` — the store's schema version."""

from __future__ import annotations

import click


@click.group()
def db() -> None:
    """The store's schema (Alembic migrations).

    \b
    Example:
      fscli db current
    """


@db.command()
@click.pass_obj
def upgrade(app) -> None:
    """Create or migrate the store to the newest schema.

    \b
    Example:
      fscli --db /srv/fscli.db db upgrade
    """
    from fscli.store.db import HEAD, resolve_url

    app.engine  # opening creates or migrates
    app.say(f"store {resolve_url(app.db).url} is at schema {HEAD}")


@db.command()
@click.pass_obj
def current(app) -> None:
    """Print the store's schema version.

    \b
    Example:
      fscli db current
    """
    from fscli.store.db import current_revision

    click.echo(current_revision(app.engine) or "none")
