"""Plans of account and user modifies: records changed, associations changed or moved.

The front end picks the accounts and associations by its own conditions; the API works
out what slurmdbd makes of a new parent (``_move_parent``: a move under the parent an
account is already first under, or under itself, is no change; a move under one of its
own sub-accounts first moves that one up) and refuses a parent that does not exist; and
what it makes of a user's new default account (refused, per cluster, for a user with no
association in it there; an admin level given with it is then not written either).
``tx.commit(plan)`` writes the records, the moves (each put first under its new parent)
and the association values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from fscli.api.add_plans import Refusal

if TYPE_CHECKING:
    from fscli.api.sacctmgr_writes import SacctmgrWrites
    from fscli.engine.assoc_changes import AssocChanges
    from fscli.store.sacctmgr_queries import AssocView

Move = tuple[str, str, "str | None"]
"""(cluster, account, the sub-account of it that moves up first, or None)."""


@dataclass
class AccountModify:
    """``records``: accounts given ``description``/``organization`` on ``clusters``;
    ``assocs``: account associations changed (moved under ``parent`` and/or given
    ``changes``); ``refusals``: ``no-parent`` (then no association is changed)."""

    view: list[AssocView]
    clusters: list[str]
    records: list[str]
    description: str | None
    organization: str | None
    parent: str | None
    changes: AssocChanges | None
    assocs: list[AssocView] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)


def plan_accounts(
    tx: SacctmgrWrites,
    view: list[AssocView],
    clusters: list[str],
    records: list[str],
    description: str | None,
    organization: str | None,
    picked: list[AssocView] | None,
    parent: str | None,
    changes: AssocChanges | None,
) -> AccountModify:
    """The modify of accounts ``records`` (description, organization) and of the
    account associations ``picked`` (None: no association part): moved under ``parent``
    as slurmdbd moves them, given ``changes`` (None: no value but the parent)."""
    plan = AccountModify(view, clusters, records, description, organization, parent, changes)
    if picked is None:
        return plan
    if parent is not None and parent not in tx.accounts():
        plan.refusals.append(Refusal("no-parent", parent))
        return plan
    for v in picked:
        if parent is not None:
            move = _move(view, v, parent)
            if move is False:
                continue
            plan.moves.append((v.cluster, v.account, move))
        plan.assocs.append(v)
    return plan


def _move(view: list[AssocView], item: AssocView, parent: str) -> str | None | Literal[False]:
    """How slurmdbd's ``_move_parent`` takes a move of ``item`` under ``parent``: False
    when it is no change (itself, or the parent it is already first under), else the
    sub-account of ``item`` named ``parent`` that must first move up (or None)."""
    if parent == item.account:
        return False
    here = [v for v in view if v.cluster == item.cluster and v.user is None]
    target = next((v for v in here if v.account == parent), None)
    if target is None:
        return False
    if target.lft + 1 == item.lft:
        return False
    return parent if item.lft < target.lft < item.rgt else None


def commit_accounts(tx: SacctmgrWrites, plan: AccountModify) -> None:
    """Write an :class:`AccountModify`: records on each cluster that has them, then the
    moves, then the association values."""
    from fscli.engine.assoc_changes import AssocChanges

    assert not plan.refusals, "a refused plan is not committed"
    if plan.records:
        for cluster in plan.clusters:
            here = {v.account for v in plan.view if v.cluster == cluster and v.user is None}
            names = [a for a in plan.records if a in here]
            if names:
                tx.modify_account(
                    names,
                    cluster,
                    None,
                    plan.description and plan.description.lower(),
                    plan.organization,
                    changes=AssocChanges(),
                )
    for cluster, account, below in plan.moves:
        old_parent = next(
            v.parent_account for v in tx.view([cluster]) if v.user is None and v.account == account
        )
        if below is not None:
            tx.modify_account(below, cluster, old_parent, changes=AssocChanges())
            tx.place_first(cluster, below)
        tx.modify_account(account, cluster, plan.parent, changes=AssocChanges())
        tx.place_first(cluster, account)
    if plan.changes is not None:
        for v in plan.assocs:
            tx.modify_account(v.account, v.cluster, changes=plan.changes)


@dataclass
class UserModify:
    """``users``: users given ``default`` (per cluster, on ``clusters``) and/or
    ``level`` (``leveled``: those the level reaches); ``assocs``: user associations given
    ``changes``; ``refusals``: ``no-default-association`` (``name`` a user with no
    association in ``default`` on ``cluster``: that user's default is not changed)."""

    clusters: list[str]
    users: list[str]
    leveled: list[str]
    default: str | None
    level: str | None
    assocs: list[AssocView]
    changes: AssocChanges | None
    refusals: list[Refusal] = field(default_factory=list)

    @property
    def lacking(self) -> set[str]:
        """The users whose new default is refused."""
        return {r.name for r in self.refusals}


def plan_users(
    tx: SacctmgrWrites,
    view: list[AssocView],
    clusters: list[str],
    users: list[str],
    leveled: list[str],
    default: str | None,
    level: str | None,
    picked: list[AssocView],
    changes: AssocChanges | None,
) -> UserModify:
    """The modify of ``users`` (new ``default`` account, new admin ``level`` for those
    ``leveled``) and of the user associations ``picked`` (``changes``, None: none)."""
    plan = UserModify(clusters, users, leveled, default, level, picked, changes)
    if default:
        plan.refusals = [
            Refusal("no-default-association", u, c)
            for u in users
            for c in clusters
            if not any(v.user == u and v.account == default and v.cluster == c for v in view)
        ]
        if not any(v.user in users and v.account == default for v in view):
            # slurmdbd's is_def update matched nothing: it rolls back the level
            plan.leveled = []
    return plan


def commit_users(tx: SacctmgrWrites, plan: UserModify) -> None:
    """Write a :class:`UserModify`: each user's level (global: any cluster will do) and
    default account (per cluster, as slurmdbd's ``is_def``), then the association values."""
    from fscli.api.delete_plans import user_targets
    from fscli.engine.assoc_changes import AssocChanges

    lacking = plan.lacking
    for user in sorted(plan.users):
        if plan.level and user in plan.leveled:
            tx.modify_user(
                user, None, plan.clusters[0], admin_level=plan.level, changes=AssocChanges()
            )
        if plan.default and user not in lacking:
            for cluster in plan.clusters:
                tx.modify_user(
                    user, None, cluster, default_account=plan.default, changes=AssocChanges()
                )
    if plan.changes is not None:
        for cluster, user, account, part in user_targets(plan.assocs):
            tx.modify_user(user, account, cluster, part, changes=plan.changes)
