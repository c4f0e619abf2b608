"""Fair-share factors the way Slurm's priority/multifactor plugin computes them.

Input: the association tree (``model.Assoc`` list: one root with ``parent_id`` None,
accounts, user associations with ``user`` set; ``shares`` may be ``SHARES_PARENT``) and
the raw usage charged to each association itself (``assoc_id -> billing-seconds``,
usually from :func:`fscli.engine.usage.raw_usage`). An account's RawUsage is its own
charges plus the sum over its descendants, as slurmctld rebuilds it.

Output (:func:`compute`): a :class:`FairShareResult` with one :class:`ShareRow` per
association in sshare's hierarchical order (within a parent: users first, then
sub-accounts, each alphabetical), the row depth for sshare's Account indentation, and
``fs_factor`` (user assoc id -> fair-share factor) for job priority.

Algorithms (see spec/fairshare.md):

* ``fair_tree`` (default): S = shares / level shares, U = raw / fs-parent raw,
  LevelFS = S / U in binary floating point, siblings ranked by LevelFS descending,
  users before accounts at equal LevelFS, then by name; factor = rank / #users.
* ``classic``: S = product of share fractions down the tree, effective usage
  UE = UN + (UE_parent - UN) * shares / level shares, F = 2^(-UE/S/d).
* ``depth_oblivious``: classic with Slurm's depth-oblivious effective usage.
* ``linear``: classic S and UE with Slurm 2.0's F = (S - UE + 1) / 2.

``FairShare=parent`` associations are re-parented for fair-share purposes to the first
ancestor whose shares are not ``parent`` (their "fs-parent"), exactly as slurmctld does.
:func:`fscli.engine.fsexplain.explain` turns a result into a readable derivation.

Everything is iterative (no recursion), linear in the number of associations plus one
sort per sibling list.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from fscli.engine.config import ALGORITHMS
from fscli.engine.model import SHARES_PARENT, Assoc
from fscli.errors import InvalidValue

NO_VAL = 4294967294.0
"""Slurm's NO_VAL as a LevelFS: what a ``FairShare=parent`` account gets (printed blank)."""


@dataclass(slots=True)
class ShareRow:
    """One sshare row. ``None`` means "printed blank" (Slurm's NO_VAL)."""

    assoc_id: int
    account: str
    user: str | None
    partition: str | None
    depth: int
    raw_shares: int | None  # None for root; SHARES_PARENT for FairShare=parent
    norm_shares: float
    raw_usage: float
    norm_usage: float | None
    effective_usage: float
    fairshare: float | None
    level_fs: float | None
    grp_tres_mins: dict[str, int] | None = None
    # Filled in by the caller when it knows them (running jobs, per-TRES usage); None = zeros.
    tres_run_mins: dict[str, int] | None = None
    tres_raw_mins: dict[str, int] | None = None

    @property
    def is_user(self) -> bool:
        return self.user is not None

    @property
    def shares_parent(self) -> bool:
        return self.raw_shares == SHARES_PARENT


@dataclass
class Tree:
    """The association tree as index arrays (position ``i`` = ``assocs[i]``).

    ``fs_parent`` is Slurm's fair-share parent (``fs_assoc_ptr``); ``level_shares[i]`` is
    the sum of raw shares of ``i``'s fair-share siblings (itself included, ``parent``
    siblings counting 0); ``raw`` is the aggregated RawUsage.
    """

    assocs: Sequence[Assoc]
    index: dict[int, int]
    parent: list[int]
    order: list[int]
    depth: list[int]
    fs_parent: list[int]
    fs_children: list[list[int]]
    level_shares: list[int]
    raw: list[float]
    root: int
    user_count: int
    name_key: list[tuple[int, str, str]]


