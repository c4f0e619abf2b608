"""Plans of coordinator changes: which (user, account) pairs an add or a remove writes,
and the names it refuses.

sacctmgr checks every named account and user before it touches the coordinator table,
and says each unknown one (``You specified a non-existent account 'x'``); an add then
makes the pairs that are new, a remove takes the pairs that match (every user, or every
account, when none is named). The API works that out against the store as it stands in
the change; the front end renders the plan and commits it (``tx.commit(plan)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fscli.api.add_plans import Refusal

if TYPE_CHECKING:
    from fscli.api.sacctmgr_writes import SacctmgrWrites


@dataclass
class CoordinatorChange:
    """Users made (``adding``) or no longer coordinators of accounts: ``pairs`` are the
    (user, account) rows written, in the order sacctmgr lists them; ``refusals`` the
    unknown names (``no-account``, ``no-user``), accounts first. A plan with refusals is
    not committed."""

    users: list[str]
    accounts: list[str]
    adding: bool
    pairs: list[tuple[str, str]] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)


def plan_coordinators(
    tx: SacctmgrWrites, users: list[str], accounts: list[str], adding: bool
) -> CoordinatorChange:
    """The add (``adding``) or remove of ``users`` as coordinators of ``accounts``."""
    known_accounts, known_users = tx.accounts(), tx.users()
    plan = CoordinatorChange(users, accounts, adding)
    plan.refusals = [Refusal("no-account", a) for a in accounts if a not in known_accounts]
    plan.refusals += [Refusal("no-user", u) for u in users if u not in known_users]
    have = tx.coordinator_rows()
    if adding:
        plan.pairs = [(u, a) for u in users for a in accounts if a not in have.get(u, [])]
    else:
        plan.pairs = [
            (user, account)
            for user, coordinated in have.items()
            if not users or user in users
            for account in coordinated
            if not accounts or account in accounts
        ]
    return plan


def commit_coordinators(tx: SacctmgrWrites, plan: CoordinatorChange) -> None:
    """Write a :class:`CoordinatorChange` (its pairs, each user's change in the history)."""
    if plan.refusals:
        from fscli.errors import UsageProblem

        raise UsageProblem("a coordinator plan with refusals is not committed")
    tx.write_coordinators(plan)
