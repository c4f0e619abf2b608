"""fscli as a Python library: the service layer between the commands and the store.

>>> import fscli
>>> with fscli.open_store("site.db") as store:          # doctest: +SKIP
...     for row in store.shares(cluster="c1"):
...         print(row.account, row.user, row.fairshare)

Every command of the CLI is a parse of its words, one call here, and a rendering of the
answer; see docs/api.md.
"""

from fscli.api.results import Priorities, Shares
from fscli.api.store import Store, open_store

__all__ = ["Priorities", "Shares", "Store", "open_store"]
