"""The store state a command read, for the answer cache (:mod:`fscli.store.answers`).

While a command may be recorded (:func:`listen`), every read transaction it opens notes
the stamp it read at (:func:`note_read`, from the views' plain ``sqlite3`` connection:
:func:`fscli.store.session.viewing`); any other connection to a store (an SQLAlchemy
engine, a writer) notes that it cannot say (:func:`note_unsure`). :func:`state_read` is
the one state all of them saw, or None: then the answer is not kept.
"""

from __future__ import annotations

import os

from fscli.store.stamp import stamp

StoreState = tuple  # (stamp, store file path, st_dev, st_ino)

_reads: list[StoreState | None] | None = None
"""What each read transaction of this process saw, while :func:`listen` is on."""


def listen() -> None:
    """Note the store state of every read from now on (a command that may be recorded)."""
    global _reads
    _reads = []


def listening() -> bool:
    return _reads is not None


def note_read(conn) -> None:
    """The state ``conn``'s read transaction (a plain ``sqlite3`` one, just begun) sees:
    its stamp, in that same transaction, and the file it reads."""
    if _reads is None:
        return
    value = stamp(conn)
    path = next((p for _, name, p in conn.execute("PRAGMA database_list") if name == "main"), "")
    try:
        info = os.stat(path)
    except OSError:
        value = None
    _reads.append(None if value is None else (value, path, info.st_dev, info.st_ino))


def note_unsure() -> None:
    """A connection whose store state is not known (a server, an engine, a writer)."""
    if _reads is not None:
        _reads.append(None)


def state_read() -> StoreState | None:
    """The one store state every read of this process saw since :func:`listen`; None when
    nothing was read, or any read was not stamped, or two reads saw different states."""
    if not _reads or None in _reads or len(set(_reads)) != 1:
        return None
    return _reads[0]
