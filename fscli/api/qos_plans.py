"""Plans of QOS modifies and deletes, with slurmdbd's two refusals.

A QOS may not be made to preempt itself, directly or through the QOS it preempts
(slurmdbd's ``_preemption_loop``, checked QOS by QOS before anything is written), and a
QOS that is an association's default QOS is not deleted. The front end picks the QOS by
its conditions and says the refusals in its words; ``tx.commit(plan)`` writes the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fscli.api.sacctmgr_writes import SacctmgrWrites
    from fscli.engine.qos_changes import QosChanges
    from fscli.store.sacctmgr_queries import AssocView


@dataclass
class QosModify:
    """The QOS ``names`` changed by ``changes``; ``loops``: a new preemption would let
    one of them preempt itself (nothing is written then)."""

    names: list[str]
    changes: QosChanges
    loops: bool = False


@dataclass
class QosDelete:
    """The QOS ``names`` deleted; ``refused``: the associations whose default QOS is one
    of them, by cluster and place (nothing is deleted then)."""

    names: list[str]
    refused: list[AssocView] = field(default_factory=list)


def plan_modify(
    tx: SacctmgrWrites, names: list[str], changes: QosChanges, preempt_added: list[str]
) -> QosModify:
    """The modify of QOS ``names``, refused when preempting ``preempt_added`` would loop."""
    preempts = {q.name: set(q.preempt) for q, _ in tx.qos_rows()}
    loops = bool(preempt_added) and any(_loops(n, preempt_added, preempts) for n in names)
    return QosModify(names, changes, loops)


def _loops(name: str, added: list[str], preempts: dict[str, set[Any]]) -> bool:
    """slurmdbd's ``_preemption_loop``: would ``name`` preempting ``added`` let it, through
    the QOS those preempt, preempt itself?"""
    seen: set[str] = set()
    todo = list(added)
    if name in todo:
        return True
    while todo:
        other = todo.pop()
        if other in seen:
            continue
        seen.add(other)
        theirs = preempts.get(other, set())
        if name in theirs or other in theirs:
            return True
        todo += theirs
    return False


def plan_delete(tx: SacctmgrWrites, names: list[str]) -> QosDelete:
    """The delete of QOS ``names``, refused while associations have one as default."""
    view = tx.view(own_only=True)
    refused = [
        v for v in sorted(view, key=lambda v: (v.cluster, v.lft)) if v.assoc.default_qos in names
    ]
    return QosDelete(names, refused)


def commit_modify(tx: SacctmgrWrites, plan: QosModify) -> None:
    """Write a :class:`QosModify` with slurmdbd's Modify QOS row."""
    assert not plan.loops, "a refused plan is not committed"
    tx.note_modified("QOS", plan.names, "")
    tx.modify_qos(plan.names, changes=plan.changes)


def commit_delete(tx: SacctmgrWrites, plan: QosDelete) -> None:
    """Write a :class:`QosDelete`."""
    assert not plan.refused, "a refused plan is not committed"
    tx.delete_qos(plan.names)
