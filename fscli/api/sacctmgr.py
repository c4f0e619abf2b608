"""What ``fscli sacctmgr``'s listings and ``dump`` still read straight from the store.

The writes go through :mod:`fscli.api.sacctmgr_writes` (one change: planned, shown,
committed); the reads are moving to API functions of their own
(``fscli/api/sacctmgr_reads.py``), after which this module goes.
"""

from __future__ import annotations

from fscli.store import sacctmgr_queries as queries
from fscli.store import slurmdbd_txn

__all__ = ["queries", "slurmdbd_txn"]
