"""Names for shell completion, and where stores live: answers that must stay cheap.

A TAB re-runs fscli, so this module imports only the store's plain-``sqlite3`` name
lookups (:mod:`fscli.store.names`) and URL rules, never SQLAlchemy.
"""

from __future__ import annotations

from fscli.errors import StoreError

TYPE_CHECKING = False  # typing's, without importing typing: a TAB has no time for it
if TYPE_CHECKING:
    from pathlib import Path


def complete(db: str | None, kind: str, prefix: str) -> list[str]:
    """Names of one ``kind`` (``account``, ``user``, ``qos``, ``partition``, ``cluster``,
    ``queue``, ``job``) starting with ``prefix`` in the store ``db`` names (``--db``, else
    ``FSCLI_DB``, else the default file); nothing, never an error, without a store."""
    from fscli.store.db import resolve_url
    from fscli.store.names import names

    try:
        path = resolve_url(db).file
    except StoreError:  # "--db ~nosuchuser/x.db": no home directory to expand
        return []
    return names(path, kind, prefix)


def demo_store_path() -> Path:
    """``fscli demo``'s own store, beside the default one (never the admin's store)."""
    from fscli.store.db import demo_path

    return demo_path()


def shown_location(db: str) -> str:
    """A ``--db`` value as messages and pictures may show it: never a password."""
    from fscli.store.db import display_url

    return display_url(db)
