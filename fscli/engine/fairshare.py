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

import functools
import itertools
import math
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from fscli.engine.config import ALGORITHMS
from fscli.engine.heap import bulk
from fscli.engine.model import SHARES_PARENT, Assoc
from fscli.errors import InvalidValue

_ID, _PARENT_ID, _USER, _SHARES, _ACCOUNT, _PARTITION = map(
    operator.attrgetter, ("id", "parent_id", "user", "shares", "account", "partition"))

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
    name_key: list[str]
    users: list[str | None]  # per position: the association's user (None for accounts)
    shares: list[int]  # per position: raw shares (SHARES_PARENT for FairShare=parent)
    ids: list[int]  # per position: the association id
    fs_parents: list[int]  # positions with fair-share children, in tree order


@dataclass
class Columns:
    """The computed numbers per tree position (``None`` = printed blank)."""

    norm_usage: list[float]
    norm_shares: list[float]
    effective_usage: list[float]
    fairshare: list[float | None]
    level_fs: list[float | None]


@dataclass
class FairShareResult:
    """The numbers per association plus what explanations and job priority need.

    ``rows`` (sshare order) and ``by_index`` (tree positions) are :class:`ShareRow`
    objects built on first use: job priority needs only ``fs_factor``.
    """

    algorithm: str
    fs_factor: dict[int, float]
    user_count: int
    dampening: int
    tree: Tree
    columns: Columns
    # Fair Tree only: each fs-parent's children (tree indexes) in ranking order, tie flags.
    ranked_children: dict[int, list[int]] = field(default_factory=dict)
    tied: list[bool] = field(default_factory=list)  # by tree index

    @functools.cached_property
    def by_index(self) -> list[ShareRow]:
        return _make_rows(self.tree, self.columns)

    @functools.cached_property
    def rows(self) -> list[ShareRow]:
        return list(map(self.by_index.__getitem__, self.tree.order))

    def row(self, assoc_id: int) -> ShareRow:
        """The row of one association (``InvalidValue`` if it is not in the tree)."""
        i = self.tree.index.get(assoc_id)
        if i is None:
            raise InvalidValue(f"association id {assoc_id} is not in the tree")
        return self.by_index[i]


