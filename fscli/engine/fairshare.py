"""Fair-share factors the way Slurm's priority/multifactor plugin computes them.

Input: the association tree (:class:`~fscli.engine.model.AssocColumns`: one root with
``parent_id`` None, accounts, user associations with ``user`` set; ``shares`` may be
``SHARES_PARENT``; a list of ``Assoc`` comes in through ``AssocColumns.of``) and
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

import collections
import functools
import itertools
import math
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from fscli.engine.config import ALGORITHMS
from fscli.engine.model import SHARES_PARENT, Assoc, AssocColumns
from fscli.errors import InvalidValue

NO_VAL = 4294967294.0
"""Slurm's NO_VAL as a LevelFS: what a ``FairShare=parent`` account gets (printed blank)."""


class ShareRow(NamedTuple):
    """One sshare row. ``None`` means "printed blank" (Slurm's NO_VAL).

    A named tuple, so that a result's 100,000 rows are made in one C-level pass
    (:func:`_make_rows`), with no Python ``__init__`` call per row.
    """

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


@dataclass(eq=False, repr=False)  # arrays of every association: never compared or printed
class Tree:
    """The association tree as index arrays (position ``i`` = ``assocs[i]``).

    ``fs_parent`` is Slurm's fair-share parent (``fs_assoc_ptr``); ``level_shares[i]`` is
    the sum of raw shares of ``i``'s fair-share siblings (itself included, ``parent``
    siblings counting 0); ``raw`` is the aggregated RawUsage.
    """

    assocs: AssocColumns
    index: dict[int, int]
    parent: list[int]
    order: list[int]
    depth: list[int]
    fs_parent: list[int]
    fs_children: list[Sequence[int]]
    level_shares: list[int]
    raw: list[float]
    root: int
    user_count: int
    users: list[str | None]  # per position: the association's user (None for accounts)
    shares: list[int]  # per position: raw shares (SHARES_PARENT for FairShare=parent)
    ids: list[int]  # per position: the association id
    fs_parents: list[int]  # positions with fair-share children, in tree order
    user_parents: set[int]  # those of them whose fair-share children are all users
    reattached: bool  # some association has FairShare=parent (fs_parent differs from parent)
    sums: _Sums  # how ``raw`` was added up, for another usage of the same tree
    _fields: dict[str, list] = field(default_factory=dict)

    def column(self, name: str) -> list:
        """Each position's association's ``name`` field (made once per tree)."""
        if name not in self._fields:
            self._fields[name] = _field(self.assocs, name)
        return self._fields[name]


