"""sprio's views (:mod:`fscli.render.views`): the rows, one job's derivation, and the
priorities before and after a what-if."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol

from fscli.engine.priority import PriorityColumns, PriorityRow
from fscli.render import sprio as sprio_text
from fscli.render.views import Table, document


class PriorityRows(Protocol):
    """What a priority view reads of :class:`fscli.api.views.PrioritySelection`."""

    @property
    def cluster(self) -> str: ...

    @property
    def warnings(self) -> list[str]: ...

    @property
    def columns(self) -> PriorityColumns: ...

    @property
    def explained(self) -> list[tuple[PriorityRow, list[str]]]: ...

    @property
    def answer(self) -> Any: ...  # its ``config``: the weights


class PrioritiesView:
    """``fscli sprio``: sprio's own text (``-o``, ``-l``, ``-n``, ``-w``, ``-S``), or on a
    terminal without those (nor ``-h``) a table of the default columns."""

    notes: Sequence[str] = ()

    def __init__(self, selection: PriorityRows, options: Mapping[str, Any], text_only: bool):
        """``options``: :func:`fscli.render.sprio.render_chunks`' (``fmt``, ``long``,
        ``normalized``, ``weights``, ``sort``, ``users``); ``text_only``: sprio's text even
        on a terminal."""
        self.selection = selection
        self.warnings = selection.warnings
        self.options = options
        self.text_only = text_only

    def json(self) -> str:
        selection = self.selection
        config = selection.answer.config
        return sprio_text.render_json(selection.cluster, config, selection.columns, self.warnings)

    def text(self, parsable: str | None, header: bool) -> Iterator[str]:
        config = self.selection.answer.config
        return sprio_text.render_chunks(
            self.selection.columns, config, header=header, **self.options
        )

    def table(self) -> Table | None:
        from fscli.render.tables import is_terminal

        if self.text_only or not is_terminal(sys.stdout):
            return None
        config = self.selection.answer.config
        fmt = sprio_text.default_format(config, users=self.options["users"])
        columns, cells, right = sprio_text.table_cells(
            self.selection.columns, config, fmt, self.options["sort"]
        )
        return Table(columns, cells, right)


class PriorityExplainView:
    """``fscli sprio --explain JOB``: how each of the job's rows' priority is made up."""

    notes: Sequence[str] = ()

    def __init__(self, selection: PriorityRows):
        self.selection = selection
        self.warnings = selection.warnings

    def json(self) -> str:
        jobs = [
            {**sprio_text.row_dict(row), "explain": lines}
            for row, lines in self.selection.explained
        ]
        doc = {
            "cluster": self.selection.cluster,
            "weights": sprio_text.weights_dict(self.selection.answer.config),
            "jobs": jobs,
            "warnings": self.warnings,
        }
        return document(doc)

    def text(self, parsable: str | None, header: bool) -> Iterator[str]:
        yield "\n\n".join("\n".join(lines) for _, lines in self.selection.explained) + "\n"

    def table(self) -> None:
        return None
