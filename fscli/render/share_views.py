"""sshare's views (:mod:`fscli.render.views`): the rows, one row's derivation, and the
rows before and after a what-if."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Protocol

from fscli.engine.fairshare import ShareRow
from fscli.engine.timestr import utc_iso
from fscli.render import sshare as sshare_text
from fscli.render import whatif as whatif_text
from fscli.render.views import Table


class ShareRows(Protocol):
    """What a share view reads of :class:`fscli.api.views.ShareSelection`."""

    @property
    def cluster(self) -> str: ...

    @property
    def algorithm(self) -> str: ...

    @property
    def at(self) -> int: ...

    @property
    def tres_names(self) -> Sequence[str]: ...

    @property
    def run_minutes(self) -> Mapping[int, Mapping[str, int]]: ...

    @property
    def tres_usage(self) -> Mapping[int, Mapping[str, float]]: ...

    @property
    def rows(self) -> list[ShareRow]: ...

    @property
    def explained(self) -> list[str] | None: ...

    def pieces(self, size: int) -> Iterator[Mapping[str, Sequence]]: ...


def _share_document(selection: ShareRows, shares: object, **more: object) -> str:
    meta = {"cluster": selection.cluster, "algorithm": selection.algorithm}
    doc = {"meta": {**meta, "at": utc_iso(selection.at)}, "shares": shares, **more}
    return json.dumps(doc, indent=2) + "\n"


class SharesView:
    """``fscli sshare``: its columns (``-o``, ``-l``, ``-m``, per the answer's algorithm)."""

    warnings: Sequence[str] = ()
    notes: Sequence[str] = ()

    def __init__(self, selection: ShareRows, fmt: str | None, long: bool, partition: bool):
        self.selection = selection
        self.fields = (  # a blank -o: the default short columns
            sshare_text.select_fields(fmt)
            if fmt
            else sshare_text.select_fields(None, selection.algorithm, long, partition)
        )

    def json(self) -> str:
        rows = self.selection.rows
        return _share_document(
            self.selection, sshare_text.json_rows(rows, sshare_text.extras_of(self.selection))
        )

    def text(self, parsable: str | None, header: bool) -> Iterator[str]:
        pieces = self.selection.pieces(sshare_text.CHUNK)
        return sshare_text.render_pieces(
            pieces, self.fields, parsable, header, sshare_text.extras_of(self.selection)
        )

    def table(self) -> Table:
        columns, cells, right = sshare_text.table_cells(
            self.selection.rows, self.fields, sshare_text.extras_of(self.selection)
        )
        title = f"Fair-share on {self.selection.cluster} ({self.selection.algorithm})"
        return Table(columns, cells, right, title)


class ShareExplainView:
    """``fscli sshare --explain``: the derivation of one association's numbers."""

    warnings: Sequence[str] = ()
    notes: Sequence[str] = ()

    def __init__(self, selection: ShareRows):
        self.selection = selection
        self.lines = selection.explained or []

    def json(self) -> str:
        shares = sshare_text.json_rows(self.selection.rows, sshare_text.extras_of(self.selection))
        return _share_document(self.selection, shares, explain=self.lines)

    def text(self, parsable: str | None, header: bool) -> Iterator[str]:
        yield "\n".join(self.lines) + "\n"

    def table(self) -> None:
        return None


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
        return json.dumps({"meta": meta, "shares": shares}, indent=2) + "\n"

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
