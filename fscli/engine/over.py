"""Who is over their share: sshare's ``--over`` and ``--sort``.

"Over" means LevelFS < 1: the association's part of its siblings' usage is larger than
its part of their shares. Fair Tree computes exactly that LevelFS (sshare -l shows it);
under the other algorithms it is computed here the same way, from RawShares and RawUsage
among siblings, so that ``--over`` means one thing whatever the algorithm. Associations
with FairShare=parent (no share of their own) and the root are never over; an
association that used nothing is not over (LevelFS infinite).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from fscli.engine.fairshare import ShareRow
from fscli.engine.model import SHARES_PARENT

SORT_FIELDS = {
    "account": "account",
    "user": "user",
    "rawshares": "raw_shares",
    "normshares": "norm_shares",
    "rawusage": "raw_usage",
    "normusage": "norm_usage",
    "effectvusage": "effective_usage",
    "fairshare": "fairshare",
    "levelfs": "level_fs",
}
"""``--sort`` fields: sshare's column names (any case) -> the row's attribute."""


def level_fs(rows: Sequence[ShareRow]) -> list[float | None]:
    """Each row's LevelFS: its own (Fair Tree) or else its share of its siblings' shares
    over its share of their usage. ``rows`` are a whole tree in sshare's order."""
    parent: list[int | None] = []
    stack: list[int] = []
    for i, row in enumerate(rows):
        del stack[row.depth :]
        parent.append(stack[-1] if stack else None)
        stack.append(i)
    shares: dict[int | None, float] = {}
    usage: dict[int | None, float] = {}
    for i, row in enumerate(rows):
        own = _own_shares(row)
        if own is not None:
            shares[parent[i]] = shares.get(parent[i], 0) + own
        usage[parent[i]] = usage.get(parent[i], 0.0) + row.raw_usage
    out: list[float | None] = []
    for i, row in enumerate(rows):
        if row.level_fs is not None:
            out.append(row.level_fs)
            continue
        total_shares, total_usage = shares.get(parent[i], 0), usage.get(parent[i], 0.0)
        own = _own_shares(row)
        if parent[i] is None or own is None:
            out.append(None)
        elif row.raw_usage == 0 or total_shares == 0:
            out.append(math.inf)
        else:
            out.append((own / total_shares) / (row.raw_usage / total_usage))
    return out


def _own_shares(row: ShareRow) -> int | None:
    """The row's RawShares, None when it has none of its own (root, FairShare=parent)."""
    shares = row.raw_shares
    return shares if shares is not None and 0 <= shares != SHARES_PARENT else None


def over(rows: Sequence[ShareRow]) -> list[ShareRow]:
    """The rows (of a whole tree) whose :func:`level_fs` is below 1."""
    return [row for row, fs in zip(rows, level_fs(rows)) if fs is not None and fs < 1]


def sort_rows(rows: Sequence[ShareRow], spec: str) -> list[ShareRow]:
    """``rows`` by the field ``spec`` names (``-FIELD``: descending); blanks last."""
    from fscli.errors import UsageProblem

    descending = spec.startswith("-")
    name = spec.lstrip("-").strip().lower()
    attr = SORT_FIELDS.get(name)
    if attr is None:
        known = "Account, User, RawShares, NormShares, RawUsage, NormUsage, EffectvUsage, "
        known += "FairShare, LevelFS"
        raise UsageProblem(f"--sort: unknown field '{spec}': expected one of {known}")
    blank = [r for r in rows if not isinstance(getattr(r, attr), (int, float, str))]
    shown = [r for r in rows if isinstance(getattr(r, attr), (int, float, str))]
    shown.sort(key=lambda r: getattr(r, attr), reverse=descending)
    return shown + blank


__all__ = ["SORT_FIELDS", "level_fs", "over", "sort_rows"]
