"""The store's stamp: which committed state of an SQLite store a read transaction sees.

``PRAGMA data_version`` only tells one connection about another's commits, and a file's
size and mtime miss writes within one clock tick. So every table has three triggers
(:func:`fscli.store.pass_cache.install`) that set the one row of ``fscli_stamp`` to a
random number on any insert, update or delete, by fscli or by any other program: the
stamp, read in the same read transaction as the data, names that committed state. A
random number, not a counter: a restored backup brings back its own stamp, with its own
data, and never one that named other data. A table without its triggers (one made by a
later migration that did not install them, or rebuilt by one) means no stamp
(:func:`stamp` counts them). Servers have no stamp.

The pass cache and the answer cache trust what they kept only for the stamp it was
computed at. A leaf: an answer is replayed with it before anything else is imported
(``_sqlite3`` holds the classes ``sqlite3`` re-exports, without its imports: 2-3 ms).
"""

from __future__ import annotations

from _sqlite3 import Connection, Error

STAMP_TABLE = "fscli_stamp"
TRIGGER_PREFIX = "fscli_stamp_"
_STAMP_SQL = (
    f"SELECT (SELECT stamp FROM {STAMP_TABLE}), "
    "(SELECT count(*) FROM sqlite_master WHERE type = 'table' "
    f"AND name NOT LIKE 'sqlite_%' AND name != '{STAMP_TABLE}'), "
    "(SELECT count(*) FROM sqlite_master WHERE type = 'trigger' "
    f"AND name LIKE '{TRIGGER_PREFIX}%')"
)


def stamp(conn) -> int | None:
    """The store's version as read in ``conn``'s transaction; None when no cache can be
    trusted (a server, or a table without its triggers)."""
    if not isinstance(conn, Connection):
        return None
    try:
        value, tables, triggers = conn.execute(_STAMP_SQL).fetchone()
    except Error:  # a store without the stamp table
        return None
    if value is None or triggers != 3 * tables:
        return None
    return value
