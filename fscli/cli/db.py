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
    from fscli.store.db import HEAD, display_url, resolve_url

    _ = app.engine  # opening creates or migrates
    app.say(f"store {display_url(resolve_url(app.db).url)} is at schema {HEAD}")


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
    from pathlib import Path

    from fscli.errors import NotFound, UsageProblem
    from fscli.store.db import backup_sqlite, resolve_url

    url = resolve_url(app.db)
    if url.sqlite_path is None:
        raise UsageProblem(
            "db backup copies SQLite stores; for PostgreSQL use pg_dump, for MariaDB mariadb-dump"
        )
    if not url.sqlite_path.exists():
        raise NotFound(f"no store at {url.sqlite_path}; nothing to back up")
    _ = app.engine  # refuse non-stores and bring an old store to the current schema first
    backup_sqlite(url.sqlite_path, Path(file).expanduser())
    app.say(f"backed up {url.sqlite_path} to {file}")
