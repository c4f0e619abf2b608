"""This user's fscli cache folder and its files: the pass cache's entries
(:mod:`fscli.store.pass_cache`) and the answer cache's (:mod:`fscli.store.answers`).

The folder is the user's own (mode 700), but may be shared or planted: a file is written
whole or not at all, and read only when this user wrote it. A leaf (``os`` only): an
answer is replayed with it before anything else is imported.
"""

from __future__ import annotations

import os


def cache_root() -> str:
    """This user's fscli cache folder: ``$XDG_CACHE_HOME/fscli``, else ``~/.cache/fscli``
    (the pass cache's entries, and the answer cache's: :mod:`fscli.store.answers`)."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "fscli")


def write_atomically(where: str, path: str, data: bytes) -> None:
    """``data`` as the file ``path`` in the folder ``where`` (made, mode 700, if missing),
    whole or not at all: a reader never sees half an entry. Silently nothing where the
    folder cannot be written."""
    temp = f"{path}.{os.getpid()}"
    try:
        os.makedirs(where, mode=0o700, exist_ok=True)
        with open(temp, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except (OSError, ValueError):
        try:
            os.unlink(temp)
        except OSError:
            pass


def trusted(handle) -> bool:
    """The open file ``handle`` is an entry this user wrote (the folder is the user's
    own, but may be shared)."""
    return os.fstat(handle.fileno()).st_uid == os.getuid()
