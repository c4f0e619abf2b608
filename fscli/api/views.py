"""sshare's and sprio's questions and answers: one call each from the CLI.

A command asks with a query (what its options select) and gets back a selection: the
rows it prints, and what prints beside them, already filtered, judged (``--over``),
sorted and explained. How a selection is printed (table, Slurm's text, JSON, SVG) is
:mod:`fscli.render.views`' business: the API returns data and never formats it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fscli.api.results import Priorities, Shares
    from fscli.api.store import Store
    from fscli.engine.fairshare import ShareRow
    from fscli.engine.priority import PriorityColumns, PriorityRow
    from fscli.engine.whatif import WhatIf

RowFilter = Callable[[Iterable["ShareRow"]], list["ShareRow"]]


@dataclass(frozen=True)
class ShareQuery:
    """What sshare's options ask: the algorithm (None: the cluster's), the rows
    (:func:`fscli.api.shares.row_filter`'s words, ``--over``, ``--sort``), and the
    columns printed (None: every one, as ``--json`` gives them), so that the store
    reads the associations' limits, and the jobs go through again for TRES run-minutes
    and usage, only when a printed column shows them."""

    algorithm: str | None = None
    all_users: bool = False
    accounts: Sequence[str] = ()
    users: Sequence[str] = ()
    users_only: bool = False
    over: bool = False
    sort: str | None = None
    columns: Collection[str] | None = None

    def shows(self, column: str) -> bool:
        return self.columns is None or column in self.columns

    def keep(self) -> RowFilter:
        from fscli.api.shares import row_filter

        return row_filter(self.all_users, self.accounts, self.users, self.users_only)


@dataclass
class ShareSelection:
    """The rows of a :class:`~fscli.api.results.Shares` answer that a query keeps, and
    what the rows do not carry (empty where no printed column shows it)."""

    answer: Shares
    query: ShareQuery
    keep: RowFilter
    explained: list[str] | None = None  # --explain: the derivation of the one row

    @property
    def cluster(self) -> str:
        return self.answer.cluster

    @property
    def algorithm(self) -> str:
        return self.answer.algorithm

    @property
    def at(self) -> int:
        return self.answer.at

    @property
    def tres_names(self) -> Sequence[str]:
        return self.answer.tres_names

    @cached_property
    def run_minutes(self) -> Mapping[int, Mapping[str, int]]:
        return self.answer.run_minutes if self.query.shows("TRESRunMins") else {}

    @cached_property
    def tres_usage(self) -> Mapping[int, Mapping[str, float]]:
        return self.answer.tres_usage if self.query.shows("GrpTRESRaw") else {}

    @cached_property
    def rows(self) -> list[ShareRow]:
        """The rows kept, ``--over`` judged on the whole tree, then ``--sort``."""
        from fscli.engine.over import over, sort_rows

        rows = self.answer.rows
        if self.query.over:
            wanted = {row.assoc_id for row in over(rows)}
            rows = [row for row in rows if row.assoc_id in wanted]
        rows = self.keep(rows)
        return sort_rows(rows, self.query.sort) if self.query.sort else rows

    def pieces(self, size: int) -> Iterator[Mapping[str, Sequence]]:
        """:attr:`rows` in pieces of at most ``size`` rows, as columns: in sshare's
        order (no ``--over``, ``--sort`` nor ``--explain``) each piece is made when it is
        reached, from the engine's columns (:func:`fscli.api.shares.column_pieces`), and
        the rows are never made whole."""
        from fscli.engine.fairshare import share_columns

        if self.query.over or self.query.sort or self.explained is not None:
            rows = self.rows
            return (share_columns(rows[i : i + size]) for i in range(0, len(rows), size))
        from fscli.api.shares import column_pieces

        return column_pieces(self.answer, size, self.keep)


def select_shares(store: Store, cluster: str | None, at: int, query: ShareQuery) -> ShareSelection:
    """sshare: the rows ``query`` keeps of ``cluster``'s fair-share at ``at``."""
    from fscli.api.shares import shares

    answer = shares(
        store,
        cluster,
        at,
        query.algorithm,
        settings=query.shows("GrpTRESMins"),
        extras=query.shows("TRESRunMins") or query.shows("GrpTRESRaw"),
    )
    return ShareSelection(answer, query, query.keep())


def explain_share(
    store: Store, cluster: str | None, at: int, query: ShareQuery, assoc: str
) -> ShareSelection:
    """sshare --explain: ``assoc``'s row (``ACCOUNT`` or ``USER/ACCOUNT``) and the
    derivation of its numbers (the engine's whole result: computed, not read back)."""
    from fscli.api.shares import shares
    from fscli.engine.fsexplain import explain

    settings = query.shows("GrpTRESMins")
    answer = shares(store, cluster, at, query.algorithm, settings=settings, whole=True)
    row = answer.row(assoc)
    selection = ShareSelection(answer, query, list, explain(answer.result, row.assoc_id))
    selection.rows = [row]
    return selection


@dataclass
class ShareComparisonSelection:
    """sshare before and after a what-if, each side a :class:`ShareSelection` kept by
    the same query; ranks by FairShare (association id -> place) on each side."""

    before: ShareSelection
    after: ShareSelection
    changes: list[str]
    ranks: tuple[Mapping[int, int], Mapping[int, int]]
    always: bool  # --as-if-always
    tree: bool  # --with a tree: the sides may hold different associations


def compare_shares(
    store: Store, cluster: str | None, at: int, query: ShareQuery, whatif: WhatIf
) -> ShareComparisonSelection:
    """sshare before and after ``whatif`` (:func:`fscli.api.whatif.shares_whatif`)."""
    from fscli.api.whatif import shares_whatif

    answer = shares_whatif(
        store, cluster, at, whatif, query.algorithm, settings=query.shows("GrpTRESMins")
    )
    keep = query.keep()
    return ShareComparisonSelection(
        ShareSelection(answer.before, query, keep),
        ShareSelection(answer.after, query, keep),
        answer.changes,
        (answer.rank_before, answer.rank_after),
        whatif.always,
        whatif.tree is not None,
    )


@dataclass(frozen=True)
class PriorityQuery:
    """What sprio's options select: the algorithm (None: the cluster's) and ``-j``,
    ``-u``, ``-p`` (None: no selection)."""

    algorithm: str | None = None
    jobs: Sequence[int] | None = None
    users: Sequence[str] | None = None
    partitions: Sequence[str] | None = None


@dataclass
class PrioritySelection:
    """The pending rows a query selects (as columns), with the answer's settings and
    warnings; with ``--explain``, the job's rows and each one's derivation. Selected
    when first read, so that a view prints the warnings before a selection that finds
    no job fails (as sprio does)."""

    answer: Priorities
    query: PriorityQuery
    store: Store = field(repr=False)
    job_id: int | None = None  # --explain

    @property
    def cluster(self) -> str:
        return self.answer.cluster

    @property
    def warnings(self) -> list[str]:
        return self.answer.warnings

    @cached_property
    def columns(self) -> PriorityColumns:
        from fscli.engine.priority import filter_columns

        query = self.query
        return filter_columns(self.answer.columns, query.jobs, query.users, query.partitions)

    @cached_property
    def explained(self) -> list[tuple[PriorityRow, list[str]]]:
        """The rows of the job ``--explain`` names (one per partition) and how each one's
        priority is made up; why there is none if so."""
        from fscli.api.priorities import why_not_listed
        from fscli.engine.priority import explain
        from fscli.errors import NotFound

        columns = self.columns
        chosen = columns.take(i for i, job in enumerate(columns.job_id) if job == self.job_id)
        if not chosen.rows:
            raise NotFound(why_not_listed(self.store, self.job_id or 0))
        return [(row, explain(row)) for row in chosen.rows]


def select_priorities(
    store: Store, cluster: str | None, at: int, query: PriorityQuery, job_id: int | None = None
) -> PrioritySelection:
    """sprio: the pending jobs' priority rows that ``query`` selects, at ``at``; with
    ``job_id`` (``--explain``), also that job's derivation."""
    from fscli.api.priorities import priorities

    if job_id is None:  # -j, -u, -p chosen by the store's query: only those jobs are read
        answer = priorities(
            store,
            cluster,
            at,
            query.algorithm,
            jobs=query.jobs,
            users=query.users,
            partitions=query.partitions,
        )
    else:
        answer = priorities(store, cluster, at, query.algorithm)
    return PrioritySelection(answer, query, store, job_id)


PriorityChange = tuple[int, str, str, int, int, int, int]
"""A job's row before and after: (job id, partition, user, priority, priority after,
rank, rank after)."""


@dataclass
class PriorityComparisonSelection:
    """sprio before and after a what-if: a :data:`PriorityChange` per selected row."""

    cluster: str
    at: int
    changes: list[str]
    rows: list[PriorityChange]


def compare_priorities(
    store: Store, cluster: str | None, at: int, query: PriorityQuery, whatif: WhatIf
) -> PriorityComparisonSelection:
    """sprio's priorities before and after ``whatif``, job by job, with the ranks."""
    from fscli.api.whatif import priorities_whatif
    from fscli.engine.priority import filter_columns

    answer = priorities_whatif(store, cluster, at, whatif, query.algorithm)
    before, after = answer.before.columns, answer.after.columns
    old = {(j, p): k for k, (j, p) in enumerate(zip(before.job_id, before.partition))}
    new = {(j, p): k for k, (j, p) in enumerate(zip(after.job_id, after.partition))}
    kept = filter_columns(after, query.jobs, query.users, query.partitions)
    rows = []
    for key in zip(kept.job_id, kept.partition):
        k, j = new[key], old[key]
        rows.append(
            (
                *key,
                after.user[k],
                before.priority[j],
                after.priority[k],
                answer.rank_before[j],
                answer.rank_after[k],
            )
        )
    return PriorityComparisonSelection(answer.after.cluster, at, answer.changes, rows)