@dataclass
class FairShareResult:
    """Rows in sshare order plus what explanations and job priority need."""

    algorithm: str
    rows: list[ShareRow]
    fs_factor: dict[int, float]
    user_count: int
    dampening: int
    tree: Tree
    by_index: list[ShareRow]
    # Fair Tree only: each fs-parent's children (tree indexes) in ranking order, tie flags.
    ranked_children: dict[int, list[int]] = field(default_factory=dict)
    tied: list[bool] = field(default_factory=list)  # by tree index

    def row(self, assoc_id: int) -> ShareRow:
        """The row of one association (``InvalidValue`` if it is not in the tree)."""
        i = self.tree.index.get(assoc_id)
        if i is None:
            raise InvalidValue(f"association id {assoc_id} is not in the tree")
        return self.by_index[i]


def build_tree(assocs: Sequence[Assoc], usage: Mapping[int, float]) -> Tree:
    """Index the tree, order it, find fs-parents and level shares, aggregate usage."""
    n = len(assocs)
    ids = [a.id for a in assocs]
    index = dict(zip(ids, range(n)))
    if len(index) != n:
        seen: set[int] = set()
        dup = next(x for x in ids if x in seen or seen.add(x))  # type: ignore[func-returns-value]
        raise InvalidValue(f"association id {dup} appears twice")
    users = [a.user for a in assocs]
    parent = [index.get(a.parent_id, -2) if a.parent_id is not None else -1 for a in assocs]
    roots = [i for i, p in enumerate(parent) if p == -1]
    if len(roots) != 1:
        raise InvalidValue(f"expected exactly one root association, found {len(roots)}")
    root = roots[0]
    children: list[list[int]] = [[] for _ in range(n)]
    for i, p in enumerate(parent):
        if p >= 0:
            children[p].append(i)
        elif p == -2:
            a = assocs[i]
            raise InvalidValue(
                f"association {a.id} ({_label(a)}) has unknown parent id {a.parent_id}")
    for i, u in enumerate(users):
        if u is not None and children[i]:
            a = assocs[children[i][0]]
            raise InvalidValue(f"association {a.id} ({_label(a)}) has a user association as parent")
    # sshare order within a parent: users first, then sub-accounts, each alphabetical.
    name_key = [(0, a.user, a.partition or "") if a.user is not None else (1, a.account, "")
                for a in assocs]
    by_name = name_key.__getitem__
    for kids in children:
        if len(kids) > 1:
            kids.sort(key=by_name)

    order: list[int] = []
    depth = [0] * n
    stack = [root]
    push, pop, visit = stack.extend, stack.pop, order.append
    while stack:
        i = pop()
        visit(i)
        kids = children[i]
        if kids:
            d = depth[i] + 1
            for k in kids:
                depth[k] = d
            push(reversed(kids))
    if len(order) != n:
        seen_set = set(order)
        stray = next(a for i, a in enumerate(assocs) if i not in seen_set)
        raise InvalidValue(
            f"association {stray.id} ({_label(stray)}) is not below the root (cycle?)")

    raw = [0.0] * n
    for assoc_id, amount in usage.items():
        i = index.get(assoc_id)
        if i is None:
            raise InvalidValue(f"usage given for unknown association id {assoc_id}")
        if not amount >= 0:  # also rejects NaN
            raise InvalidValue(f"negative usage {amount} for association id {assoc_id}")
        raw[i] += amount
    for i in reversed(order):
        p = parent[i]
        if p >= 0:
            raw[p] += raw[i]

    # fs-parent: the first ancestor (from the direct parent up) whose shares are not
    # "parent", stopping at root. anchor[i] is that answer for i's own children.
    shares = [a.shares for a in assocs]
    anchor = list(range(n))
    fs_parent = [-1] * n
    fs_children: list[list[int]] = [[] for _ in range(n)]
    level_sum = [0] * n
    for i in order:
        p = parent[i]
        if p < 0:
            continue
        fp = anchor[p]
        fs_parent[i] = fp
        fs_children[fp].append(i)
        if shares[i] == SHARES_PARENT:
            anchor[i] = fp
        else:
            level_sum[fp] += shares[i]
    level_shares = [level_sum[fp] if fp >= 0 else 0 for fp in fs_parent]
    user_count = n - users.count(None)
    return Tree(assocs, index, parent, order, depth, fs_parent, fs_children, level_shares,
                raw, root, user_count, name_key)


