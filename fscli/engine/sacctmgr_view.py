"""Associations as sacctmgr lists them, computed from the stored ones (plain data in, plain
data out: the store reads the rows, the API hands them here, ``fscli sacctmgr`` prints).

sacctmgr shows an association with the limits it inherits (slurmdbd fills a child's
unset Max* limits, QOS list, default QOS and priority from its parent; Grp* limits are
not inherited), numbers associations as a nested set (``lft``/``rgt``, siblings in the
order slurmdbd keeps, which the store's ``nest_order`` records) and orders listings
hierarchically (users before sub-accounts, each by name, :func:`hierarchical`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fscli.engine import qoslist
from fscli.engine.model import Assoc
from fscli.engine.tres import merge_tres

INHERITED = (
    "MaxJobs",
    "MaxJobsAccrue",
    "MinPrioThreshold",
    "MaxSubmitJobs",
    "MaxWallDurationPerJob",
    "MaxTRESPerJob",
    "MaxTRESPerNode",
    "MaxTRESMinsPerJob",
    "MaxTRESRunMins",
)
"""Limits a child shows from its parent when it sets none (TRES ones TRES by TRES)."""


@dataclass(slots=True)
class AssocView:
    """One association as sacctmgr lists it: its own settings and the effective ones.
    ``limits`` and ``qos`` may be the very objects of the parent's view or of the
    association (nothing changes them once made): copy before changing."""

    assoc: Assoc
    cluster: str
    parent_account: str  # "" for root and for user associations
    depth: int
    lft: int = 0
    rgt: int = 0
    limits: Mapping[str, Any] = field(default_factory=dict)  # own Grp*, effective Max*
    qos: list[str] = field(default_factory=list)  # effective, deltas applied, sorted
    default_qos: str | None = None
    priority: int | None = None

    @property
    def user(self) -> str | None:
        return self.assoc.user

    @property
    def account(self) -> str:
        return self.assoc.account


def cluster_view(
    assocs: Sequence[Assoc], cluster: str, own_only: bool, sibling_key: Callable[[int], Any]
) -> list[AssocView]:
    """The cluster's associations in sacctmgr's list order, numbered as slurmdbd's nested
    set (siblings in the order of ``sibling_key(id)``). ``own_only`` (sacctmgr's
    WOPLimits): no inherited values."""
    kids: dict[int | None, list[Assoc]] = {}
    for assoc in assocs:
        kids.setdefault(assoc.parent_id, []).append(assoc)
    for children in kids.values():
        children.sort(key=lambda a: sibling_key(a.id))
    views: dict[int, AssocView] = {}
    counter = 0
    # depth first, by hand: a deep tree must not reach Python's recursion limit
    stack: list[tuple[Assoc, AssocView | None, int, bool]] = [
        (root, None, 0, False) for root in reversed(kids.get(None, []))
    ]
    while stack:
        assoc, parent, depth, done = stack.pop()
        counter += 1
        if done:
            views[assoc.id].rgt = counter
            continue
        view = AssocView(
            assoc, cluster, "" if assoc.user or parent is None else parent.account, depth
        )
        _effective(view, None if own_only else parent)
        view.lft = counter
        views[assoc.id] = view
        stack.append((assoc, parent, depth, True))
        stack.extend((c, view, depth + 1, False) for c in reversed(kids.get(assoc.id, [])))
    return hierarchical(sorted(views.values(), key=lambda v: v.lft))


def hierarchical(views: list[AssocView]) -> list[AssocView]:
    """The associations in sacctmgr's list order (``slurmdb_sort_hierarchical_assoc_list``):
    each under its parent if that is among them, else at the top; the associations under
    one parent (and those at the top) users first, then by user or account name (a
    cluster's root by the cluster's name), in nested-set order where names tie (the
    sort is stable)."""
    by_lft = sorted(views, key=lambda v: v.lft)  # stable: clusters stay in order on ties
    present = {v.assoc.id for v in by_lft}
    top: list[AssocView] = []
    kids: dict[int, list[AssocView]] = {}
    for v in by_lft:
        parent = v.assoc.parent_id
        if parent is not None and parent in present:
            kids.setdefault(parent, []).append(v)
        else:
            top.append(v)

    def name(v: AssocView) -> tuple[bool, str]:
        if v.assoc.parent_id is None:
            return (True, v.cluster)
        return (v.user is None, v.user or v.account)

    out: list[AssocView] = []
    stack = [iter(sorted(top, key=name))]
    while stack:
        found = next(stack[-1], None)
        if found is None:
            stack.pop()
            continue
        out.append(found)
        below = kids.get(found.assoc.id)
        if below:
            stack.append(iter(sorted(below, key=name)))
    return out


def tree_depths(views: list[AssocView]) -> list[int]:
    """How far sacctmgr's ``tree`` listing indents each association's account, listed in
    this order (``slurmdb_tree_name_get``): an account one space further than its parent
    account if that was listed before it in the cluster, else not at all; a user one space
    further than its account if that was listed before, else not at all."""
    depths: list[int] = []
    seen: dict[str, int] = {}  # accounts listed (this cluster) -> their indent
    cluster = None
    for v in views:
        if v.cluster != cluster:
            seen, cluster = {}, v.cluster
        if v.user is not None:
            depths.append(seen[v.account] + 1 if v.account in seen else 0)
            continue
        if v.account not in seen:
            parent = v.parent_account or None
            seen[v.account] = seen[parent] + 1 if parent in seen else 0
        depths.append(seen[v.account])
    return depths


def _effective(view: AssocView, parent: AssocView | None) -> None:
    own = view.assoc
    view.default_qos = own.default_qos
    view.priority = own.priority
    view.qos = _qos(own.qos, parent.qos if parent else [])
    view.limits = own.limits
    if parent is None:
        return
    inherited = [name for name in INHERITED if name in parent.limits]
    if inherited:
        limits = dict(own.limits)
        for name in inherited:
            mine, theirs = limits.get(name), parent.limits[name]
            if theirs is None:
                continue
            if mine is None:
                limits[name] = theirs
            elif isinstance(mine, dict):
                limits[name] = merge_tres(theirs, mine)
        view.limits = limits
    if view.default_qos is None:
        view.default_qos = parent.default_qos
    if view.priority is None:
        view.priority = parent.priority


def _qos(own: Sequence[str], parents: list[str]) -> list[str]:
    """The effective QOS list, sorted: ``parents`` (sorted) with ``own``'s deltas applied."""
    if not own:
        return parents
    if not qoslist.is_delta(own):
        # an own list is shown as slurmdbd stored it: a ``+name`` given after a plain
        # one in the same add (``qos=normal qos+=normal``) stays, sign and all
        return sorted(set(own))
    qos = set(parents)
    for item in own:  # a delta on the parent's list; a plain item in it adds too
        if item[0] == "-":
            qos.discard(item[1:])
        else:
            qos.add(item.lstrip("+"))
    return sorted(qos)


def coordinated(
    accounts: Iterable[Assoc], coordinators: Mapping[str, list[str]]
) -> dict[str, list[str]]:
    """User → the accounts it coordinates: those ``coordinators`` gives it (user → accounts)
    and all their sub-accounts on any cluster (``accounts``: the account associations of
    every cluster), sorted."""
    below: dict[str, set[str]] = {}
    by_id = {a.id: a for a in accounts}
    for item in by_id.values():
        parent = by_id.get(item.parent_id) if item.parent_id else None
        while parent is not None:
            below.setdefault(parent.account, set()).add(item.account)
            parent = by_id.get(parent.parent_id) if parent.parent_id else None
    out = {}
    for user, accts in coordinators.items():
        every = set(accts)
        for acct in accts:
            every |= below.get(acct, set())
        out[user] = sorted(every)
    return out
