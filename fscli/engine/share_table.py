"""sshare's rows as plain columns: what the pass cache keeps of a fair-share result.

A :class:`~fscli.engine.fairshare.FairShareResult` holds the tree, the computed columns
and what ``--explain`` reads; the views that print rows (sshare, tree, the API's
``Shares`` rows) need only the rows, in sshare's order. :func:`table_of` takes those out
as one list per :class:`~fscli.engine.fairshare.ShareRow` field (plain data: lists of
numbers, strings and None, which ``marshal`` keeps exactly), and
:class:`ShareTable` gives them back as the result gives them: whole rows, rows in pieces,
columns in pieces.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence

from fscli.engine.fairshare import FairShareResult, ShareRow, grp_tres_mins

GRP_TRES_MINS = len(ShareRow._fields) - 1
"""GrpTRESMins is the rows' last field."""


def table_of(result: FairShareResult) -> list[Sequence]:
    """``result``'s rows in sshare's order, one list per ``ShareRow`` field (in their
    order) but GrpTRESMins, made from the engine's columns without a row object: the
    only field that the associations' settings give, and the rows the same with or
    without them (:func:`with_grp_tres_mins` adds it). The columns as picked (tuples,
    mostly: copying them into lists took 13 ms at 100,000 associations)."""
    (columns,) = result.column_chunks(max(len(result.tree.order), 1))
    return [columns[name] for name in ShareRow._fields[:GRP_TRES_MINS]]


def parents_of(table: Sequence[Sequence]) -> dict[int, int | None]:
    """Each row's association id -> its parent's (None: the root), from the rows alone:
    in sshare's order every row comes after its parent, the last account row one level
    up (``depth`` is the tree's)."""
    fields = ShareRow._fields
    ids, users, depths = (table[fields.index(name)] for name in ("assoc_id", "user", "depth"))
    above: list[int] = []  # the accounts from the root down to the row before
    parents: dict[int, int | None] = {}
    for assoc_id, user, depth in zip(ids, users, depths):
        del above[depth:]
        parents[assoc_id] = above[-1] if above else None
        if user is None:
            above.append(assoc_id)
    return parents


def with_grp_tres_mins(table: Sequence[Sequence], limits: Mapping[int, Mapping]) -> list[Sequence]:
    """A :func:`table_of` table with each row's GrpTRESMins from ``limits`` (association
    id -> its limits; one without: blank, as every row read without settings). Few
    associations set a limit: the column is made blank, then those rows filled in."""
    ids = table[0]
    column: list[dict[str, int] | None] = [None] * len(ids)
    if limits:
        place = dict(zip(ids, range(len(ids))))
        for assoc_id, its in limits.items():
            if assoc_id in place:
                column[place[assoc_id]] = grp_tres_mins(its)
    return [*table, column]


class ShareTable:
    """Rows kept as columns (:func:`table_of`), offering what the views read of a
    :class:`~fscli.engine.fairshare.FairShareResult`: ``rows``, ``row_chunks``,
    ``column_chunks``."""

    def __init__(self, columns: Sequence[Sequence]):
        self._columns = columns
        self._rows: list[ShareRow] | None = None

    def __len__(self) -> int:
        return len(self._columns[0])

    @property
    def rows(self) -> list[ShareRow]:
        if self._rows is None:
            self._rows = _rows(self._columns)
        return self._rows

    def row_chunks(self, size: int) -> Iterator[list[ShareRow]]:
        """Until :attr:`rows` is asked for, each piece is made when it is reached."""
        if self._rows is not None:
            rows = self._rows
            yield from (rows[start : start + size] for start in range(0, len(rows), size))
            return
        for start in range(0, len(self), size):
            yield _rows([column[start : start + size] for column in self._columns])

    def column_chunks(self, size: int) -> Iterator[Mapping[str, Sequence]]:
        for start in range(0, len(self), size):
            yield {
                name: column[start : start + size]
                for name, column in zip(ShareRow._fields, self._columns)
            }


def _rows(columns: Sequence[Sequence]) -> list[ShareRow]:
    return list(map(tuple.__new__, itertools.repeat(ShareRow), zip(*columns)))
