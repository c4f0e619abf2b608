"""What-if solvers: the RawShares that reach a fair-share target, and when a usage decays
to a value. Each answer is found by applying candidates to the snapshot in memory (the
same :func:`fscli.api.whatif.changed_state` as ``--with``) and computing with the
cluster's own algorithm, so it is exact for that algorithm, not a formula's estimate."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fscli.errors import InvalidValue, NotFound

if TYPE_CHECKING:
    from fscli.api.store import Store

FIELDS = {"fairshare": "FairShare", "levelfs": "LevelFS"}
_ROW_FIELD = {"FairShare": "fairshare", "LevelFS": "level_fs"}
MAX_YEARS = 100
"""How far ahead ``whatif decay`` looks before it answers "never"."""


@dataclass
class SharesAnswer:
    """``shares``: the least RawShares at which ``field`` of ``assoc`` reaches ``target``
    (``reached``: its value there; ``below``: its value at one share less, None at 0)."""

    cluster: str
    algorithm: str
    assoc: str
    field: str
    target: float
    current_shares: int
    current: float | None
    shares: int
    reached: float
    below: float | None


@dataclass
class DecayAnswer:
    """``when``: the first moment ``assoc``'s RawUsage is at or below ``target`` with no
    new jobs (running jobs ending at their time limits): ``usage`` there, ``before`` one
    second earlier (None when it is so already at ``at``)."""

    cluster: str
    assoc: str
    target: float
    at: int
    current: float
    when: int
    usage: float
    before: float | None


def field_name(text: str) -> str:
    """``FairShare`` or ``LevelFS`` from any case."""
    name = FIELDS.get(text.strip().lower())
    if name is None:
        raise InvalidValue(f"unknown target '{text}': expected FairShare or LevelFS")
    return name


def solve_shares(
    store: Store, cluster: str | None, at: int, assoc: str, field: str, target: float
) -> SharesAnswer:
    """The least RawShares of ``assoc`` at which its ``field`` is at least ``target``.
    A higher share never lowers an association's FairShare or LevelFS (its normalized
    shares only grow), so the least one is found by bisection."""
    from fscli.engine.cluster_state import fairshare
    from fscli.engine.model import AssocColumns
    from fscli.engine.search import first_bound, least
    from fscli.engine.treespec import MAX_SHARES
    from fscli.store.state import load_state

    field = field_name(field)
    if not target > 0:
        raise InvalidValue(f"{field}={target}: the target must be above 0")
    with store.viewing() as conn:
        state = load_state(conn, cluster, at, settings=True)
    algorithm = state.config.algorithm
    assocs = list(state.assocs)
    first = fairshare(state, at, algorithm)
    from fscli.api.results import Shares

    row = Shares(state.cluster.name, algorithm, at, first).row(assoc)
    k = next(k for k, a in enumerate(assocs) if a.id == row.assoc_id)
    attr = _ROW_FIELD[field]
    if getattr(row, attr) is None:
        raise InvalidValue(f"{assoc} has no {field} under {algorithm}")
    original = assocs[k]
    values: dict[int, float] = {}

    def value(shares: int) -> float:
        if shares not in values:
            assocs[k] = dataclasses.replace(original, shares=shares)
            side = dataclasses.replace(state, assocs=AssocColumns.of(assocs))
            values[shares] = getattr(fairshare(side, at, algorithm).row(row.assoc_id), attr)
        return values[shares]

    def reaches(shares: int) -> bool:
        return value(shares) >= target

    high = first_bound(reaches, 0, max(1, int(original.shares)), MAX_SHARES)
    found = None if high is None else least(reaches, 0, high)
    if found is None:
        raise NotFound(
            f"no RawShares up to {MAX_SHARES} brings {field} of {assoc} to {target} "
            f"(at {MAX_SHARES}: {value(MAX_SHARES):g})"
        )
    return SharesAnswer(
        state.cluster.name,
        algorithm,
        assoc,
        field,
        target,
        original.shares,
        getattr(row, attr),
        found,
        value(found),
        value(found - 1) if found > 0 else None,
    )


def solve_decay(
    store: Store, cluster: str | None, at: int, assoc: str, target: float
) -> DecayAnswer:
    """When ``assoc``'s RawUsage (its own and its children's, as sshare prints it) falls
    to ``target``, if no job starts after ``at``. Running jobs charge until they end at
    their time limits; from then on the usage only decays, so the moment is found by
    bisection over the seconds after the last of them ends (or, when it is below already
    by then, over the seconds before)."""
    from fscli.api.results import Shares
    from fscli.engine.cluster_state import fairshare, job_end
    from fscli.engine.search import first_bound, least
    from fscli.store.state import load_state

    if not target >= 0:
        raise InvalidValue(f"RawUsage={target}: the target must be 0 or more")
    with store.viewing() as conn:
        state = load_state(conn, cluster, at, settings=False)
    state.jobs = [j for j in state.jobs if j.start is not None and j.start <= at]
    algorithm = state.config.algorithm
    now = fairshare(state, at, algorithm)
    row = Shares(state.cluster.name, algorithm, at, now).row(assoc)
    ends = [job_end(state, j) for j in state.jobs if j.state == "running"]
    if None in ends:
        raise InvalidValue(
            "a running job has no time limit (and its partition no MaxTime): it is charged "
            "for ever, and the usage never falls"
        )

    def usage(moment: int) -> float:
        return fairshare(state, moment, algorithm).row(row.assoc_id).raw_usage

    def fallen(moment: int) -> bool:
        return usage(moment) <= target

    last_end = max([at, *(e for e in ends if e is not None)])
    horizon = at + MAX_YEARS * 365 * 86400
    if fallen(at):
        when = at
    elif fallen(last_end):
        when = least(fallen, at, last_end) or last_end
    else:
        high = first_bound(fallen, last_end, state.config.decay_half_life or 86400, horizon)
        if high is None:
            never = " (PriorityDecayHalfLife=0: usage never decays)"
            raise NotFound(
                f"the RawUsage of {assoc} stays above {target:g} for {MAX_YEARS} years"
                + ("" if state.config.decay_half_life else never)
            )
        when = least(fallen, last_end, high) or high
    return DecayAnswer(
        state.cluster.name,
        assoc,
        target,
        at,
        row.raw_usage,
        when,
        usage(when),
        usage(when - 1) if when > at else None,
    )
