"""Walking the association tree in Slurm's display order, and adding counts up it.

sshare and ``sacctmgr show assoc tree`` list associations depth-first from root; within a
parent, user associations first, then sub-accounts, each alphabetically (user rows by
user name then partition). Iterative, so 100,000-deep trees cannot overflow the stack.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

from fscli.engine.model import Assoc

Number = TypeVar("Number", int, float)


def children_map(assocs: Iterable[Assoc]) -> dict[int | None, list[Assoc]]:
    kids: dict[int | None, list[Assoc]] = {}
    for assoc in assocs:
        kids.setdefault(assoc.parent_id, []).append(assoc)
    return kids


def _display_key(assoc: Assoc) -> tuple:
    if assoc.user is not None:
        return (0, assoc.user, assoc.partition or "", assoc.account)
    return (1, assoc.account, "", "")


def display_order(assocs: list[Assoc]) -> list[tuple[Assoc, int]]:
    """``(assoc, depth)`` pairs, root first (depth 0), in display order."""
    kids = children_map(assocs)
    for group in kids.values():
        group.sort(key=_display_key)
    ids = {a.id for a in assocs}
    roots = [a for a in assocs if a.parent_id is None or a.parent_id not in ids]
    roots.sort(key=_display_key)
    out: list[tuple[Assoc, int]] = []
    stack = [(a, 0) for a in reversed(roots)]
    while stack:
        assoc, depth = stack.pop()
        out.append((assoc, depth))
        for child in reversed(kids.get(assoc.id, ())):
            stack.append((child, depth + 1))
    return out


def ancestors(assoc_id: int, by_id: dict[int, Assoc]) -> list[Assoc]:
    """The chain from an association up to root, itself first."""
    chain = []
    current = by_id.get(assoc_id)
    while current is not None:
        chain.append(current)
        current = by_id.get(current.parent_id) if current.parent_id is not None else None
    return chain


def subtree_totals(
    own: Mapping[int, Mapping[str, Number]], parent_of: Mapping[int, int | None]
) -> dict[int, dict[str, Number]]:
    """Each association's counts plus all its descendants' (``own``: per association id,
    counts by name), for the associations that have some: Slurm adds a job's usage and
    run time to its association and to every ancestor. Ids not in ``parent_of`` are left
    out."""
    out: dict[int, dict[str, Number]] = {}
    for assoc_id, counts in own.items():
        current: int | None = assoc_id if assoc_id in parent_of else None
        while current is not None:
            total = out.setdefault(current, {})
            for name, count in counts.items():
                total[name] = total.get(name, 0) + count
            current = parent_of.get(current)
    return out