def build_tree(assocs: Sequence[Assoc], usage: Mapping[int, float]) -> Tree:
    """Index the tree, order it, find fs-parents and level shares, aggregate usage."""
    n = len(assocs)
    ids = list(map(_ID, assocs))
    index = dict(zip(ids, range(n)))
    if len(index) != n:
        seen: set[int] = set()
        dup = next(x for x in ids if x in seen or seen.add(x))  # type: ignore[func-returns-value]
        raise InvalidValue(f"association id {dup} appears twice")
    users = list(map(_USER, assocs))
    parent = [-1 if p is None else index.get(p, -2) for p in map(_PARENT_ID, assocs)]
    if parent.count(-1) != 1:
        raise InvalidValue(f"expected exactly one root association, found {parent.count(-1)}")
    root = parent.index(-1)
    if -2 in parent:
        a = assocs[parent.index(-2)]
        raise InvalidValue(f"association {a.id} ({_label(a)}) has unknown parent id {a.parent_id}")
    # sshare order within a parent: users first, then sub-accounts, each alphabetical. One
    # string per association sorts like (0, user, partition) / (1, account) tuples.
    name_key = ["\0" + a.user + "\0" + (a.partition or "") if a.user is not None
                else "\1" + a.account for a in assocs]
    by_name = name_key.__getitem__
    children: list[list[int]] = [[] for _ in range(n + 1)]  # the extra list takes the root
    for i in sorted(range(n), key=by_name):
        children[parent[i]].append(i)
    children.pop()
    bad = [p for p in set(parent) if p >= 0 and users[p] is not None]
    if bad:
        a = assocs[children[min(bad)][0]]
        raise InvalidValue(f"association {a.id} ({_label(a)}) has a user association as parent")

    shares = list(map(_SHARES, assocs))
    share_of = shares.__getitem__
    level_sum = [0] * n  # children's shares, for the tree without re-attachment
    inner: list[int] = []  # positions with children, in tree order
    kid_depth = [0] * (n + 1)  # depth of i's children; the extra entry serves the root
    order: list[int] = []
    stack = [root]
    push, pop, visit, visit_all = stack.extend, stack.pop, order.append, order.extend
    while stack:
        i = pop()
        visit(i)
        kids = children[i]
        if kids:
            inner.append(i)
            level_sum[i] = sum(map(share_of, kids))
            kid_depth[i] = kid_depth[parent[i]] + 1
            if users[kids[-1]] is not None:  # only users (they sort first), so only leaves
                visit_all(kids)
            else:
                push(reversed(kids))
    depth = list(map(kid_depth.__getitem__, parent))
    if len(order) != n:
        seen_set = set(order)
        stray = next(a for i, a in enumerate(assocs) if i not in seen_set)
        raise InvalidValue(
            f"association {stray.id} ({_label(stray)}) is not below the root (cycle?)")

    _check_usage(usage, index)
    get = usage.get
    raw = [0.0 + get(x, 0.0) for x in ids]
    for i in order[:0:-1]:  # children before parents; order[0] is the root
        raw[parent[i]] += raw[i]

    fs_parent, fs_children = parent, children  # unless something is re-attached
    if SHARES_PARENT in shares:
        fs_parent, fs_children, level_sum = _reattach(order, parent, shares)
        for kids in fs_children:
            kids.sort(key=by_name)
        inner = [i for i in order if fs_children[i]]
    level_shares = [level_sum[fp] if fp >= 0 else 0 for fp in fs_parent]
    user_count = n - users.count(None)
    return Tree(assocs, index, parent, order, depth, fs_parent, fs_children, level_shares,
                raw, root, user_count, name_key, users, shares, ids, inner)


def _check_usage(usage: Mapping[int, float], index: Mapping[int, int]) -> None:
    """Usage must name known associations and be >= 0 (not NaN); checked in bulk first."""
    values = usage.values()
    total = sum(values)  # NaN if any is NaN (no -inf passes the min check)
    if not usage.keys() - index.keys() and min(values, default=0.0) >= 0 and not math.isnan(total):
        return
    for assoc_id, amount in usage.items():
        if assoc_id not in index:
            raise InvalidValue(f"usage given for unknown association id {assoc_id}")
        if not amount >= 0:  # also rejects NaN
            raise InvalidValue(f"negative usage {amount} for association id {assoc_id}")


def _reattach(order: list[int], parent: list[int], shares: list[int]
              ) -> tuple[list[int], list[list[int]], list[int]]:
    """(fs_parent, fs_children, level share sums) with ``FairShare=parent`` re-attached.

    The fs-parent is the first ancestor (from the direct parent up) whose shares are not
    "parent", stopping at root. anchor[i] is that answer for i's own children.
    """
    n = len(parent)
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
    return fs_parent, fs_children, level_sum


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
    with bulk():
        tree = build_tree(assocs, usage)
        root_raw = tree.raw[tree.root]
        norm = [min(r / root_raw, 1.0) for r in tree.raw] if root_raw else [0.0] * len(tree.raw)
        if algorithm == "fair_tree":
            return _fair_tree(tree, norm, dampening)
        return _classic(tree, norm, algorithm, dampening)


def _make_rows(tree: Tree, c: Columns) -> list[ShareRow]:
    """Rows in the input (index) order; root's RawShares and NormUsage are blank."""
    assocs, root = tree.assocs, tree.root
    raw_shares: list[int | None] = list(tree.shares)
    raw_shares[root] = None
    norm_usage: list[float | None] = list(c.norm_usage)
    norm_usage[root] = None
    with bulk():
        return list(map(
            ShareRow, tree.ids, list(map(_ACCOUNT, assocs)), tree.users,
            list(map(_PARTITION, assocs)), tree.depth, raw_shares, c.norm_shares, tree.raw,
            norm_usage, c.effective_usage, c.fairshare, c.level_fs,
            [a.limits.get("GrpTRESMins") or None if a.limits else None for a in assocs],
        ))


