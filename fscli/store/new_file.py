"""A new SQLite store that appears only when its first transaction commits.

A command that writes to a store file that does not exist yet creates the store. Made
in place, the file would stay behind when the command then fails (an unknown parent, a
sacctmgr prompt answered "n"): an empty store where there was none, which the next
command takes for the admin's. So the store is made under a name of its own beside the
file (``.NAME.new-XXXXXXXX``) and linked into place once its first transaction
commits; a command that commits nothing throws it away, with the directories made for
it. The link is atomic and never replaces a file: a store that another process made at
the same place meanwhile is kept, and this command's changes are not written.

The new file keeps SQLite's rollback journal until it is published, so that everything
committed is in that one file when it is linked; the next connection turns on WAL as it
does for every store.
"""

from __future__ import annotations

import os

from fscli.errors import StoreError
from fscli.store.db import create_at_head, create_engine_for, resolve_url


class NewStore:
    """A store made at ``temp`` for ``path``, with the directories made for it."""

    __slots__ = ("temp", "path", "made")

    def __init__(self, temp: str, path: str, made: list[str]):
        self.temp, self.path, self.made = temp, path, made

    def publish(self, empty: bool = False) -> None:
        """Link the store into place (its engine disposed of first). When a file took that
        place meanwhile, this store is thrown away: quietly when it is ``empty`` (the
        other serves as well), else with a :class:`StoreError`."""
        try:
            os.link(self.temp, self.path)
        except OSError as exc:
            if not isinstance(exc, FileExistsError) and not os.path.lexists(self.path):
                os.replace(self.temp, self.path)  # no hard links here (some network file systems)
                return
            self.discard()
            if empty:
                return
            raise StoreError(
                f"a store appeared at {self.path} while this command ran; "
                "nothing was written: run the command again"
            ) from None
        _remove(self.temp)

    def discard(self) -> None:
        """Remove the unpublished store and the directories made for it."""
        _remove(self.temp)
        _remove(self.temp + "-journal")
        _remove_dirs(self.made)


def new_store(db: str | None):
    """(engine, :class:`NewStore`) for a write to an SQLite store file that does not
    exist; None for any other store (:func:`fscli.store.db.open_engine` opens it)."""
    import errno
    import tempfile

    url = resolve_url(db)
    path = url.file
    if path is None or "?" in url.url or os.path.lexists(path):
        return None
    directory = os.path.dirname(path)
    if os.path.lexists(directory) and not os.path.isdir(directory):
        raise StoreError(f"cannot create store {path}: {os.strerror(errno.EEXIST)}")  # as mkdir
    made = _make_parents(directory, path)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.new-", dir=directory)
        os.close(fd)
    except OSError as exc:
        _remove_dirs(made)
        raise StoreError(f"cannot create store {path}: {exc.strerror}") from None
    new = NewStore(temp, path, made)
    engine = create_engine_for(resolve_url(temp), wal=False)
    try:
        with engine.execution_options(fscli_write=True).begin() as conn:
            create_at_head(conn)
    except BaseException:
        engine.dispose()
        new.discard()
        raise
    return engine, new


def _make_parents(directory: str, path: str) -> list[str]:
    """Make ``directory`` and its missing parents (for the store ``path``); the ones made,
    outermost first."""
    missing = []
    while directory and not os.path.lexists(directory):
        missing.append(directory)
        directory = os.path.dirname(directory)
    made: list[str] = []
    for each in reversed(missing):
        try:
            os.mkdir(each)
        except FileExistsError:
            continue  # made meanwhile by another process: not ours to remove
        except OSError as exc:
            _remove_dirs(made)
            raise StoreError(f"cannot create store {path}: {exc.strerror}") from None
        made.append(each)
    return made


def _remove_dirs(made: list[str]) -> None:
    for directory in reversed(made):
        try:
            os.rmdir(directory)
        except OSError:
            return  # not empty any more: something else lives there now


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