def _label(a: Assoc) -> str:
    return f"account={a.account}" + (f" user={a.user}" if a.user else "")


def compute(
    assocs: Sequence[Assoc],
    usage: Mapping[int, float],
    algorithm: str = "fair_tree",
    dampening: int = 1,
) -> FairShareResult:
    """Compute every association's sshare numbers with one algorithm.

    ``usage`` maps assoc id -> raw usage charged to that association itself.
    ``dampening`` is FairShareDampeningFactor (classic and depth-oblivious only).
    """
    if algorithm not in ALGORITHMS:
        raise InvalidValue(
            f"unknown algorithm '{algorithm}': expected one of {', '.join(ALGORITHMS)}")
    if dampening < 1:
        raise InvalidValue(f"invalid FairShareDampeningFactor {dampening}: must be >= 1")
    with _gc_paused():
        tree = build_tree(assocs, usage)
        root_raw = tree.raw[tree.root]
        norm = [min(r / root_raw, 1.0) for r in tree.raw] if root_raw else [0.0] * len(tree.raw)
        if algorithm == "fair_tree":
            return _fair_tree(tree, norm, dampening)
        return _classic(tree, norm, algorithm, dampening)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector during one computation.

    The engine allocates several lists/tuples per association and keeps them all until
    it returns, so the collector would rescan the growing heap again and again (about 40%
    of the run time at 100,000 associations). Nothing here creates reference cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _make_rows(tree: Tree, norm: list[float], shares: list[float], efctv: list[float],
               fairshare: list[float | None], level_fs: list[float | None]) -> list[ShareRow]:
    """Rows in the input (index) order; root's RawShares and NormUsage are blank."""
    assocs, root = tree.assocs, tree.root
    raw_shares: list[int | None] = [a.shares for a in assocs]
    raw_shares[root] = None
    norm_usage: list[float | None] = list(norm)
    norm_usage[root] = None
    return list(map(
        ShareRow, [a.id for a in assocs], [a.account for a in assocs],
        [a.user for a in assocs], [a.partition for a in assocs], tree.depth, raw_shares,
        shares, tree.raw, norm_usage, efctv, fairshare, level_fs,
        [a.limits.get("GrpTRESMins") or None if a.limits else None for a in assocs],
    ))


def _fair_tree(tree: Tree, norm: list[float], dampening: int) -> FairShareResult:
    assocs, raw, fsp, root = tree.assocs, tree.raw, tree.fs_parent, tree.root
    n = len(assocs)
    users = [a.user for a in assocs]
    raw_shares = [a.shares for a in assocs]
    level = tree.level_shares
    shares = [0.0] * n
    efctv = [0.0] * n
    lf_sort = [NO_VAL] * n  # the value Slurm sorts on (NO_VAL for parent accounts)
    level_fs: list[float | None] = [None] * n
    efctv[root] = 1.0
    inf = math.inf
    for i in tree.order:
        fp = fsp[i]
        if fp < 0:
            continue
        used = raw[fp]
        u = efctv[i] = raw[i] / used if used else 0.0
        if raw_shares[i] == SHARES_PARENT:
            shares[i] = shares[fp]
            lf_sort[i] = inf if users[i] is not None else NO_VAL
            continue
        s = shares[i] = raw_shares[i] / level[i] if level[i] else 0.0
        lf = 0.0 if s == 0 else (s / u if u else inf)
        lf_sort[i] = lf
        level_fs[i] = lf

    total = tree.user_count
    factor: list[float | None] = [None] * n
    fs_factor: dict[int, float] = {}
    ranked: dict[int, list[int]] = {}
    tied = [False] * n
    by_name = tree.name_key.__getitem__
    by_level = [-lf for lf in lf_sort].__getitem__
    ids = [a.id for a in assocs]

    rank = rnt = total
    stack = [root]
    while stack:
        p = stack.pop()
        if users[p] is not None:
            if not tied[p]:
                rank = rnt
            factor[p] = fs_factor[ids[p]] = rank / total
            rnt -= 1
            continue
        kids = sorted(tree.fs_children[p], key=by_name)
        kids.sort(key=by_level)  # stable: LevelFS descending, users first, then by name
        ranked[p] = kids
        # Slurm's tie rule: the first child inherits its account's tie, every other
        # child is tied when its LevelFS equals the previous sibling's (NO_VAL at start).
        prev = NO_VAL
        for k in kids:
            tied[k] = prev == lf_sort[k]
            prev = lf_sort[k]
        if kids and tied[p]:
            tied[kids[0]] = True
        stack.extend(reversed(kids))

    rows = _make_rows(tree, norm, shares, efctv, factor, level_fs)
    return FairShareResult("fair_tree", [rows[i] for i in tree.order], fs_factor, total,
                           dampening, tree, rows, ranked, tied)


