"""sprio's views (:mod:`fscli.render.views`): the rows, one job's derivation, and the
priorities before and after a what-if."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol

from fscli.engine.priority import PriorityColumns, PriorityRow
from fscli.engine.timestr import utc_iso
from fscli.render import sprio as sprio_text
from fscli.render import whatif as whatif_text
from fscli.render.views import Table


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
        return json.dumps(doc, indent=2) + "\n"

    def text(self, parsable: str | None, header: bool) -> Iterator[str]:
        yield "\n\n".join("\n".join(lines) for _, lines in self.selection.explained) + "\n"

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
        return json.dumps({"meta": meta, "jobs": jobs}, indent=2) + "\n"

    def text(self, parsable: str | None, header: bool) -> Iterator[str]:
        return whatif_text.priority_lines(self.comparison.rows, parsable, header)

    def table(self) -> None:
        return None