@dataclass(eq=False, repr=False)  # arrays of every association: never compared or printed
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

    Built on first use, from the columns: ``rows`` (sshare order) and ``by_index`` (tree
    positions), :class:`ShareRow` objects that job priority never needs, and
    ``fs_factor``, the dict job priority reads that sshare never needs.
    """

    algorithm: str
    user_count: int
    dampening: int
    tree: Tree
    columns: Columns
    # Fair Tree only: each fs-parent's children (tree indexes) in ranking order, tie flags.
    ranked_children: dict[int, list[int]] = field(default_factory=dict)
    tied: set[int] = field(default_factory=set)  # tree indexes tied with the previous sibling
    # Classic with a lag: RawUsage per tree index as the last pass began (account rows' UN).
    pass_start_raw: list[float] | None = None

    @functools.cached_property
    def fs_factor(self) -> dict[int, float]:
        """User association id -> fair-share factor."""
        tree = self.tree
        is_user = map(operator.is_not, tree.users, itertools.repeat(None))
        # every user row has a FairShare: only account rows print a blank
        return cast(
            dict[int, float],
            dict(itertools.compress(zip(tree.ids, self.columns.fairshare), is_user)),
        )

    @functools.cached_property
    def by_index(self) -> list[ShareRow]:
        return _make_rows(self.tree, self.columns)

    @functools.cached_property
    def rows(self) -> list[ShareRow]:
        return list(map(self.by_index.__getitem__, self.tree.order))

    def row_chunks(self, size: int) -> Iterator[list[ShareRow]]:
        """``rows`` in pieces of ``size`` rows. Until ``rows`` is asked for, each piece is
        made when it is reached: a view that writes its rows as they come never holds all
        of them (17 MB at 100,000 associations)."""
        if "rows" in self.__dict__:
            rows = self.rows
            for start in range(0, len(rows), size):
                yield rows[start : start + size]
            return
        order = self.tree.order
        for start in range(0, len(order), size):
            yield _make_rows(self.tree, self.columns, order[start : start + size])

    def column_chunks(self, size: int) -> Iterator[Mapping[str, Sequence]]:
        """The rows of :meth:`row_chunks` as columns (:func:`share_columns`), each piece
        made from the engine's columns without a row object: what a view that prints
        every row of its pieces, as columns, needs (sshare -P at 100,000 associations
        spent 0.06 s of its 0.8 s making rows only to take them apart again)."""
        if "rows" in self.__dict__:
            yield from map(share_columns, self.row_chunks(size))
            return
        order = self.tree.order
        for start in range(0, len(order), size):
            yield _make_columns(self.tree, self.columns, order[start : start + size])

    def row(self, assoc_id: int) -> ShareRow:
        """The row of one association (``InvalidValue`` if it is not in the tree)."""
        i = self.tree.index.get(assoc_id)
        if i is None:
            raise InvalidValue(f"association id {assoc_id} is not in the tree")
        return self.by_index[i]


def _field(assocs: AssocColumns, name: str, where: list[bool] | None = None) -> list:
    """Each association's ``name`` field, in order (the column, without making the
    objects); with ``where``, of the associations it selects only."""
    column = assocs.field(name)
    return column if where is None else list(itertools.compress(column, where))


def build_tree(assocs: AssocColumns, usage: Mapping[int, float]) -> Tree:
    """Index the tree, order it, find fs-parents and level shares, aggregate usage."""
    n = len(assocs)
    ids = _field(assocs, "id")
    index = dict(zip(ids, range(n)))
    if len(index) != n:
        counts = collections.Counter(ids)
        dup = next(x for x, k in counts.items() if k > 1)
        raise InvalidValue(f"association id {dup} appears twice")
    users = _field(assocs, "user")
    # -2: root or unknown parent
    parent_ids = _field(assocs, "parent_id")
    parent = list(map(index.get, parent_ids, itertools.repeat(-2, n)))
    root = parent.index(-2) if -2 in parent else -1
    if parent.count(-2) != 1 or parent_ids[root] is not None:
        roots = sum(a.parent_id is None for a in assocs)
        if roots != 1:
            raise InvalidValue(f"expected exactly one root association, found {roots}")
        a = next(a for a, p in zip(assocs, parent) if p == -2 and a.parent_id is not None)
        raise InvalidValue(f"association {a.id} ({_label(a)}) has unknown parent id {a.parent_id}")
    parent[root] = -1
    # positions 0..n-1 as the int objects the index already holds (a range makes new ones)
    by_name, user_count = _name_order(assocs, users, list(index.values()))
    children, parents, groups = _group(by_name, parent)
    bad = [p for p in parents if users[p] is not None]
    if bad:
        a = assocs[children[min(bad)][0]]
        raise InvalidValue(f"association {a.id} ({_label(a)}) has a user association as parent")

    shares = _field(assocs, "shares")
    level_sum = [0] * n  # children's shares, for the tree without re-attachment
    _scatter(level_sum, parents, map(sum, map(map, itertools.repeat(shares.__getitem__), groups)))
    inner: list[int] = []  # positions with children, in tree order
    leaf_parents: list[int] = []  # those whose children are all users
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
            kid_depth[i] = kid_depth[parent[i]] + 1
            if users[kids[-1]] is not None:  # only users (they sort first), so only leaves
                visit_all(kids)
                leaf_parents.append(i)
            else:
                push(reversed(kids))
    depth = list(map(kid_depth.__getitem__, parent))
    if len(order) != n:
        seen_set = set(order)
        stray = next(a for i, a in enumerate(assocs) if i not in seen_set)
        raise InvalidValue(
            f"association {stray.id} ({_label(stray)}) is not below the root (cycle?)"
        )

    plan = _Sums(index, children, leaf_parents, inner)
    own = plan.positions(usage)
    raw = plan.totals(usage, own)
    leafy = plan.leafy
    _check_usage(usage, own, n, raw[root])

    fs_parent, fs_children, fs_parents = parent, children, inner  # unless re-attached
    user_parents = leafy
    reattached = SHARES_PARENT in shares
    if reattached:
        fs_parent, fs_children, level_sum = _reattach(order, parent, shares, by_name)
        fs_parents = [i for i in order if fs_children[i]]
        user_parents = {i for i in fs_parents if users[fs_children[i][-1]] is not None}
    level_shares = list(map(level_sum.__getitem__, fs_parent))
    level_shares[root] = 0
    return Tree(
        assocs,
        index,
        parent,
        order,
        depth,
        fs_parent,
        fs_children,
        level_shares,
        raw,
        root,
        user_count,
        users,
        shares,
        ids,
        fs_parents,
        user_parents,
        reattached,
        plan,
    )


class _Sums:
    """How RawUsage adds up the tree: an account's is its own plus its children's, added
    last child first; accounts of users only all at once, then the others children before
    parents (reversed tree order). Kept with the tree, so that a second usage (the one
    classic's account rows lag behind with) adds up in the very same order."""

    def __init__(
        self,
        index: dict[int, int],
        children: list[Sequence[int]],
        leaf_parents: list[int],
        inner: list[int],
    ):
        self.index, self.children, self.leaf_parents, self.inner = (
            index,
            children,
            leaf_parents,
            inner,
        )
        self.leafy = set(leaf_parents)

    def positions(self, usage: Mapping[int, float]) -> list[int]:
        """The tree position of each association ``usage`` names, in its order; one past
        the last position for an association the tree does not hold."""
        return list(map(self.index.get, usage, itertools.repeat(len(self.index))))

    def totals(self, usage: Mapping[int, float], own: list[int] | None = None) -> list[float]:
        """Each position's RawUsage from the usage charged to each association itself
        (``own``: its :meth:`positions`, if known; the unknown ones are left out).

        The usage is read in its own order and put in place, not looked up position by
        position: the positions follow the tree and the usage (as the store reads it)
        the association ids, and its values, read in their order, lie side by side in
        memory (build_tree at 100,000 associations read by parent: 0.13 s against 0.145)."""
        if own is None:
            own = self.positions(usage)
        children, leaf_parents = self.children, self.leaf_parents
        placed = [0.0] * (len(self.index) + 1)  # the last: unknown associations' usage
        _scatter(placed, own, map(float, usage.values()))
        placed.pop()
        # copies (x * 1.0 is x, bit for bit), made in position order: every later pass
        # (the sums, the shares, sshare's text) then reads them side by side in memory
        raw = list(map(operator.mul, placed, itertools.repeat(1.0)))
        raw_of, add = raw.__getitem__, operator.add
        leaf_kids = map(
            map, itertools.repeat(raw_of), map(reversed, map(children.__getitem__, leaf_parents))
        )
        _scatter(
            raw,
            leaf_parents,
            map(functools.reduce, itertools.repeat(add), leaf_kids, map(raw_of, leaf_parents)),
        )
        leafy = self.leafy
        if len(leafy) < len(self.inner):
            for p in itertools.filterfalse(leafy.__contains__, reversed(self.inner)):
                raw[p] = functools.reduce(add, map(raw_of, reversed(children[p])), raw[p])
        return raw


def _name_order(
    assocs: AssocColumns, users: list[str | None], positions: list[int]
) -> tuple[list[int], int]:
    """(``positions``, i.e. 0..n-1, in sshare's sibling order; #users): users by (user,
    partition), then accounts by name."""
    n = len(users)
    is_account = list(map(operator.is_, users, itertools.repeat(None, n)))
    user_key: list[str | None] = users
    partitions = _field(assocs, "partition")
    if any(partitions):  # "\0" sorts first: "u\0p" sorts like (u, p)
        user_key = [u if not p or u is None else u + "\0" + p for u, p in zip(users, partitions)]
    user_pos = sorted(
        itertools.compress(positions, map(operator.not_, is_account)),
        key=cast(Callable[[int], str], user_key.__getitem__),
    )
    account_pos = list(itertools.compress(positions, is_account))
    names = _field(assocs, "account", is_account)
    by_name = sorted(range(len(names)), key=names.__getitem__)
    return user_pos + list(map(account_pos.__getitem__, by_name)), len(user_pos)


def _group(
    ordered: list[int], parent: list[int]
) -> tuple[list[Sequence[int]], list[int], list[list[int]]]:
    """(each position's children in their relative order in ``ordered``, the positions that
    have children in ascending order, their children lists in that order).

    One stable sort by parent, then the runs of equal parents taken by ``groupby``: no
    Python-level step per child. The root (parent -1) sorts first, alone, and is dropped.
    """
    children: list[Sequence[int]] = [()] * len(parent)
    runs = itertools.groupby(sorted(ordered, key=parent.__getitem__), key=parent.__getitem__)
    next(runs, None)  # the root's run
    groups = list(map(list, map(operator.itemgetter(1), runs)))
    parents = list(map(parent.__getitem__, map(operator.itemgetter(0), groups)))
    _scatter(children, parents, groups)
    return children, parents, groups


def _scatter(target: list, positions: Iterable[int], values: Iterable) -> None:
    """``target[positions[k]] = values[k]`` for every k, without a Python-level loop."""
    collections.deque(map(target.__setitem__, positions, values), 0)


def _check_usage(usage: Mapping[int, float], own: list[int], n: int, total: float) -> None:
    """Usage must name known associations (``own``: their positions, ``n`` for an unknown
    one) and be >= 0 (not NaN); checked in bulk first (``total``, the root's RawUsage, is
    NaN if any known association's usage is)."""
    if n not in own and min(usage.values(), default=0.0) >= 0 and not math.isnan(total):
        return
    for (assoc_id, amount), position in zip(usage.items(), own):
        if position == n:
            raise InvalidValue(f"usage given for unknown association id {assoc_id}")
        if not amount >= 0:  # also rejects NaN
            raise InvalidValue(f"negative usage {amount} for association id {assoc_id}")


def _reattach(
    order: list[int], parent: list[int], shares: list[int], by_name: list[int]
) -> tuple[list[int], list[Sequence[int]], list[int]]:
    """(fs_parent, fs_children, level share sums) with ``FairShare=parent`` re-attached.

    The fs-parent is the first ancestor (from the direct parent up) whose shares are not
    "parent", stopping at root. anchor[i] is that answer for i's own children. Children
    come in ``by_name`` order.
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
    rank = dict(zip(by_name, range(n))).__getitem__
    return fs_parent, [sorted(kids, key=rank) for kids in fs_children], level_sum


def _label(a: Assoc) -> str:
    return f"account={a.account}" + (f" user={a.user}" if a.user else "")


def compute(
    assocs: AssocColumns,
    usage: Mapping[int, float],
    algorithm: str = "fair_tree",
    dampening: int = 1,
    before_pass: Mapping[int, float] | None = None,
) -> FairShareResult:
    """Compute every association's sshare numbers with one algorithm.

    ``usage`` maps assoc id -> raw usage charged to that association itself.
    ``dampening`` is FairShareDampeningFactor (classic and depth-oblivious only).
    ``before_pass`` is the usage (same shape) as it stood when the last decay pass began:
    classic slurmctld works out the account rows' NormUsage and EffectvUsage at the start
    of each pass, before that pass's decay and new usage, and the user rows later, lazily,
    from the current usage and their parent's lagging values (spec a.2, "When, exactly").
    None (or Fair Tree, which computes after the new usage) = no lag.
    """
    if algorithm not in ALGORITHMS:
        raise InvalidValue(
            f"unknown algorithm '{algorithm}': expected one of {', '.join(ALGORITHMS)}"
        )
    if dampening < 1:
        raise InvalidValue(f"invalid FairShareDampeningFactor {dampening}: must be >= 1")
    tree = build_tree(assocs, usage)
    norm = _normalized(tree.raw, tree.root)  # raw[i] <= the root's: no quotient exceeds 1
    if algorithm == "fair_tree":
        return _fair_tree(tree, norm, dampening)
    if before_pass is None or before_pass == usage:
        return _classic(tree, norm, norm, algorithm, dampening)
    lag_raw = tree.sums.totals(before_pass)
    result = _classic(tree, norm, _normalized(lag_raw, tree.root), algorithm, dampening)
    result.pass_start_raw = lag_raw
    return result


def _normalized(raw: list[float], root: int) -> list[float]:
    """NormUsage per position: RawUsage over the root's, 0 when that is 0."""
    top = raw[root]
    if not top:
        return [0.0] * len(raw)
    return list(map(operator.truediv, raw, itertools.repeat(top, len(raw))))


def share_columns(rows: Sequence[ShareRow]) -> dict[str, Sequence]:
    """``rows`` as columns: :class:`ShareRow`'s field name -> that field of every row."""
    if not rows:
        return dict.fromkeys(ShareRow._fields, ())
    return dict(zip(ShareRow._fields, zip(*rows)))


def grp_tres_mins(limits: Mapping[str, Any] | None) -> dict[str, int] | None:
    """sshare's GrpTRESMins of an association's ``limits`` (None: blank)."""
    return limits.get("GrpTRESMins") or None if limits else None


def _make_rows(tree: Tree, c: Columns, positions: Sequence[int] | None = None) -> list[ShareRow]:
    """The rows of tree ``positions`` (default: all, in the input order)."""
    columns = _make_columns(tree, c, positions).values()
    return list(map(tuple.__new__, itertools.repeat(ShareRow), zip(*columns)))


def _make_columns(
    tree: Tree, c: Columns, positions: Sequence[int] | None = None
) -> Mapping[str, Sequence]:
    """:func:`share_columns` of the rows of tree ``positions`` (default: all, in the input
    order): :class:`_PickedColumns`."""
    return _PickedColumns(tree, c, range(len(tree.ids)) if positions is None else positions)


class _PickedColumns(Mapping[str, Sequence]):
    """The columns of some tree positions' rows, each picked in one C call when it is
    first read: sshare's default -P fields read seven of the thirteen, and leave
    GrpTRESMins, which takes a Python step per row. Root's RawShares and NormUsage are
    blank."""

    _TREE_FIELDS = {
        "assoc_id": "ids",
        "user": "users",
        "depth": "depth",
        "raw_shares": "shares",
        "raw_usage": "raw",
    }
    _ASSOC_FIELDS = ("account", "partition")

    def __init__(self, tree: Tree, c: Columns, positions: Sequence[int]):
        self._tree, self._c = tree, c
        self._pick: Callable[[Sequence], Sequence]
        if isinstance(positions, range) and positions.step == 1:
            self._pick = operator.itemgetter(slice(positions.start, positions.stop))
        elif len(positions) == 1:
            self._pick = operator.itemgetter(slice(positions[0], positions[0] + 1))
        else:
            self._pick = operator.itemgetter(*positions)  # a tuple of those items, in one C call
        self._root_at = positions.index(tree.root) if tree.root in positions else None
        self._made: dict[str, Sequence] = {}

    def __iter__(self) -> Iterator[str]:
        return iter(ShareRow._fields)

    def __len__(self) -> int:
        return len(ShareRow._fields)

    def __getitem__(self, name: str) -> Sequence:
        column = self._made.get(name)
        if column is None:
            column = self._made[name] = self._picked(name)
        return column

    @functools.cached_property
    def _assocs(self) -> Sequence[Assoc]:
        return self._pick(self._tree.assocs.objects())

    def _picked(self, name: str) -> Sequence:
        if name in self._ASSOC_FIELDS:
            return self._pick(self._tree.column(name))
        if name == "grp_tres_mins":
            return [grp_tres_mins(a.limits) for a in self._assocs]
        if name in self._TREE_FIELDS:
            column = self._pick(getattr(self._tree, self._TREE_FIELDS[name]))
        elif name in ShareRow._fields:
            column = self._pick(getattr(self._c, name))  # the engine's computed columns
        else:
            raise KeyError(name)
        if name in ("raw_shares", "norm_usage") and self._root_at is not None:
            column = list(column)  # a copy, with root's blanked
            column[self._root_at] = None
        return column


def _fair_tree(tree: Tree, norm: list[float], dampening: int) -> FairShareResult:
    raw, fsp, root = tree.raw, tree.fs_parent, tree.root
    users, raw_shares = tree.users, tree.shares
    # U = raw / fs-parent raw, S = shares / level shares, LevelFS = S / U (root fixed below)
    inf = math.inf
    if 0.0 in raw:
        efctv = _divide(raw, list(map(raw.__getitem__, fsp)), 0.0)
    else:  # no zero divisor (fsp[root] = -1 names some position: root is fixed below)
        efctv = list(map(operator.truediv, raw, map(raw.__getitem__, fsp)))
    shares = _divide(raw_shares, tree.level_shares, 0.0, 0)
    level_fs: list[float | None] = _divide(shares, efctv, inf)  # type: ignore[assignment]
    _scatter(level_fs, _zeros(shares, 0.0), itertools.repeat(0.0))
    # the value Slurm sorts on: LevelFS, NO_VAL for the root and parent accounts
    sort_key: list[float] = list(level_fs)  # type: ignore[arg-type]
    efctv[root], shares[root], level_fs[root], sort_key[root] = 1.0, 0.0, None, NO_VAL
    if tree.reattached:
        for i in tree.order:
            if raw_shares[i] == SHARES_PARENT:
                shares[i] = shares[fsp[i]]
                level_fs[i] = None
                sort_key[i] = inf if users[i] is not None else NO_VAL

    # Each fs-parent's children ranked by LevelFS descending (fs_children are in name order,
    # users first, and the sort is stable, also reversed); ``ranked`` lists parents in tree
    # order, so before their children.
    by_level, fs_children, fs_parents = sort_key.__getitem__, tree.fs_children, tree.fs_parents
    rank_kids = functools.partial(sorted, key=by_level, reverse=True)
    ranked = dict(zip(fs_parents, map(rank_kids, map(fs_children.__getitem__, fs_parents))))
    # Users in depth-first order of the ranked tree: an account whose children are all users
    # adds them at once.
    seq: list[int] = []
    stack = [root]
    pop, push, add, add_all, kids_of = stack.pop, stack.extend, seq.append, seq.extend, ranked.get
    user_parents = tree.user_parents
    while stack:
        p = pop()
        kids = kids_of(p)
        if kids is None:
            if users[p] is not None:
                add(p)
        elif p in user_parents:
            add_all(kids)
        else:
            push(reversed(kids))

    # Slurm's tie rule: the first child inherits its account's tie, every other child is
    # tied when its LevelFS equals the previous sibling's.
    flat = list(itertools.chain.from_iterable(ranked.values()))
    lfs = list(map(by_level, flat))
    before = [NO_VAL, *lfs]  # the previous sibling's; NO_VAL for first children
    _scatter(before, itertools.accumulate(map(len, ranked.values())), itertools.repeat(NO_VAL))
    tied = set(itertools.compress(flat, map(operator.eq, lfs, before)))
    for p in filter(tied.__contains__, ranked):  # parents first: a tie passes all the way down
        tied.add(ranked[p][0])

    # factor = rank / #users, ranks counting down; a user tied with the previous one
    # keeps its rank.
    total = tree.user_count
    ranks: range | list[int] = range(total, 0, -1)
    if tied:
        ranks = list(ranks)
        for j in itertools.compress(
            range(1, total), map(tied.__contains__, itertools.islice(seq, 1, None))
        ):
            ranks[j] = ranks[j - 1]
    factor: list[float | None] = [None] * len(raw)
    _scatter(factor, seq, map(operator.truediv, ranks, itertools.repeat(total, total)))
    return FairShareResult(
        "fair_tree",
        total,
        dampening,
        tree,
        Columns(norm, shares, efctv, factor, level_fs),
        ranked,
        tied,
    )


def _zeros(values: list, zero: float) -> list[int]:
    """The positions of the zeros in ``values``; ``zero`` is 0 or 0.0, of the type of the
    values (comparisons of one type are faster)."""
    if zero not in values:
        return []
    return list(
        itertools.compress(range(len(values)), map(operator.eq, values, itertools.repeat(zero)))
    )


def _divide(num: list, den: list, if_zero: float, zero: float = 0.0) -> list[float]:
    """``num[i] / den[i]``, or ``if_zero`` where ``den[i]`` is 0 (``zero``: as in :func:`_zeros`).

    Without a zero divisor, one C-level pass. With some, one test per divisor: finding
    the zeros, dividing by stand-ins and putting ``if_zero`` back costs several passes,
    and zeros are common (every user without usage, under an account without any, has a
    zero EffectvUsage to divide LevelFS by): 26 ms against 5 for Fair Tree's divisions at
    100,000 associations, nine in ten without usage."""
    if zero not in den:
        return list(map(operator.truediv, num, den))
    return [n / d if d else if_zero for n, d in zip(num, den)]


def _classic(
    tree: Tree, current: list[float], lagging: list[float], algorithm: str, dampening: int
) -> FairShareResult:
    """Classic, depth-oblivious and linear. Account rows take their NormUsage from
    ``lagging`` (the usage when the last pass began), user rows from ``current``."""
    raw_shares, fsp, root, users = tree.shares, tree.fs_parent, tree.root, tree.users
    n = len(raw_shares)
    norm = current
    if lagging is not current:
        norm = [c if u is not None else lag for c, lag, u in zip(current, lagging, users)]
    chain = [1.0] * n  # product of share fractions down the real tree (parent rows skipped)
    shares = [1.0] * n
    efctv = [1.0] * n
    oblivious = algorithm == "depth_oblivious"
    sibling_norm: list[float] = []
    if oblivious:
        sibling_norm = [0.0] * n
        for i in tree.order:
            if i != root and raw_shares[i] != SHARES_PARENT:
                sibling_norm[fsp[i]] += norm[i]
    for i in tree.order:
        if i == root:
            continue
        own = raw_shares[i]
        fp = fsp[i]
        lvl = tree.level_shares[i]
        if own == SHARES_PARENT:
            chain[i] = chain[tree.parent[i]]
            shares[i] = shares[fp]
            efctv[i] = efctv[fp]
            continue
        chain[i] = chain[tree.parent[i]] * (own / lvl) if lvl else 0.0
        shares[i] = chain[i]
        un = norm[i]
        if fp == root:
            efctv[i] = un
        elif oblivious:
            efctv[i] = _oblivious_efctv(shares[i], un, shares[fp], efctv[fp], sibling_norm[fp])
        elif lvl:
            efctv[i] = un + (efctv[fp] - un) * (own / lvl)
        else:
            efctv[i] = efctv[fp]

    if algorithm == "linear":
        fair: list[float | None] = [(s - u + 1.0) / 2.0 for s, u in zip(shares, efctv)]
    else:
        fair = [2.0 ** (-(u / s) / dampening) if s > 0 else 0.0 for s, u in zip(shares, efctv)]
    return FairShareResult(
        algorithm, tree.user_count, dampening, tree, Columns(norm, shares, efctv, fair, [None] * n)
    )


def oblivious_terms(
    s: float, un: float, ps: float, pue: float, sib_un: float
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
    return ratio_p * ratio_l**k * s
