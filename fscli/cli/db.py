"""``fscli db upgrade|current|backup`` — the store's schema version and backups."""

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
    schema = app.store.upgrade()
    app.say(f"store {app.store.location} is at schema {schema}")


@db.command()
@click.pass_obj
def current(app) -> None:
    """Print the store's schema version.

    \b
    Example:
      fscli db current
    """
    click.echo(app.store.schema() or "none")


@db.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.pass_obj
def backup(app, file) -> None:
    """Copy a live SQLite store to FILE (a consistent snapshot, mode 0600).

    Safe while other admins write: it uses SQLite's online backup, not a file copy.
    FILE must not exist. For PostgreSQL use pg_dump; for MariaDB, mariadb-dump.

    \b
    Example:
      fscli db backup /srv/backups/fscli-$(date +%F).db
    """
    source = app.store.backup(file)
    app.say(f"backed up {source} to {file}")
