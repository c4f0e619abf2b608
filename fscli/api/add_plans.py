"""Plans of adds: what an add of clusters, QOS, accounts or users makes, and what it
leaves out and why.

An add of several names on several clusters is partly possible: sacctmgr adds what it
can and says what it cannot (``Parent account 'x' doesn't exist on cluster c``). The API
works that out once, against the store as it stands in the change (:func:`plan_accounts`,
:func:`plan_users`), and returns a plan: the new records, the new associations in the
order slurmdbd makes them, and the refusals, each with a code. The front end renders the
plan in its own words and commits it (``tx.commit(plan)``); the writer's own
checks (an account must exist, an association must be new) then hold by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fscli.api.sacctmgr_writes import SacctmgrWrites
    from fscli.engine.assoc_changes import AssocChanges
    from fscli.engine.qos_changes import QosChanges

UserAssoc = tuple[str, str, str, "str | None"]
"""A user association to add: (user, account, cluster, partition)."""


def stored_name(kind: str, name: str) -> str:
    """``name`` as the store keeps it (lower-cased), refused (``InvalidValue``) as the
    writer refuses it: asked before sacctmgr prints what it is about to add."""
    from fscli.store.checks import check_name

    return check_name(kind, name)


@dataclass(frozen=True)
class Refusal:
    """A part of an add left out: ``code`` names the rule, ``name`` the account it is
    about, ``cluster`` where (None: anywhere).

    Codes: ``exists`` (a cluster the store has), ``no-parent`` (the parent account has no association on the cluster),
    ``no-account`` (no such account), ``no-account-on-cluster`` (the account has no
    association on the cluster), ``no-default-account`` (a new user's default account
    does not exist: the user is left out), ``no-user`` (no such user: a coordinator
    change names one)."""

    code: str
    name: str
    cluster: str | None = None


@dataclass
class ClusterAdd:
    """New clusters (``new``, each once); a name the store has is refused (``exists``,
    once for each time it was given)."""

    new: list[str] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)


@dataclass
class QosAdd:
    """New QOS (``new``: the names the store lacks, each once), each described as
    ``description`` or, without one, by its own name."""

    description: str | None
    changes: QosChanges
    new: list[str] = field(default_factory=list)


@dataclass
class AccountAdd:
    """New accounts (``new``: the records the store lacks) and their associations
    (``assocs``: (cluster, account), each account's clusters in turn)."""

    parent: str
    description: str | None
    organization: str | None
    changes: AssocChanges
    new: list[str] = field(default_factory=list)
    assocs: list[tuple[str, str]] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)


@dataclass
class UserAdd:
    """New users (``new``) and user associations (``assocs``, in the order asked);
    ``defaults``: the default account each (user, cluster) ends with where the add
    changes it (slurmdbd's ``is_def`` is per cluster)."""

    default: str | None
    level: str | None
    changes: AssocChanges
    new: list[str] = field(default_factory=list)
    assocs: list[UserAssoc] = field(default_factory=list)
    defaults: dict[tuple[str, str], str] = field(default_factory=dict)
    refusals: list[Refusal] = field(default_factory=list)


def plan_clusters(tx: SacctmgrWrites, names: list[str]) -> ClusterAdd:
    """The add of clusters ``names``: those the store has are refused."""
    known = set(tx.cluster_names())
    return ClusterAdd(
        [n for n in dict.fromkeys(names) if n not in known],
        [Refusal("exists", n) for n in names if n in known],
    )


def commit_clusters(tx: SacctmgrWrites, plan: ClusterAdd) -> None:
    """Write a :class:`ClusterAdd` as slurmdbd makes a cluster: with user root's
    association in account root (root made an Administrator the first time), and QOS
    ``normal`` described as slurmdbd's when the store had none."""
    root_known = "root" in tx.users()
    normal_known = "normal" in tx.qos_list()
    for name in plan.new:
        tx.add_cluster(name)
        tx.add_user(
            "root",
            "root",
            name,
            None,
            None if root_known else "root",
            None if root_known else "Administrator",
        )
        root_known = True
    if not normal_known and "normal" in tx.qos_list():
        tx.describe_new_qos("normal", "Normal QOS default")


def plan_qos(
    tx: SacctmgrWrites, names: list[str], description: str | None, changes: QosChanges
) -> QosAdd:
    """The add of QOS ``names`` (``InvalidValue`` for a name the store cannot keep);
    those the store has are passed over."""
    known = set(tx.qos_list())
    stored = [stored_name("QOS", n) for n in names]
    return QosAdd(description, changes, [n for n in dict.fromkeys(stored) if n not in known])


def commit_qos(tx: SacctmgrWrites, plan: QosAdd) -> None:
    """Write a :class:`QosAdd`, one QOS at a time (each its own description)."""
    for name in plan.new:
        plan.changes.values["description"] = (
            plan.description if plan.description is not None else name
        )
        tx.add_qos(name, changes=plan.changes)


