"""The what-if views (:mod:`fscli.render.views`): sshare's columns and sprio's
priorities before and after a change (``--with``, ``--with-config``), side by side."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Protocol

from fscli.engine.fairshare import ShareRow
from fscli.engine.timestr import utc_iso
from fscli.render import sshare as sshare_text
from fscli.render import whatif as whatif_text
from fscli.render.share_views import ShareRows
from fscli.render.views import document


class ShareComparison(Protocol):
    """What the view reads of :class:`fscli.api.views.ShareComparisonSelection`."""

    @property
    def before(self) -> ShareRows: ...

    @property
    def after(self) -> ShareRows: ...

    @property
    def changes(self) -> list[str]: ...

    @property
    def ranks(self) -> tuple[Mapping[int, int], Mapping[int, int]]: ...

    @property
    def always(self) -> bool: ...

    @property
    def tree(self) -> bool: ...


class ShareWhatIfView:
    """``fscli sshare --with``: the columns before and after, side by side
    (:mod:`fscli.render.whatif`). Without a tree both sides have the same associations
    in the same order and the text comes a piece at a time, as plain sshare -P's does;
    with one, the rows are matched association by association."""

    warnings: Sequence[str] = ()

    def __init__(self, comparison: ShareComparison, fmt: str | None, long: bool, partition: bool):
        self.comparison = comparison
        self.notes = [f"with {line}" for line in comparison.changes]
        algorithm = comparison.after.algorithm
        self.fields = sshare_text.select_fields(fmt, algorithm, long, partition)
        self.extras = (
            sshare_text.extras_of(comparison.before),
            sshare_text.extras_of(comparison.after),
        )

    def _sides(self) -> tuple[Sequence[ShareRow | None], Sequence[ShareRow | None]]:

        before, after = self.comparison.before.rows, self.comparison.after.rows
        return whatif_text.aligned(before, after) if self.comparison.tree else (before, after)

    def json(self) -> str:

        before, after = self.comparison.before, self.comparison.after
        meta = {
            "cluster": after.cluster,
            "algorithm": before.algorithm,
            "algorithm_after": after.algorithm,
            "at": utc_iso(after.at),
            "with": self.comparison.changes,
            "as_if_always": self.comparison.always,
        }
        shares = whatif_text.share_json(*self._sides(), self.extras, self.comparison.ranks)
        return document({"meta": meta, "shares": shares})

    def text(self, parsable: str | None, header: bool) -> Iterator[str]:

        pieces: Iterable = zip(
            self.comparison.before.pieces(sshare_text.CHUNK),
            self.comparison.after.pieces(sshare_text.CHUNK),
        )
        if self.comparison.tree:
            pieces = [whatif_text.aligned_pieces(*self._sides())]
        ranks = self.comparison.ranks
        return whatif_text.share_lines(pieces, self.fields, parsable, header, self.extras, ranks)

    def table(self) -> None:
        return None


class PriorityComparison(Protocol):
    """What the view reads of :class:`fscli.api.views.PriorityComparisonSelection`."""

    @property
    def cluster(self) -> str: ...

    @property
    def at(self) -> int: ...

    @property
    def changes(self) -> list[str]: ...

    @property
    def rows(self) -> list[tuple[int, str, str, int, int, int, int]]: ...


class PriorityWhatIfView:
    """``fscli sprio --with``: each job's priority and rank before and after."""

    warnings: Sequence[str] = ()
    KEYS = ("job_id", "partition", "user", "priority", "priority_after", "rank", "rank_after")

    def __init__(self, comparison: PriorityComparison):
        self.comparison = comparison
        self.notes = [f"with {line}" for line in comparison.changes]

    def json(self) -> str:
        jobs = [
            dict(zip(self.KEYS, row), rank_change=row[5] - row[6]) for row in self.comparison.rows
        ]
        meta = {
            "cluster": self.comparison.cluster,
            "at": utc_iso(self.comparison.at),
            "with": self.comparison.changes,
        }
        return document({"meta": meta, "jobs": jobs})

    def text(self, parsable: str | None, header: bool) -> Iterator[str]:

        return whatif_text.priority_lines(self.comparison.rows, parsable, header)

    def table(self) -> None:
        return None
