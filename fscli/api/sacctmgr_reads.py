"""What ``fscli sacctmgr`` lists and dumps, read through the API.

The sacctmgr front end keeps no read model of its own: its listings read the rows the
native views read (:mod:`fscli.store.snapshot`, :mod:`fscli.store.lists`, the users'
defaults), on the views' connection (plain ``sqlite3`` on an SQLite file: ``sacctmgr -P
show assoc`` imports no SQLAlchemy, as ``assoc list`` does not), and its ``dump`` writes
the tree ``fscli dump`` writes. What sacctmgr shows of an association beyond its own
settings (inherited limits, the nested set, its list order) the engine works out
(:mod:`fscli.engine.sacctmgr_view`). Everything handed out is plain data: engine records,
names, tuples.

:func:`reading` gives one snapshot's :class:`Reads`; a write that reads in its own
transaction makes ``Reads(session)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from fscli.store import sacctmgr_queries as queries

if TYPE_CHECKING:
    from fscli.api.store import Store
    from fscli.engine.sacctmgr_view import AssocView


class Reads:
    """sacctmgr's reads on one read connection (any: a view's, a write session's)."""

    def __init__(self, conn):
        self.conn = conn

    def clusters(self) -> list[str]:
        """Every cluster's name, sorted."""
        return queries.cluster_names(self.conn)

    def views(self, clusters: list[str] | None = None, own_only: bool = False) -> list[AssocView]:
        """Every association of the clusters named (all if None) as sacctmgr lists them,
        in its order; ``own_only`` (WOPLimits): without inherited values."""
        return queries.load_view(self.conn, clusters, own_only)

    def accounts(self) -> dict[str, tuple[str, str]]:
        """Account name → (description, organization), by name."""
        return queries.accounts(self.conn)

    def users(self, clusters: list[str] | None = None) -> dict[str, tuple[str, str]]:
        """User name → (default account or "", admin level), by name; the default the
        user's on the first of ``clusters`` where it has one (all if None, in the order
        they were added)."""
        return queries.users(self.conn, clusters)

    def coordinators(self) -> dict[str, list[str]]:
        """User → the accounts it coordinates, sub-accounts included, sorted."""
        return queries.coordinators(self.conn)

    def default_ids(self) -> set[int]:
        """The ids of the associations of users' default accounts."""
        return queries.default_ids(self.conn)

    def named_tres(self) -> list[str]:
        """The TRES clusters and partitions give amounts of (``gres/gpu``, ...), sorted."""
        return queries.named_tres(self.conn)

    def places(self, cluster: str) -> dict[tuple[str, str, str | None], int]:
        """(user, account, partition) → its place among its siblings on ``cluster``."""
        return queries.places(self.conn, cluster)


@contextmanager
def reading(store: Store) -> Iterator[Reads]:
    """:class:`Reads` of one snapshot of ``store``, on the views' connection."""
    with store.viewing() as conn:
        yield Reads(conn)


def dump_text(store: Store, cluster: str) -> str | None:
    """``cluster``'s flat file as ``sacctmgr dump`` writes it: ``fscli dump``'s tree, a
    user's associations under one account in the nested set's order; None if there is no
    such cluster."""
    from fscli.api.trees import tree_spec
    from fscli.io import flatfile

    with reading(store) as reads:
        if cluster not in reads.clusters():
            return None
        places = reads.places(cluster)
    return flatfile.write(tree_spec(store, cluster), places)


def transactions(store: Store) -> tuple[list[AssocView], list[tuple]]:
    """Every association (as :meth:`Reads.views`) and slurmdbd's transaction rows
    ``fscli sacctmgr`` wrote: (id, at, action, where, actor, info, cluster), oldest first."""
    from fscli.store import slurmdbd_txn

    with store.reading() as conn:
        return Reads(conn).views(), slurmdbd_txn.read(conn)


def transaction_action(word: str) -> str | None:
    """The action sacctmgr's ``Action=`` word names (``add users`` → ``Add Users``), or
    None for none."""
    from fscli.store.slurmdbd_txn import ACTIONS

    return ACTIONS.get(word.lower())
