"""What the API's views return: plain dataclasses of the engine's rows and what goes with
them. The CLI renders these; ``--json`` is their serialisation.

The store's lists (associations, accounts, users, history) are :mod:`fscli.api.records`:
each dataclass costs 0.5-1 ms to make at import, which sshare and sprio, a new process
per call, would pay for four they never return."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from fscli.errors import NotFound

if TYPE_CHECKING:  # the engine modules load when a view computes, not with the API
    from fscli.engine.config import PriorityConfig
    from fscli.engine.fairshare import ShareRow
    from fscli.engine.priority import PriorityColumns, PriorityRow


class Shares:
    """sshare's answer: one :class:`~fscli.engine.fairshare.ShareRow` per association
    (``account``, ``user``, ``raw_shares``, ``norm_shares``, ``raw_usage``, ``norm_usage``,
    ``effective_usage``, ``fairshare``, ``level_fs``, ...) in sshare's order, plus what
    the rows do not carry: the tracked TRES, and (computed when first asked for: they go
    through the jobs again) each association's TRES run-minutes and decayed TRES-seconds,
    keyed by ``assoc_id``.

    ``result`` is the engine's result (the rows, and ``--explain``'s derivation) and
    ``state`` the snapshot it came from. An answer read from the pass cache
    (:mod:`fscli.api.pass_shares`) holds only the rows (a
    :class:`~fscli.engine.share_table.ShareTable`) and what it kept beside them; its
    ``result`` and ``state`` are computed when first asked for, from the same store
    state (``recompute``), and its ``run_minutes`` and ``tres_usage`` may come kept
    (``extras``)."""

    def __init__(
        self,
        cluster: str,
        algorithm: str,
        at: int,
        result: Any,
        tres_names: Sequence[str] = (),
        state: Any = None,
        *,
        table: Any = None,
        extras: tuple[Mapping, Mapping] | None = None,
        recompute: Callable[[], tuple[Any, Any]] | None = None,
    ):
        self.cluster, self.algorithm, self.at = cluster, algorithm, at
        self.tres_names = tres_names
        self._result, self._state = result, state
        self._table = table if table is not None else result
        self._recompute = recompute
        if extras is not None:  # kept beside the rows: the cached properties' values
            self.run_minutes, self.tres_usage = extras

    def __repr__(self) -> str:
        return f"Shares(cluster={self.cluster!r}, algorithm={self.algorithm!r}, at={self.at})"

    @property
    def result(self) -> Any:
        """The engine's result (:class:`~fscli.engine.fairshare.FairShareResult`)."""
        if self._result is None:
            self._computed()
        return self._result

    @property
    def state(self) -> Any:
        """The snapshot the rows come from (:class:`~fscli.engine.cluster_state.ClusterState`)."""
        if self._state is None and self._recompute is not None:
            self._computed()
        return self._state

    def _computed(self) -> None:
        assert self._recompute is not None
        self._result, self._state = self._recompute()
        self._recompute = None

    @property
    def rows(self) -> list[ShareRow]:
        """The rows in sshare's order (made when first asked for)."""
        from fscli.heap import bulk

        with bulk():  # they live as long as the answer: no collector passes over them
            return self._table.rows

    def row_chunks(self, size: int) -> Iterator[list[ShareRow]]:
        """:attr:`rows` in pieces of ``size`` rows, each made when it is reached (until
        :attr:`rows` is asked for): for views that write rows as they come."""
        return self._table.row_chunks(size)

    def column_chunks(self, size: int) -> Iterator[Mapping[str, Sequence]]:
        """:meth:`row_chunks` as columns (``ShareRow``'s field name -> that field of each
        row), made without row objects until :attr:`rows` is asked for."""
        return self._table.column_chunks(size)

    @cached_property
    def run_minutes(self) -> Mapping[int, Mapping[str, int]]:
        """sshare's TRESRunMins per association (none unless limits are enforced)."""
        from fscli.engine.cluster_state import run_minutes

        return run_minutes(self.state, self.at)

    @cached_property
    def tres_usage(self) -> Mapping[int, Mapping[str, float]]:
        """sshare's GrpTRESRaw: decayed TRES-seconds per association and its subtree."""
        from fscli.engine.cluster_state import tres_usage

        return tres_usage(self.state, self.at)

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def subtree(self, account: str) -> list[ShareRow]:
        """The rows of ``account`` and everything below it, in sshare's order."""
        rows = self.rows
        start = next(
            (i for i, r in enumerate(rows) if r.user is None and r.account == account.lower()), None
        )
        if start is None:
            raise NotFound(f"account '{account}' does not exist on cluster {self.cluster}")
        end = next(
            (i for i in range(start + 1, len(rows)) if rows[i].depth <= rows[start].depth),
            len(rows),
        )
        return rows[start:end]

    def row(self, name: str) -> ShareRow:
        """The row of ``ACCOUNT``, ``USER/ACCOUNT``, ``root`` or an association id."""
        key = name.strip().lower()
        rows = self.rows
        if key.isascii() and key.isdigit() and any(r.assoc_id == int(key) for r in rows):
            return next(r for r in rows if r.assoc_id == int(key))
        user, sep, account = key.partition("/")
        if sep:
            matches = [r for r in rows if r.user == user and r.account == account]
        else:
            matches = [r for r in rows if r.user is None and r.account == key]
            if not matches:
                matches = [r for r in rows if r.user == key]
                if len(matches) > 1:
                    choices = ", ".join(f"{r.user}/{r.account}" for r in matches)
                    raise NotFound(f"user '{key}' has several associations: name one of {choices}")
        if not matches:
            raise NotFound(
                f"no association '{name}' on cluster {self.cluster} (use ACCOUNT or USER/ACCOUNT)"
            )
        return min(matches, key=lambda r: r.assoc_id)  # the one without a partition came first


@dataclass
class Priorities:
    """sprio's answer: one :class:`~fscli.engine.priority.PriorityRow` per pending job and
    partition, with every factor (``factors``, ``weighted``, ``priority``): the rows are
    made from ``columns`` (:class:`~fscli.engine.priority.PriorityColumns`, what sprio's
    text is printed from) when first asked for."""

    cluster: str
    algorithm: str
    at: int
    columns: PriorityColumns = field(repr=False)
    config: PriorityConfig = field(repr=False)  # the cluster's settings
    warnings: list[str] = field(default_factory=list)  # settings Slurm would warn about

    @cached_property
    def rows(self) -> list[PriorityRow]:
        from fscli.heap import bulk

        with bulk():  # they live as long as the answer: no collector passes over them
            return self.columns.rows

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.columns)