def _fair_tree(tree: Tree, norm: list[float], dampening: int) -> FairShareResult:
    assocs, raw, fsp, root = tree.assocs, tree.raw, tree.fs_parent, tree.root
    n = len(assocs)
    users, raw_shares = tree.users, tree.shares
    # U = raw / fs-parent raw, S = shares / level shares, LevelFS = S / U (root fixed below)
    efctv = [r / u if u else 0.0 for r, u in zip(raw, [raw[fp] for fp in fsp])]
    shares = [s / lvl if lvl else 0.0 for s, lvl in zip(raw_shares, tree.level_shares)]
    inf = math.inf
    level_fs: list[float | None] = [
        0.0 if s == 0 else (s / u if u else inf) for s, u in zip(shares, efctv)]
    efctv[root], shares[root], level_fs[root] = 1.0, 0.0, None
    lf_sort = list(level_fs)  # the value Slurm sorts on (NO_VAL for parent accounts)
    lf_sort[root] = NO_VAL
    if SHARES_PARENT in raw_shares:
        for i in tree.order:
            if raw_shares[i] == SHARES_PARENT:
                shares[i] = shares[fsp[i]]
                level_fs[i] = None
                lf_sort[i] = inf if users[i] is not None else NO_VAL

    # Siblings by LevelFS descending; fs_children are in name order (users first), and
    # the sort is stable. Slurm's tie rule: the first child inherits its account's tie,
    # every other child is tied when its LevelFS equals the previous sibling's.
    by_level = [-lf for lf in lf_sort].__getitem__
    fs_children = tree.fs_children
    ranked: dict[int, list[int]] = {}
    tie: dict[int, bool] = {}
    lf_of = lf_sort.__getitem__
    for p in tree.fs_parents:
        kids = ranked[p] = sorted(fs_children[p], key=by_level)
        lfs = list(map(lf_of, kids))
        tie.update(zip(kids, map(float.__eq__, lfs, [NO_VAL, *lfs])))
        if tie.get(p):
            tie[kids[0]] = True

    # Users in depth-first order of the ranked tree: an account whose children are all
    # users (in name order users come first) adds them at once.
    seq: list[int] = []
    stack = [root]
    pop, push, add, add_all = stack.pop, stack.extend, seq.append, seq.extend
    while stack:
        p = pop()
        if users[p] is not None:
            add(p)
        elif p in ranked:
            if users[fs_children[p][-1]] is not None:
                add_all(ranked[p])
            else:
                push(reversed(ranked[p]))
    # factor = rank / #users, ranks counting down; a user tied with the previous one
    # keeps its rank.
    total = tree.user_count
    ranks = range(total, 0, -1)
    ties = list(map(tie.__getitem__, seq))
    if any(ties):
        ranks = list(ranks)
        for j in range(1, total):
            if ties[j]:
                ranks[j] = ranks[j - 1]
    fs_factor = dict(zip(map(tree.ids.__getitem__, seq),
                         map(operator.truediv, ranks, itertools.repeat(total, total))))
    factor: list[float | None] = list(map(fs_factor.get, tree.ids))
    tied = list(map(tie.get, range(n), itertools.repeat(False, n)))
    return FairShareResult("fair_tree", fs_factor, total, dampening, tree,
                           Columns(norm, shares, efctv, factor, level_fs), ranked, tied)


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
    fs_factor = {aid: f for aid, f, u in zip(tree.ids, fair, tree.users) if u is not None}
    return FairShareResult(algorithm, fs_factor, tree.user_count, dampening,  # type: ignore[arg-type]
                           tree, Columns(norm, shares, efctv, fair, [None] * n))


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
