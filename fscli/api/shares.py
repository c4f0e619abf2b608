"""sshare: the store's snapshot at a moment, through the fair-share engine."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from fscli.api.pass_shares import shares_at, tres_names
from fscli.api.results import Shares
from fscli.errors import UsageProblem

if TYPE_CHECKING:
    from fscli.api.store import Store
    from fscli.engine.fairshare import ShareRow


def algorithm_name(text: str | None) -> str | None:
    """An algorithm as the engine names it (``fair-tree`` → ``fair_tree``); None: the
    cluster's (from PriorityFlags)."""
    from fscli.engine.config import ALGORITHMS

    if text is None:
        return None
    algorithm = text.strip().lower().replace("-", "_")
    if algorithm not in ALGORITHMS:
        raise UsageProblem(
            f"unknown algorithm '{algorithm}': expected one of {', '.join(ALGORITHMS)}"
        )
    return algorithm


def shares(
    store: Store,
    cluster: str | None,
    at: int,
    algorithm: str | None = None,
    *,
    settings: bool = True,
    extras: bool = False,
    whole: bool = False,
) -> Shares:
    """One snapshot of ``cluster``, its fair-share at ``at`` (``settings``: see
    :func:`shares_over`), through the pass cache where the store keeps one
    (:mod:`fscli.api.pass_shares`; ``extras``: the answer's ``run_minutes`` and
    ``tres_usage`` will be read). ``whole``: the engine's whole result will be read
    (``--explain``): computed, not read back."""
    algorithm = algorithm_name(algorithm)
    answer = None if whole else shares_at(store, cluster, at, algorithm, settings, extras)
    if answer is None:
        answer = shares_over(store, cluster, [at], algorithm, settings=settings)[0]
    return answer


def shares_over(
    store: Store,
    cluster: str | None,
    moments: Sequence[int],
    algorithm: str | None = None,
    *,
    settings: bool = True,
) -> list[Shares]:
    """``cluster``'s fair-share at each of ``moments`` (at least one), all from one read
    of the store: the same associations at every moment, whatever is written meanwhile.
    (Charges made after a moment do not count at it: the engine leaves them out.)

    Without ``settings`` the associations come without their limits, QOS lists and
    default QOS (:func:`fscli.store.snapshot.load_assocs`): every sshare column but
    GrpTRESMins does without them, and reading 100,000 associations takes 35 ms less."""
    from fscli.engine.cluster_state import fairshare
    from fscli.heap import bulk
    from fscli.store.state import load_state

    algorithm = algorithm_name(algorithm)
    with store.viewing() as conn:
        state = load_state(conn, cluster, max(moments), settings=settings)
        if len(moments) == 1:
            _note_window(conn, state, moments[0])
    algorithm = algorithm or state.config.algorithm
    answers = []
    with bulk():  # the engine's columns live as long as the answer: no collector passes
        for k, at in enumerate(moments, 1):
            result = fairshare(state, at, algorithm, last=k == len(moments))
            answers.append(
                Shares(state.cluster.name, algorithm, at, result, tres_names(state), state)
            )
    return answers


def _note_window(conn, state, at: int) -> None:
    """While the answer cache records (:mod:`fscli.api.answers`), the window in which
    this answer holds."""
    from fscli.api import answers

    if answers.listening():
        from fscli.api.pass_state import answer_window

        answers.note_window(*answer_window(conn, state, at))


def row_filter(
    all_users: bool,
    accounts: Collection[str] = (),
    users: Collection[str] = (),
    users_only: bool = False,
) -> Callable[[Iterable[ShareRow]], list[ShareRow]]:
    """sshare's row filter, for the whole answer or a piece of it at a time: account rows
    always (none with ``users_only``), user rows with -a or -u (``-1`` names every user);
    ``accounts`` (-A) keeps those accounts' rows only."""
    wanted_users = {u.lower() for u in users}
    if "-1" in wanted_users:
        all_users = True
    wanted_accounts = {a.lower() for a in accounts}
    if all_users and not wanted_accounts and not users_only:
        return list

    def wanted(row: ShareRow) -> bool:
        if wanted_accounts and row.account.lower() not in wanted_accounts:
            return False
        if row.user is None:
            return not users_only
        return all_users or row.user.lower() in wanted_users

    def keep(rows: Iterable[ShareRow]) -> list[ShareRow]:
        return list(filter(wanted, rows))

    return keep


def column_pieces(
    answer: Shares, size: int, keep: Callable[[Iterable[ShareRow]], list[ShareRow]]
) -> Iterator[Mapping[str, Sequence]]:
    """The rows of ``answer`` that ``keep`` (a :func:`row_filter`) keeps, in pieces of at
    most ``size`` rows, as columns (``ShareRow``'s field name -> that field of each row):
    what sshare -p/-P prints, a piece at a time. Without a filter the pieces come as
    columns straight from the engine, with no row objects made."""
    from fscli.engine.fairshare import share_columns

    if keep is list:  # row_filter's "every row"
        return answer.column_chunks(size)
    return map(share_columns, map(keep, answer.row_chunks(size)))
