"""fscli as a Python library: the service layer between the commands and the store.

>>> import fscli
>>> with fscli.open_store("site.db") as store:          # doctest: +SKIP
...     for row in store.shares(cluster="c1"):
...         print(row.account, row.user, row.fairshare)

Every command of the CLI is a parse of its words, one call here, and a rendering of the
answer; see docs/api.md.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from fscli.api.results import Priorities, Shares
    from fscli.api.store import Store, open_store

__all__ = ["Priorities", "Shares", "Store", "open_store"]


def __getattr__(name: str) -> Any:
    """The store and the result types, imported when first named: a command that answers
    with others (``limits check``) does not pay for their dataclasses, and a TAB, which
    reads names through :mod:`fscli.api.names`, for none of them."""
    if name in ("Store", "open_store"):
        from fscli.api import store

        return getattr(store, name)
    if name in ("Priorities", "Shares"):
        from fscli.api import results

        return getattr(results, name)
    raise AttributeError(f"module 'fscli.api' has no attribute {name!r}")
