"""fscli as a Python library: the service layer between the commands and the store.

>>> import fscli
>>> with fscli.open_store("site.db") as store:          # doctest: +SKIP
...     for row in store.shares(cluster="c1"):
...         print(row.account, row.user, row.fairshare)

Every command of the CLI is a parse of its words, one call here, and a rendering of the
answer; see docs/api.md.
"""

from __future__ import annotations

from typing import Any

from fscli.api.store import Store, open_store

__all__ = ["Priorities", "Shares", "Store", "open_store"]


def __getattr__(name: str) -> Any:
    """The result types, imported when first named: a command that answers with others
    (``limits check``) does not pay for their dataclasses."""
    if name in ("Priorities", "Shares"):
        from fscli.api import results

        return getattr(results, name)
    raise AttributeError(f"module 'fscli.api' has no attribute {name!r}")