def _classic(tree: Tree, norm: list[float], algorithm: str, dampening: int) -> FairShareResult:
    assocs, fsp, root = tree.assocs, tree.fs_parent, tree.root
    n = len(assocs)
    chain = [1.0] * n  # product of share fractions down the real tree (parent rows skipped)
    shares = [1.0] * n
    efctv = [1.0] * n
    oblivious = algorithm == "depth_oblivious"
    sibling_norm: list[float] = []
    if oblivious:
        sibling_norm = [0.0] * n
        for i in tree.order:
            if i != root and assocs[i].shares != SHARES_PARENT:
                sibling_norm[fsp[i]] += norm[i]
    for i in tree.order:
        if i == root:
            continue
        a = assocs[i]
        fp = fsp[i]
        lvl = tree.level_shares[i]
        if a.shares == SHARES_PARENT:
            chain[i] = chain[tree.parent[i]]
            shares[i] = shares[fp]
            efctv[i] = efctv[fp]
            continue
        chain[i] = chain[tree.parent[i]] * (a.shares / lvl) if lvl else 0.0
        shares[i] = chain[i]
        un = norm[i]
        if fp == root:
            efctv[i] = un
        elif oblivious:
            efctv[i] = _oblivious_efctv(shares[i], un, shares[fp], efctv[fp], sibling_norm[fp])
        elif lvl:
            efctv[i] = un + (efctv[fp] - un) * (a.shares / lvl)
        else:
            efctv[i] = efctv[fp]

    if algorithm == "linear":
        fair: list[float | None] = [(s - u + 1.0) / 2.0 for s, u in zip(shares, efctv)]
    else:
        fair = [2.0 ** (-(u / s) / dampening) if s > 0 else 0.0 for s, u in zip(shares, efctv)]
    fs_factor = {assocs[i].id: fair[i] for i in range(n) if assocs[i].user is not None}
    rows = _make_rows(tree, norm, shares, efctv, fair, [None] * n)
    return FairShareResult(algorithm, [rows[i] for i in tree.order], fs_factor,  # type: ignore[arg-type]
                           tree.user_count, dampening, tree, rows)


def oblivious_terms(s: float, un: float, ps: float, pue: float, sib_un: float
                    ) -> tuple[float, float, float] | None:
    """(ratio_p, ratio_l, k) of Slurm's depth-oblivious formula, or None when UE = UN."""
    if not (s and ps and pue and un):
        return None
    ratio_p = pue / ps
    ratio_l = (un / s) / (sib_un / ps)
    if not ratio_p or not ratio_l or math.log(ratio_p) * math.log(ratio_l) >= 0:
        k = 1.0
    else:
        k = 1.0 / (1.0 + (5.0 * math.log(ratio_p)) ** 2)
    return ratio_p, ratio_l, k


def _oblivious_efctv(s: float, un: float, ps: float, pue: float, sib_un: float) -> float:
    terms = oblivious_terms(s, un, ps, pue, sib_un)
    if terms is None:
        return un
    ratio_p, ratio_l, k = terms
    return ratio_p * ratio_l ** k * s
