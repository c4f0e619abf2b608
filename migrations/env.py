"""Alembic environment for the fscli store.

fscli runs migrations itself (``fscli.store.db``), handing the open connection in
``config.attributes["connection"]``. Batch mode lets SQLite alter tables.
"""

from __future__ import annotations

from alembic import context

from fscli.store.tables import metadata as target_metadata


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:  # pragma: no cover - only for the alembic command line
        from sqlalchemy import create_engine

        url = context.config.get_main_option("sqlalchemy.url")
        with create_engine(url).connect() as conn:
            _run(conn)
        return
    _run(connection)


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
