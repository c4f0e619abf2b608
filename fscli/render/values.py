"""A value as people read it, or as ``--json`` carries it (numbers as numbers, the units
docs/json.md gives): one place, so that every command says it the same way. The CLI's
:class:`fscli.cli.output.Output` is one of these, set by its ``--json``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class ValueForms:
    """Each kind of stored value in its printed form: text, or JSON's when ``json``."""

    json: bool = False

    def minutes(self, value: int | None) -> str | int | None:
        """A duration stored in minutes: ``D-HH:MM:SS`` (``UNLIMITED``) for people, the
        number of minutes (null: unlimited) in JSON."""
        from fscli.engine.timestr import INFINITE_MINUTES, format_mins

        if self.json:
            return None if value is None or value >= INFINITE_MINUTES else value
        return format_mins(value)

    def tres(self, value: dict[str, int] | None) -> str | dict[str, int] | None:
        """TRES counts: Slurm's text (``cpu=4,mem=8G``) for people, ``{tres: count}``
        (memory in MB) or null in JSON."""
        from fscli.engine.tres import format_tres

        if self.json:
            return dict(value) if value else None
        return format_tres(value)

    def limit(self, defn: Any, value: Any) -> Any:
        """A stored limit: as sacctmgr prints it, or in JSON a count, minutes or a TRES
        object (null when unset)."""
        from fscli.engine.limits.definitions import format_limit

        if self.json:
            return dict(value) if isinstance(value, dict) else value
        return format_limit(defn, value)

    def when(self, epoch: int | None) -> str | None:
        """A moment as Slurm prints it (local time); JSON says null rather than ""."""
        from fscli.engine.timestr import format_when

        return None if self.json and epoch is None else format_when(epoch)

    def setting(self, text: str) -> str | int | float:
        """A setting's value as stored (text): a number in JSON when it is one."""
        if not self.json:
            return text
        for kind in (int, float):
            try:
                return kind(text)
            except ValueError:
                pass
        return text
