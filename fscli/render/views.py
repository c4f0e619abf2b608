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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Table:
    """A table for people (:func:`fscli.render.tables.show`; ``--svg`` saves it)."""

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


def document(doc: Mapping[str, Any]) -> str:
    """A view's ``--json`` text: ``doc`` indented by two, one newline at the end (the
    json module is imported only by the views that print it)."""
    import json

    return json.dumps(doc, indent=2) + "\n"
