"""Slurm Fair Tree, Slurm classic and an LSF queue ranking the same users side by side.

Slurm gives each user the best fair-share factor of their associations; LSF gives the
dynamic priorities from the top of the queue's share tree down to the holder the user is
in (dispatch compares those tuples level by level). Each is ranked highest first, with
equal values sharing a rank (competition ranking: 1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fscli.engine.fairshare import FairShareResult
from fscli.engine.lsf.shares import LsfQueue, UserGroup, resolve_shares


@dataclass(frozen=True)
class Comparison:
    user: str
    fair_tree: float | None
    fair_tree_rank: int | None
    classic: float | None
    classic_rank: int | None
    lsf: float | None  # the priority at the user's own level of the share tree
    lsf_rank: int | None


def best_factors(result: FairShareResult) -> dict[str, float]:
    """Each user's highest fair-share factor over their associations (from the result's
    columns: no sshare rows are built)."""
    best: dict[str, float] = {}
    for user, factor in zip(result.tree.users, result.columns.fairshare):
        if user and factor is not None:
            best[user] = max(best.get(user, 0.0), factor)
    return best


def user_priorities(
    queue: LsfQueue, blocks: Iterable, groups: Mapping[str, UserGroup], users: Iterable[str]
) -> dict[str, tuple[float, ...]]:
    """Each user's dynamic priorities from the top of the queue's share tree down to the
    holder that contains the user (one number per level), from ``share_info`` blocks.
    Users holding no share are left out.
    """
    rows = {(b.path, r.name): r.priority for b in blocks for r in b.rows}
    out: dict[str, tuple[float, ...]] = {}
    top: tuple[float, ...] = ()
    stack = [(resolve_shares(queue.shares, groups, users), f"{queue.name}/", top)]
    while stack:
        nodes, path, above = stack.pop()
        for node in nodes:
            here = above + (rows[(path, node.name)],)
            if node.children:
                stack.append((node.children, f"{path}{node.name}/", here))
            else:
                out.update({u: here for u in node.users})
    return out


def competition_ranks(values: Mapping[str, Any]) -> dict[str, int]:
    """Competition ranking, highest value first: 1, 2, 2, 4."""
    first: dict[Any, int] = {}
    for i, value in enumerate(sorted(values.values(), reverse=True), 1):
        first.setdefault(value, i)
    return {name: first[value] for name, value in values.items()}


def compare(
    fair_tree: FairShareResult, classic: FairShareResult, lsf: Mapping[str, Sequence[float]]
) -> list[Comparison]:
    """One row per user of any of the three, ordered by Fair Tree rank, then classic, then
    LSF (unranked last), then name."""
    tree_fs, classic_fs = best_factors(fair_tree), best_factors(classic)
    ranks = [competition_ranks(tree_fs), competition_ranks(classic_fs), competition_ranks(lsf)]
    names = sorted(
        set(tree_fs) | set(classic_fs) | set(lsf),
        key=lambda n: ([(r.get(n) is None, r.get(n)) for r in ranks], n),
    )
    return [
        Comparison(
            n,
            tree_fs.get(n),
            ranks[0].get(n),
            classic_fs.get(n),
            ranks[1].get(n),
            lsf[n][-1] if n in lsf else None,
            ranks[2].get(n),
        )
        for n in names
    ]
