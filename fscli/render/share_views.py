"""sshare's views (:mod:`fscli.render.views`): the rows, one row's derivation, and the
rows before and after a what-if."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Protocol

from fscli.engine.fairshare import ShareRow
from fscli.engine.timestr import utc_iso
from fscli.render import sshare as sshare_text
from fscli.render.views import Table, document


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
    return document(doc)


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
