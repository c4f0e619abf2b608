"""Plans of deletes: which associations and records a delete removes, and what refuses it.

The front end picks associations by its own conditions (sacctmgr's ``where``); the API
works out the rest once, as slurmdbd does: an account's whole subtree goes with it,
account and user records left without associations stay unless deleted by name, and a
user's default association may not go while the user keeps others
(:func:`default_refused`, slurmdbd's ``_check_is_def_acct_before_remove``). A plan with
refusals is not committed; the front end says them in its words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fscli.api.sacctmgr_writes import SacctmgrWrites
    from fscli.store.sacctmgr_queries import AssocView


@dataclass
class AccountDelete:
    """``picked``: the account associations (or, ``by_assoc``, any associations) the
    conditions picked; ``removed``: those with their subtrees; ``bare``: account records
    named that have no association left; ``refused``: user associations holding a
    default that would go (nothing is deleted then)."""

    by_assoc: bool
    picked: list[AssocView]
    removed: list[AssocView] = field(default_factory=list)
    bare: list[str] = field(default_factory=list)
    refused: list[AssocView] = field(default_factory=list)
    defaults: dict[tuple[str, str], str] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.picked and not self.bare


@dataclass
class UserDelete:
    """``picked``: the user associations to remove; ``gone``: the user records that go
    (named users, or, ``by_assoc``, users left with none); ``refused`` as for accounts."""

    by_assoc: bool
    picked: list[AssocView]
    gone: list[str] = field(default_factory=list)
    refused: list[AssocView] = field(default_factory=list)
    defaults: dict[tuple[str, str], str] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.picked and not self.gone


def default_refused(removed: list[AssocView], flagged: set[int]) -> list[AssocView]:
    """slurmdbd's ``_check_is_def_acct_before_remove``: the user associations to remove,
    by user and flagged ones (``is_def``, ids in ``flagged``) last, are walked once; a
    flagged association is refused once any unflagged one (of any user: the flag is never
    reset) has gone by. So a user whose flagged associations go with all the others it
    loses is let through, and so is every user that loses only flagged ones, unless an
    unflagged one sorted before goes too. The flag is per association: one added to the
    default account later without ``DefaultAccount=`` is not flagged."""
    rows = sorted(
        (v for v in removed if v.user is not None),
        key=lambda v: (v.user, v.assoc.id in flagged, v.assoc.id),  # then table order
    )
    other = False
    refused = []
    for v in rows:
        if v.assoc.id not in flagged:
            other = True
        elif other:
            refused.append(v)
    return refused


def _subtrees(view: list[AssocView], picked: list[AssocView]) -> list[AssocView]:
    """The associations in the subtrees of ``picked`` (themselves included)."""
    spans = [(v.cluster, v.lft, v.rgt) for v in picked]
    return [v for v in view if any(c == v.cluster and lo <= v.lft <= hi for c, lo, hi in spans)]


def _tops(picked: list[AssocView]) -> list[AssocView]:
    """The associations of ``picked`` that are not inside another one's subtree."""
    return [
        v
        for v in picked
        if not any(o is not v and o.cluster == v.cluster and o.lft < v.lft < o.rgt for o in picked)
    ]


def user_targets(picked: list[AssocView]) -> list[tuple[str, str, str, str | None]]:
    """User associations as the writer names them: (cluster, user, account, partition),
    where partition None means all of that user's associations in the account. No
    partition picked means all of them (conditions never pick the plain association
    alone): one target then, else one per partition."""
    groups: dict[tuple[str, str, str], set] = {}
    for item in picked:
        assert item.user is not None, "user targets are user associations"
        groups.setdefault((item.cluster, item.user, item.account), set()).add(item.assoc.partition)
    return [
        (*key, part)
        for key, parts in groups.items()
        for part in ([None] if None in parts else sorted(parts))
    ]


def plan_accounts(
    tx: SacctmgrWrites,
    view: list[AssocView],
    picked: list[AssocView],
    by_assoc: bool,
    names: list[str] | None,
) -> AccountDelete:
    """The delete of the account associations ``picked`` in ``view`` (``by_assoc``:
    associations picked by association conditions; else accounts by name, ``names``,
    whose records go too, those without associations included)."""
    plan = AccountDelete(by_assoc, picked)
    with_assocs = {v.account for v in view}
    if not by_assoc and names is not None:
        plan.bare = [a for a in tx.accounts() if a in names and a not in with_assocs]
    if plan.empty:
        return plan
    plan.defaults = tx.all_defaults()
    # by name slurmdbd looks at the accounts' own user associations; by association,
    # at every association it removes
    plan.removed = _subtrees(view, picked)
    named = {v.account for v in picked}
    checked = (
        plan.removed if by_assoc else [v for v in view if v.user is not None and v.account in named]
    )
    plan.refused = default_refused(checked, tx.default_ids())
    return plan


def plan_users(
    tx: SacctmgrWrites,
    view: list[AssocView],
    picked: list[AssocView],
    named: list[str],
    by_assoc: bool,
) -> UserDelete:
    """The delete of the user associations ``picked`` in ``view``, of users ``named``
    (``by_assoc``: picked by cluster, account or partition: only users left with no
    association go, and a default that would go refuses the delete)."""
    plan = UserDelete(by_assoc, picked)
    plan.defaults = tx.all_defaults()
    if not by_assoc:  # a user deleted by name goes even without associations
        plan.gone = sorted(named)
    else:
        left = {v.user for v in view if v.user in named and v not in picked}
        plan.gone = sorted({v.user for v in picked if v.user is not None} - left)
        plan.refused = default_refused(picked, tx.default_ids())
    return plan


def commit_accounts(tx: SacctmgrWrites, plan: AccountDelete) -> None:
    """Write an :class:`AccountDelete`: each cluster's top accounts with their subtrees,
    user associations picked by themselves, the bare records named; records left without
    associations are kept, and users whose default went keep none."""
    assert not plan.refused, "a refused plan is not committed"
    named = {v.account for v in plan.picked}
    tops = _tops(plan.picked)
    with tx.keeping_bare_records(accounts_gone=set() if plan.by_assoc else named):
        for cluster in dict.fromkeys(v.cluster for v in tops):
            accounts = [v.account for v in tops if v.cluster == cluster and v.user is None]
            if accounts:
                tx.delete_account(accounts, cluster, recursive=True)
        for cluster, user, account, part in user_targets([v for v in tops if v.user]):
            tx.delete_user(user, account, cluster, part)
    tx.drop_accounts([a for a in plan.bare if a not in named])
    tx.lose_defaults(plan.defaults)


def commit_users(tx: SacctmgrWrites, plan: UserDelete) -> None:
    """Write a :class:`UserDelete` (records of users that lose their last association
    only by it are kept, as slurmdbd keeps them)."""
    assert not plan.refused, "a refused plan is not committed"
    with tx.keeping_bare_records(users_gone=set(plan.gone)):
        for cluster, user, account, part in user_targets(plan.picked):
            tx.delete_user(user, account, cluster, part)
        tx.drop_users([u for u in plan.gone if u not in {v.user for v in plan.picked}])
    tx.lose_defaults(plan.defaults)
