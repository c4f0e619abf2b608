"""The answer cache's store side: its entries, and the store state a command read.

A read command's printed answer is kept in a file of this user's cache folder
(``$XDG_CACHE_HOME/fscli/answers``, beside the pass cache: :mod:`fscli.store.pass_cache`,
whose helpers it shares), with the store state it was read at: the ``fscli_stamp`` of
that read transaction (:func:`fscli.store.stamp.stamp`), and the store file's path and
identity (device and inode). A replay (:mod:`fscli.api.answers`) trusts an entry only
while the store file is the same file and its stamp is the same: any write to the store,
by fscli or by another program, sets a new stamp.

What a command read is :mod:`fscli.store.read_states`' business.

The entries are ``marshal`` data and raw bytes (no code runs when one is read), written
atomically, and read only when this user wrote them.
"""

from __future__ import annotations

import marshal
import os
from _sqlite3 import Connection, Error, connect  # sqlite3's, without its imports: 2-3 ms

from fscli.store.stamp import stamp
from fscli.store.user_cache import cache_root, trusted, write_atomically

FORMAT = 1
"""Bumped when an entry's layout changes: older entries are then never read."""


def next_charge(conn, cluster_id: int, after: int, until: int) -> int | None:
    """The first moment in (``after``, ``until``] at which a charge of the cluster falls:
    the views read charges made up to their moment only."""
    sql = (
        'SELECT min("at") FROM "usage" WHERE "at" > ? AND "at" <= ? AND assoc_id IN '
        "(SELECT id FROM association WHERE cluster_id = ?)"
    )
    if isinstance(conn, Connection):
        return conn.execute(sql, (after, until, cluster_id)).fetchone()[0]
    return None  # a server's store: no answer is recorded from it anyway


def current_state(state: tuple) -> int | None:
    """The stamp now of the store file a kept ``state`` (:func:`entry_state`) names, if it
    is still the same file and its stamp can be trusted; None otherwise, or when it cannot
    be read at once (a writer holds it: its stamp is about to change anyway)."""
    _, path, dev, ino, uri = state
    try:
        info = os.stat(path)
        if (info.st_dev, info.st_ino) != (dev, ino):
            return None
        conn = connect(uri, uri=True, timeout=0.05)
    except (OSError, Error):
        return None
    try:
        return stamp(conn)
    finally:
        conn.close()


def entry_state(read: tuple) -> tuple:
    """A store state as :mod:`fscli.store.read_states` notes it, as an entry keeps it:
    with the read-only URI that opens the file (so that a replay needs no
    :mod:`fscli.store.db`)."""
    from fscli.store.db import sqlite_uri

    return (*read, sqlite_uri(read[1]))


def folder() -> str:
    return os.path.join(cache_root(), "answers")


def read_entry(name: str) -> tuple[tuple, bytes] | None:
    """(head, answer) of the entry ``name``; None when there is none, or it is not this
    user's, not of this :data:`FORMAT`, or unreadable."""
    try:
        with open(os.path.join(folder(), name), "rb") as handle:
            if not trusted(handle):
                return None
            data = handle.read()
        size = int.from_bytes(data[:4], "little")
        head = marshal.loads(data[4 : 4 + size])
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(head, tuple) or not head or head[0] != FORMAT:
        return None
    return head, data[4 + size :]


def write_entry(name: str, head: tuple, answer: bytes) -> None:
    """Keep ``answer`` with its ``head`` (:data:`FORMAT` first) as the entry ``name``,
    and the newest :data:`KEPT` entries only."""
    data = marshal.dumps((FORMAT, *head))
    where = folder()
    entry = len(data).to_bytes(4, "little") + data + answer
    write_atomically(where, os.path.join(where, name), entry)
    _prune(where)


KEPT = 256
"""Entries kept: one per question (command line, environment, ...) asked, the newest."""


def _prune(where: str) -> None:
    """Remove all but the :data:`KEPT` newest entries (an answer per ``--at`` moment a
    script asks for would grow the folder without end)."""
    try:
        with os.scandir(where) as found:
            aged = sorted((item.stat().st_mtime_ns, item.path) for item in found)
        for _, path in aged[:-KEPT]:
            os.unlink(path)
    except OSError:
        pass
