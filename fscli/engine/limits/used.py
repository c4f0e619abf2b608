"""What each group limit in force has used: the counters ``scontrol show assoc_mgr``
prints in brackets after a limit (``GrpWall=N(0.85)``, ``GrpTRESMins=cpu=N(54)``,
``GrpTRESRunMins=cpu=N(1865)``), for ``limits show --effective``'s Used column.

slurmctld keeps them per association and QOS: an association's hold its own jobs' and
every descendant's (each pass adds a running job's time to its association and all
ancestors), a QOS's the jobs run in it. GrpWall and GrpTRESMins are the decayed wall and
TRES minutes (:attr:`LimitsState.usage_mins`), GrpTRESRunMins the TRES-minutes running
jobs still hold (``grp_used_tres_run_secs / 60``, as sshare's TRESRunMins).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from fscli.engine.limits.check import WALL, LimitsState, _climber
from fscli.engine.limits.counting import JobScope
from fscli.engine.limits.precedence import LimitEntry
from fscli.engine.passes import last_pass

USED = frozenset({"GrpWall", "GrpTRESMins", "GrpTRESRunMins"})
"""The limits whose used counter is shown."""


def used_counters(
    state: LimitsState, entries: Iterable[LimitEntry], now: int
) -> list[float | int | None]:
    """Per entry: the wall minutes a GrpWall has used (a float, shown with 2 decimals as
    assoc_mgr does), the whole TRES-minutes of a GrpTRESMins or GrpTRESRunMins (assoc_mgr
    truncates them), None for other limits."""
    entries = list(entries)
    shown = [e for e in entries if e.own_name in USED]
    assocs: set[int] = {e.origin for e in shown if isinstance(e.origin, int)}
    qos: set[str] = {e.origin for e in shown if isinstance(e.origin, str)}
    mins = _decayed(state, assocs)
    run = (
        _held_run_secs(state, assocs, qos, now)
        if any(e.own_name == "GrpTRESRunMins" for e in shown)
        else {}
    )
    out: list[float | int | None] = []
    for e in entries:
        if e.own_name not in USED:
            out.append(None)
        elif e.own_name == "GrpTRESRunMins":
            out.append(run.get(e.origin, {}).get(e.tres or "", 0) // 60)
        else:
            usage = (
                mins[e.origin]
                if isinstance(e.origin, int)
                else state.qos_usage_mins.get(e.origin, {})
            )
            if e.own_name == "GrpWall":
                out.append(usage.get(WALL, 0.0))
            else:
                out.append(math.floor(usage.get(e.tres or "", 0.0)))
    return out


def _decayed(state: LimitsState, holders: set[int]) -> dict[int, dict[str, float]]:
    """Each holder's decayed minutes: its own and every descendant's."""
    below: dict[int, dict[str, float]] = {h: {} for h in holders}
    if holders:
        up = _climber({a.id: a.parent_id for a in state.assocs}, holders)
        for aid, minutes in state.usage_mins.items():
            for holder in up(aid):
                into = below[holder]
                for name, amount in minutes.items():
                    into[name] = into.get(name, 0.0) + amount
    return below


def _held_run_secs(
    state: LimitsState, assocs: set[int], qos: set[str], now: int
) -> dict[int | str, dict[str, int]]:
    """TRES-seconds of run time the running jobs under each association holder (itself
    and its descendants) and in each QOS holder (the job's QOS or its partition's) still
    hold. The user association among the holders (one at most: the chain of one job)
    is counted as its user's (the scope's user: others' jobs count at their account)."""
    part_qos = {p.name: p.qos for p in state.partitions}
    mine = next((a for a in state.assocs if a.id in assocs and a.user), None)
    scope = JobScope(
        frozenset(assocs),
        frozenset(qos),
        frozenset(p for p, q in part_qos.items() if q in qos),
        mine.user if mine else None,
        mine.account if mine else "",
        True,
        last_pass(now, state.calc_period, state.calc_anchor),
        billing=True,  # billing's run minutes are the jobs' billing TRES
        calc_period=state.calc_period,
        calc_anchor=state.calc_anchor,
        now=now,
    )
    groups = state.count_jobs(scope) if state.count_jobs else state.groups_of(state.jobs, scope)
    held: dict[int | str, dict[str, int]] = {h: {} for h in assocs}
    held.update((name, {}) for name in qos)
    up = _climber({a.id: a.parent_id for a in state.assocs}, assocs)
    for group in groups:
        if not group.running:
            continue
        targets: list[int | str] = list(up(group.assoc_id))
        targets += {q for q in (group.qos, part_qos.get(group.partition or "")) if q in qos}
        for target in targets:
            into = held[target]
            for name, secs in group.run_secs.items():
                into[name] = into.get(name, 0) + secs
    return held
