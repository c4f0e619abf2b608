"""What a view is to the CLI: one object per answer, printable in each form it has.

A view is made from the selection one API call returns (:mod:`fscli.api.views`; each
view module's protocols name what it reads of one, as the render layer imports no API)
and answers the CLI's one ``emit`` (:func:`fscli.cli.output.emit`): :meth:`View.json`
(the document), :meth:`View.text` (Slurm's own text, ``-p``/``-P`` or fixed width, a
piece at a time), :meth:`View.table` (for people; None when the view prints its text
instead), and beside them the ``warnings`` (always on stderr) and ``notes`` (stderr,
but not with JSON, which carries them). The views: :mod:`fscli.render.share_views`,
:mod:`fscli.render.priority_views`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol


class Table(NamedTuple):
    """A table for people (:func:`fscli.render.tables.show`; ``--svg`` saves it); a
    NamedTuple: 0.1 ms to make at import, a frozen dataclass 0.6, by every view."""

    columns: Sequence[str]
    cells: Sequence[Sequence[Any]]
    right: Sequence[bool]
    title: str | None = None


class View(Protocol):
    @property
    def warnings(self) -> Sequence[str]: ...

    @property
    def notes(self) -> Sequence[str]: ...

    def json(self) -> str: ...

    def text(self, parsable: str | None, header: bool) -> Iterable[str]: ...

    def table(self) -> Table | None: ...


class RowsView:
    """A list command's rows (``fscli account list``, ``limits show``, ...): ``--json``
    gives ``{key: [{column: value}]}`` (after ``meta``), ``-p``/``-P`` Slurm's parsable
    text, the table for people leaves out the columns no row fills, but those in
    ``keep`` (None: leaves out none)."""

    warnings: Sequence[str] = ()
    notes: Sequence[str] = ()

    def __init__(
        self,
        columns: Sequence[str],
        rows: Sequence[Sequence[Any]],
        key: str,
        title: str | None = None,
        numeric: Sequence[str] = (),
        meta: dict | None = None,
        keep: Sequence[str] | None = None,
    ):
        self.columns, self.rows, self.key, self.title = columns, rows, key, title
        self.numeric, self.meta, self.keep = numeric, meta, keep

    def json(self) -> str:
        from fscli.render.tables import as_json

        return as_json(self.key, self.columns, self.rows, self.meta)

    def text(self, parsable: str | None, header: bool) -> Iterator[str]:
        from fscli.render.tables import parsable as parsable_text

        yield parsable_text(self.columns, self.rows, parsable == "p", header)

    def table(self) -> Table:
        from fscli.render.tables import drop_empty_columns

        columns, rows = self.columns, self.rows
        if self.keep is not None:
            columns, rows = drop_empty_columns(columns, rows, self.keep)
        return Table(columns, rows, [c in self.numeric for c in columns], self.title)


def document(doc: Mapping[str, Any]) -> str:
    """A view's ``--json`` text: ``doc`` indented by two, one newline at the end (the
    json module is imported only by the views that print it)."""
    import json

    return json.dumps(doc, indent=2) + "\n"
