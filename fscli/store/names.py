"""Names in a store file, for shell completion: plain ``sqlite3``, no SQLAlchemy.

Every TAB re-runs fscli, so names are read with the standard ``sqlite3`` module through
range queries on the names' unique indexes: a TAB answers in tens of milliseconds even
with 100,000 associations. A server store completes no names (its driver alone would
take longer to import than a TAB may take).
"""

from __future__ import annotations

import os
import sqlite3

from fscli.engine.job_states import ACTIVE_STATES
from fscli.store.db import sqlite_uri

# kind -> query of the names in [low, high): a range on the name's index, not a LIKE scan
QUERIES = {
    "account": "SELECT name FROM account WHERE name >= ? AND name < ? ORDER BY name",
    "user": "SELECT name FROM user_account WHERE name >= ? AND name < ? ORDER BY name",
    "qos": "SELECT name FROM qos WHERE name >= ? AND name < ? ORDER BY name",
    "partition": "SELECT DISTINCT name FROM partition WHERE name >= ? AND name < ? ORDER BY name",
    "cluster": "SELECT name FROM cluster WHERE name >= ? AND name < ? ORDER BY name",
    "queue": "SELECT name FROM lsf_queue WHERE name >= ? AND name < ? ORDER BY name",
    # sshare --explain: ACCOUNT or USER/ACCOUNT
    "assoc": "SELECT name FROM account WHERE name >= ?1 AND name < ?2 UNION "
    "SELECT user || '/' || account FROM association WHERE user IS NOT NULL "
    "AND user || '/' || account >= ?1 AND user || '/' || account < ?2 ORDER BY 1",
    "job": "SELECT CAST(id AS TEXT) FROM job WHERE CAST(id AS TEXT) >= ? AND CAST(id AS TEXT) < ? "
    f"AND state IN ({', '.join(repr(s) for s in ACTIVE_STATES)}) ORDER BY id",
}
KINDS = tuple(QUERIES)
CASE_SENSITIVE = {"partition"}  # the store keeps every other kind of name in lower case
AFTER_ALL = "\U0010ffff"  # sorts after every character a name can hold


def names(path: str | None, kind: str, prefix: str) -> list[str]:
    """Names of one kind in the store file ``path`` starting with ``prefix`` (active job
    ids for ``job``); nothing, never an error, without a readable store."""
    if path is None or not os.path.exists(path):
        return []
    low = prefix if kind in CASE_SENSITIVE else prefix.lower()
    try:
        conn = sqlite3.connect(sqlite_uri(path), uri=True, timeout=0.05)
        try:
            return [row[0] for row in conn.execute(QUERIES[kind], (low, low + AFTER_ALL))]
        finally:
            conn.close()
    except sqlite3.Error:
        return []