def plan_accounts(
    tx: SacctmgrWrites,
    names: list[str],
    clusters: list[str],
    parent: str,
    description: str | None,
    organization: str | None,
    changes: AssocChanges,
) -> AccountAdd:
    """The add of accounts ``names`` under ``parent`` on ``clusters``: an association
    that exists is passed over; one whose parent has none on its cluster is refused."""
    plan = AccountAdd(parent, description, organization, changes)
    existing = tx.accounts()
    have = {(v.cluster, v.account) for v in tx.view(clusters) if v.user is None}
    plan.new = [n for n in dict.fromkeys(names) if n not in existing]
    made: dict[str, list[str]] = {}
    for name in dict.fromkeys(names):
        for cluster in clusters:
            if (cluster, name) in have:
                continue
            if (cluster, parent) not in have:
                plan.refusals.append(Refusal("no-parent", parent, cluster))
                continue
            made.setdefault(cluster, []).append(name)
    plan.assocs = [(c, n) for n in dict.fromkeys(names) for c in made if n in made[c]]
    return plan


def plan_users(
    tx: SacctmgrWrites,
    names: list[str],
    accounts: list[str],
    clusters: list[str],
    partitions: list[str | None],
    default: str | None,
    level: str | None,
    changes: AssocChanges,
) -> UserAdd:
    """The add of users ``names`` to ``accounts`` (the default account last) on
    ``clusters`` in ``partitions``: existing associations are passed over, a missing
    account is refused (said once, for the first user, as sacctmgr does), and a new user
    whose default account does not exist is left out."""
    plan = UserAdd(default, level, changes)
    view = tx.view(clusters)
    have = {(v.cluster, v.account, v.user, v.assoc.partition) for v in view}
    known_users = tx.users()
    known_accounts = tx.accounts()
    first = True
    for name in dict.fromkeys(names):
        if name not in known_users:
            if default and default not in known_accounts and first:
                plan.refusals.append(Refusal("no-default-account", default))
                continue
            plan.new.append(name)
        for account in accounts:
            if account not in known_accounts:
                if first:
                    plan.refusals.append(Refusal("no-account", account))
                continue
            for cluster in clusters:
                if (cluster, account, None, None) not in have:
                    if first:
                        plan.refusals.append(Refusal("no-account-on-cluster", account, cluster))
                    continue
                for part in partitions:
                    if (cluster, account, name, part) not in have:
                        plan.assocs.append((name, account, cluster, part))
        first = False
    plan.defaults = _new_defaults(plan.assocs, default, tx.all_defaults())
    return plan


def _new_defaults(
    assocs: list[UserAssoc], default: str | None, before: dict[tuple[str, str], str]
) -> dict[tuple[str, str], str]:
    """The default account each (user, cluster) of an add ends with, when the add changes
    it. A new association in ``DefaultAccount=`` becomes the default (an existing user's
    too); a user without one on the cluster (new there, or whose default went) gets, as
    slurmdbd's ``_make_sure_users_have_default`` picks among associations made in the same
    second, the alphabetically first account added there."""
    out: dict[tuple[str, str], str] = {}
    for user, cluster in dict.fromkeys((u, c) for u, _, c, _ in assocs):
        accts = sorted({a for u, a, c, _ in assocs if (u, c) == (user, cluster)})
        if default in accts:
            out[user, cluster] = default
        elif (cluster, user) not in before:
            out[user, cluster] = accts[0]
    return out


def commit_accounts(tx: SacctmgrWrites, plan: AccountAdd) -> None:
    """Write an :class:`AccountAdd`: each cluster's accounts in one add, then placed as
    slurmdbd places them (the new accounts' associations in one call, then the others',
    accounts given a new cluster)."""
    clusters: dict[str, list[str]] = {}
    for cluster, name in plan.assocs:
        clusters.setdefault(cluster, []).append(name)
    for cluster, names in clusters.items():
        tx.add_account(
            names,
            cluster,
            plan.parent,
            plan.description,
            plan.organization,
            changes=plan.changes,
        )
    keys = [(c, n, None, None) for c, n in plan.assocs]
    tx.place_added(
        [[k for k in keys if k[1] in plan.new], [k for k in keys if k[1] not in plan.new]]
    )


def commit_users(tx: SacctmgrWrites, plan: UserAdd) -> None:
    """Write a :class:`UserAdd`: one add per (user, cluster, partition), then placed as
    slurmdbd places them (the new users' associations in one call, then the others')."""
    groups: dict[tuple[str, str, str | None], list[str]] = {}
    for u, a, c, p in plan.assocs:
        groups.setdefault((u, c, p), []).append(a)
    for (user, cluster, part), accts in groups.items():
        mine = plan.defaults.get((user, cluster))
        tx.add_user(
            user,
            accts,
            cluster,
            part,
            mine if mine in accts else None,
            plan.level if user in plan.new else None,
            changes=plan.changes,
        )
    keys = [(c, a, u, p) for u, a, c, p in plan.assocs]
    tx.place_added(
        [[k for k in keys if k[2] in plan.new], [k for k in keys if k[2] not in plan.new]]
    )
