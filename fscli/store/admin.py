"""Administrative changes: clusters, accounts, users and their associations.

Each method validates everything against the store first and then writes, inside the
caller's transaction (one command = one transaction). Every change is logged in the
transaction table for ``fscli history``. Methods return human-readable lines saying
what changed, which the CLI prints on stderr.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import delete, select

from fscli.engine.assoc_changes import AssocChanges, validate
from fscli.errors import Conflict, NotFound, UsageProblem
from fscli.store import models as m
from fscli.store import nest, user_defaults
from fscli.store.assoc_fields import apply_changes
from fscli.store.audit import Triple, changed, describe, encode, settings, target_cluster
from fscli.store.bulk import log_many
from fscli.store.checks import active_job_ids, check_name, named
from fscli.store.sql import chunked


class Admin:
    def __init__(self, session, now: int, actor: str, slurmdbd_rules: bool = False):
        """``slurmdbd_rules``: check only what slurmdbd checks (``fscli sacctmgr``): an
        association added with a DefaultQOS outside its QOS list is taken (its jobs then
        need --qos); fscli's own commands refuse it."""
        self.s = session
        self.now = now
        self.actor = actor
        self.slurmdbd_rules = slurmdbd_rules

    # -- helpers -----------------------------------------------------------------
    def log(
        self,
        action: str,
        target: str,
        detail: str = "",
        changes: Sequence[Triple] | None = None,
    ) -> None:
        """One history line; ``changes``: the (key, old, new) settings it changed, which
        the line keeps and shows as its detail when it gives none (:mod:`fscli.store.audit`)."""
        self.s.add(
            m.Transaction(
                at=self.now,
                actor=self.actor,
                action=action,
                target=target,
                detail=detail or (describe(changes) if changes else ""),
                cluster=target_cluster(action, target),
                changes=encode(changes),
            )
        )

    def log_many(self, entries: Iterable[tuple]) -> None:
        """:meth:`log` for many (action, target, detail[, changes]) lines in one executemany: an ORM
        object per line costs more than the change itself when 100,000 jobs are imported
        or a tree of 100,000 associations is applied. No lines write nothing (an
        executemany of none would insert a row of defaults)."""
        log_many(self.s, self.now, self.actor, entries)

    def known_qos(self) -> set[str]:
        return set(self.s.scalars(select(m.Qos.name)))

    def has_cluster(self) -> bool:
        return self.s.scalar(select(m.Cluster.id).limit(1)) is not None

    def cluster(self, name: str | None) -> m.Cluster:
        """The cluster a command works on (:func:`snapshot.cluster_id_for`)."""
        from fscli.store.snapshot import cluster_id_for

        return self.s.get(m.Cluster, cluster_id_for(self.s, name, demo_hint=False))

    def account_assoc(self, cluster: m.Cluster, account: str) -> m.Association | None:
        return self.s.scalar(
            select(m.Association).where(
                m.Association.cluster_id == cluster.id,
                m.Association.account == account,
                m.Association.user.is_(None),
                m.Association.partition.is_(None),
            )
        )

    def require_account(
        self, cluster: m.Cluster, account: str, role: str = "account"
    ) -> m.Association:
        assoc = self.account_assoc(cluster, account)
        if assoc is None:
            raise NotFound(f"{role} '{account}' does not exist on cluster {cluster.name}")
        return assoc

    def children(self, assoc_id: int) -> list[m.Association]:
        return list(
            self.s.scalars(select(m.Association).where(m.Association.parent_id == assoc_id))
        )

    def subtree_ids(self, root_id: int) -> list[int]:
        ids, frontier = [root_id], [root_id]
        while frontier:
            frontier = [
                i
                for part in chunked(frontier)
                for i in self.s.scalars(
                    select(m.Association.id).where(m.Association.parent_id.in_(part))
                )
            ]
            ids += frontier
        return ids

    def refuse_active_jobs(self, assoc_ids: list[int]) -> None:
        count, first = active_job_ids(self.s, assoc_ids)
        if count:
            raise Conflict(
                f"Job(s) active, cancel job(s) before remove ({count} pending or running: "
                f"{named(count, first, 'job', 'jobs')})"
            )

    # -- clusters ----------------------------------------------------------------
    def add_cluster(
        self, name: str, nodes: int | None = None, cpus: int | None = None, tres: str | None = None
    ) -> list[str]:
        name = check_name("cluster", name)
        if self.s.scalar(select(m.Cluster).where(m.Cluster.name == name)):
            raise Conflict(f"cluster '{name}' already exists")
        cluster = m.Cluster(name=name, nodes=nodes, cpus=cpus, tres=tres)
        self.s.add(cluster)
        if self.s.scalar(select(m.Account).where(m.Account.name == "root")) is None:
            self.s.add(
                m.Account(name="root", description="default root account", organization="root")
            )
        normal = self.s.scalar(select(m.Qos).where(m.Qos.name == "normal")) is not None
        # slurmdbd makes QOS normal with its database, not with a cluster: deleted, it
        # stays deleted (fscli's own first cluster of a store makes it, as the database)
        first = self.s.scalar(select(m.Cluster.id).where(m.Cluster.name != name)) is None
        if not normal and (first or not self.slurmdbd_rules):
            self.s.add(m.Qos(name="normal", priority=0, usage_factor=1.0))
            normal = True
        self.s.flush()
        self.s.add(
            m.Association(
                cluster_id=cluster.id,
                account="root",
                parent_id=None,
                shares_raw=1,
                shares_parent=False,
                qos="normal" if normal else None,
                nest_order=0,
            )
        )
        self.log("add cluster", name, _kv(nodes=nodes, cpus=cpus, tres=tres))
        return [f"added cluster {name}"]

    def modify_cluster(self, name: str, values: dict) -> list[str]:
        """[] when every value is already set (nothing is written or logged)."""
        cluster = self.cluster(name)
        given = {k: v for k, v in values.items() if getattr(cluster, k) != v}
        before = settings(cluster)
        for key, value in given.items():
            setattr(cluster, key, value)
        if not given:
            return []
        self.log("modify cluster", cluster.name, changes=changed(before, settings(cluster)))
        return [f"modified cluster {cluster.name}: {_kv(**given)}"]

    def delete_cluster(self, name: str, active_jobs_too: bool = False) -> list[str]:
        """[] when there is no such cluster (a delete that matches nothing). Refused while
        the cluster has pending or running jobs, unless ``active_jobs_too`` (the demo,
        which rebuilds a cluster of its own)."""
        if self.s.scalar(select(m.Cluster.id).where(m.Cluster.name == name.lower())) is None:
            return []
        cluster = self.cluster(name)
        ids = list(
            self.s.scalars(select(m.Association.id).where(m.Association.cluster_id == cluster.id))
        )
        if not active_jobs_too:
            self.refuse_active_jobs(ids)
        self.s.execute(delete(m.Job).where(m.Job.cluster_id == cluster.id))
        self.s.execute(
            delete(m.Usage).where(
                m.Usage.assoc_id.in_(
                    select(m.Association.id).where(m.Association.cluster_id == cluster.id)
                )
            )
        )
        self.s.execute(delete(m.Association).where(m.Association.cluster_id == cluster.id))
        self.s.execute(delete(m.Partition).where(m.Partition.cluster_id == cluster.id))
        gone = changed(settings(cluster), {})
        self.s.delete(cluster)
        self.s.flush()
        self._drop_orphans()
        self.log("delete cluster", cluster.name, changes=gone)
        return [f"deleted cluster {cluster.name} and its {len(ids)} associations"]

    # -- accounts ----------------------------------------------------------------
    def add_accounts(
        self,
        cluster: m.Cluster,
        names: list[str],
        parent: str | None,
        description: str | None,
        organization: str | None,
        changes: AssocChanges,
    ) -> list[str]:
        if not names:
            raise UsageProblem("need the name of the account to add")
        names = [check_name("account", n) for n in names]
        if len(set(names)) != len(names):
            raise Conflict("the same account is named twice")
        parent = (parent or "root").lower()
        parent_assoc = self.require_account(cluster, parent, "parent account")
        validate(changes, self.known_qos())
        for name in names:
            if name == "root" or self.account_assoc(cluster, name) is not None:
                raise Conflict(f"account '{name}' already exists on cluster {cluster.name}")
        lines = []
        added: list[m.Association] = []
        for name in names:
            account = self.s.scalar(select(m.Account).where(m.Account.name == name))
            if account is None:
                org = (
                    organization
                    if organization is not None
                    else (name if parent == "root" else parent)
                )
                self.s.add(
                    m.Account(name=name, description=description or name, organization=org.lower())
                )
            else:
                if description is not None:
                    account.description = description
                if organization is not None:
                    account.organization = organization.lower()
            assoc = m.Association(
                cluster_id=cluster.id,
                account=name,
                parent_id=parent_assoc.id,
                shares_raw=1,
                shares_parent=False,
            )
            apply_changes(assoc, changes)
            self.s.add(assoc)
            added.append(assoc)
            detail = _kv(parent=parent) + (
                " " + " ".join(changes.describe()) if not changes.empty() else ""
            )
            self.log("add account", f"{name}@{cluster.name}", detail)
            lines.append(f"added account {name} on {cluster.name}: {detail}")
        self.s.flush()
        nest.place(self.s.connection(), [a.id for a in added])
        if changes.touches_qos() and not self.slurmdbd_rules:
            self.check_default_qos(cluster, [self.require_account(cluster, n).id for n in names])
        return lines

    def modify_accounts(
        self,
        cluster: m.Cluster,
        names: list[str],
        parent: str | None,
        description: str | None,
        organization: str | None,
        changes: AssocChanges,
    ) -> list[str]:
        if not names:
            raise UsageProblem("name the account(s) to modify")
        if parent is None and description is None and organization is None and changes.empty():
            raise UsageProblem("nothing to set: give KEY=VALUE words after 'set'")
        names = [n.lower() for n in names]
        assocs = [self.require_account(cluster, n) for n in names]
        validate(changes, self.known_qos())
        new_parent = None
        if parent is not None:
            if "root" in names:
                raise Conflict("the root account has no parent")
            new_parent = self.require_account(cluster, parent.lower(), "parent account")
            for assoc in assocs:
                if new_parent.id in self.subtree_ids(assoc.id):
                    raise Conflict(
                        f"cannot move account '{assoc.account}' under '{new_parent.account}': "
                        f"'{new_parent.account}' is inside '{assoc.account}' (a cycle)"
                    )
        lines = []
        moved: set[int] = set()
        for assoc in assocs:
            account = self.s.scalar(select(m.Account).where(m.Account.name == assoc.account))
            before = self._account_settings(account, assoc)
            if description is not None:
                account.description = description
            if organization is not None:
                account.organization = organization.lower()
            if new_parent is not None and assoc.parent_id != new_parent.id:
                assoc.parent_id = new_parent.id
                moved.add(assoc.id)
            apply_changes(assoc, changes)
            diff = changed(before, self._account_settings(account, assoc))
            if not diff:
                continue
            detail = " ".join(
                filter(
                    None,
                    [
                        _kv(parent=parent, description=description, organization=organization),
                        " ".join(changes.describe()),
                    ],
                )
            )
            self.log("modify account", f"{assoc.account}@{cluster.name}", changes=diff)
            lines.append(f"modified account {assoc.account} on {cluster.name}: {detail}")
        self.s.flush()
        if new_parent is not None:
            nest.place_each_first(self.s.connection(), [a.id for a in assocs if a.id in moved])
        if lines and (changes.touches_qos() or new_parent is not None) and not self.slurmdbd_rules:
            # a move changes the QOS list the subtree inherits (sacctmgr checks its own way)
            self.check_default_qos(cluster, [a.id for a in assocs])
        return lines

    def _account_settings(self, account: m.Account, assoc: m.Association) -> dict[str, str]:
        """An account's settings on a cluster (:func:`fscli.store.audit.settings`): its
        parent, description and organization, then its association's."""
        self.s.flush()
        parent = self.s.get(m.Association, assoc.parent_id) if assoc.parent_id else None
        return {
            **({"parent": parent.account} if parent else {}),
            **settings(account),
            **settings(assoc),
        }

    def delete_accounts(self, cluster: m.Cluster, names: list[str], recursive: bool) -> list[str]:
        """[] when none of the accounts exists on the cluster (a delete that matches
        nothing); the ones that do not exist are passed over."""
        if not names:
            raise UsageProblem("name the account(s) to delete")
        names = [n.lower() for n in names]
        if "root" in names:
            raise Conflict(
                "You are not allowed to remove the root account. Use 'fscli cluster delete' instead."
            )
        assocs = [a for a in (self.account_assoc(cluster, n) for n in names) if a is not None]
        if not assocs:
            return []
        doomed: list[int] = []
        for assoc in assocs:
            kids = self.children(assoc.id)
            if kids and not recursive:
                subs = sorted(k.account for k in kids if k.user is None)
                users = sorted(k.user for k in kids if k.user is not None)
                held = [
                    f"{len(found)} {kind}(s)" + (f" ({named(len(found), found)})" if found else "")
                    for kind, found in (("sub-account", subs), ("user association", users))
                ]
                raise Conflict(
                    f"account '{assoc.account}' still has {held[0]} and {held[1]}: "
                    "delete them first or use --recursive"
                )
            doomed += self.subtree_ids(assoc.id)
        self.refuse_active_jobs(doomed)
        rows = [
            (row, changed(settings(row), {}))
            for part in chunked(doomed)
            for row in self.s.scalars(select(m.Association).where(m.Association.id.in_(part)))
        ]
        self._delete_assocs(doomed)
        self._fix_defaults_and_orphans(cluster)
        lines = []
        for row, gone in rows:
            what = f"user {row.user} in {row.account}" if row.user else f"account {row.account}"
            where = f"partition={row.partition} " if row.partition else ""
            self.log(
                "delete association",
                f"{row.account}/{row.user or ''}@{cluster.name}",
                where + describe(gone),
                gone,
            )
            lines.append(f"deleted {what} on {cluster.name}")
        return lines

    # -- users -------------------------------------------------------------------
    def add_users(
        self,
        cluster: m.Cluster,
        names: list[str],
        accounts: list[str],
        partition: str | None,
        default_account: str | None,
        admin_level: str | None,
        changes: AssocChanges,
        known_partition: bool = True,
    ) -> list[str]:
        """``known_partition=False`` (sacctmgr's ``add user``, which never asks slurmctld)
        takes a partition the store does not know."""
        if not names:
            raise UsageProblem("need the name of the user to add")
        names = [check_name("user", n) for n in names]
        accounts = [a.lower() for a in accounts]
        if default_account:
            default_account = default_account.lower()
            if default_account not in accounts:
                accounts.append(default_account)
        if not accounts:
            raise UsageProblem("need account=NAME: the account(s) to add the user to")
        parents = {a: self.require_account(cluster, a) for a in accounts}
        if partition is not None and known_partition:
            self.require_partition(cluster, partition)
        validate(changes, self.known_qos())
        for name in names:
            for account in accounts:
                if self._user_assoc(cluster, name, account, partition) is not None:
                    where = f" partition {partition}" if partition else ""
                    raise Conflict(
                        f"user '{name}' already has an association with account "
                        f"'{account}'{where} on cluster {cluster.name}"
                    )
        lines = []
        added: list[m.Association] = []
        for name in names:
            user = self.s.scalar(select(m.User).where(m.User.name == name))
            if user is None:
                user = m.User(name=name, admin_level=admin_level or "None")
                self.s.add(user)
            elif admin_level:
                user.admin_level = admin_level
            for account in accounts:
                assoc = m.Association(
                    cluster_id=cluster.id,
                    account=account,
                    user=name,
                    partition=partition,
                    parent_id=parents[account].id,
                    shares_raw=1,
                    shares_parent=False,
                )
                apply_changes(assoc, changes)
                self.s.add(assoc)
                added.append(assoc)
                detail = " ".join(
                    filter(None, [_kv(partition=partition), " ".join(changes.describe())])
                )
                self.log("add user", f"{name}/{account}@{cluster.name}", detail)
                lines.append(
                    f"added user {name} to account {account} on {cluster.name}"
                    + (f": {detail}" if detail else "")
                )
        self.s.flush()
        conn = self.s.connection()
        for name in names:
            if user_defaults.default_of(conn, cluster.id, name) is None:
                user_defaults.set_default(conn, cluster.id, name, default_account or accounts[0])
            elif default_account:
                new = [a.id for a in added if a.user == name and a.account == default_account]
                user_defaults.flag_new(conn, cluster.id, name, default_account, new)
        nest.place(conn, [a.id for a in added])
        if changes.touches_qos() and not self.slurmdbd_rules:
            self.check_default_qos(
                cluster,
                [self._user_assoc(cluster, n, a, partition).id for n in names for a in accounts],
            )
        return lines

    def _user_assoc(self, cluster, user, account, partition):
        query = select(m.Association).where(
            m.Association.cluster_id == cluster.id,
            m.Association.user == user,
            m.Association.account == account,
        )
        query = query.where(
            m.Association.partition.is_(None)
            if partition is None
            else m.Association.partition == partition
        )
        return self.s.scalar(query)

    def user_assocs(
        self,
        cluster: m.Cluster,
        names: list[str],
        account: str | None,
        partition: str | None,
        missing_ok: bool = False,
    ) -> list[m.Association]:
        """The users' associations matching ``account``/``partition``; NotFound for an
        unknown user or when none matches, unless ``missing_ok`` (then maybe [])."""
        names = [n.lower() for n in names]
        for name in names:
            if self.s.scalar(select(m.User).where(m.User.name == name)) is None and not missing_ok:
                raise NotFound(f"user '{name}' does not exist")
        query = select(m.Association).where(
            m.Association.cluster_id == cluster.id, m.Association.user.in_(names)
        )
        if account is not None:
            query = query.where(m.Association.account == account.lower())
        if partition is not None:
            query = query.where(m.Association.partition == partition)
        found = list(self.s.scalars(query.order_by(m.Association.user, m.Association.account)))
        if not found and not missing_ok:
            where = "".join(
                [
                    f" in account {account}" if account else "",
                    f" partition {partition}" if partition else "",
                ]
            )
            raise NotFound(
                f"no association of user(s) {', '.join(names)}{where} on cluster {cluster.name}"
            )
        return found

    @staticmethod
    def _user_settings(conn, cluster: m.Cluster, user: m.User) -> dict[str, str]:
        """The user's settings on ``cluster`` as history shows them: its default account
        there (kept per cluster) and its admin level (global)."""
        default = user_defaults.default_of(conn, cluster.id, user.name)
        return ({"defaultaccount": default} if default else {}) | settings(user)

    def modify_users(
        self,
        cluster: m.Cluster,
        names: list[str],
        account: str | None,
        partition: str | None,
        default_account: str | None,
        admin_level: str | None,
        changes: AssocChanges,
    ) -> list[str]:
        if not names:
            raise UsageProblem("name the user(s) to modify")
        if default_account is None and admin_level is None and changes.empty():
            raise UsageProblem("nothing to set: give KEY=VALUE words after 'set'")
        assocs = (
            self.user_assocs(cluster, names, account, partition)
            if not changes.empty() or account
            else []
        )
        validate(changes, self.known_qos())
        lines = []
        for name in [n.lower() for n in names]:
            user = self.s.scalar(select(m.User).where(m.User.name == name))
            if user is None:
                raise NotFound(f"user '{name}' does not exist")
            conn = self.s.connection()
            before = self._user_settings(conn, cluster, user)
            if default_account is not None:
                target = default_account.lower()
                has = self.s.scalar(
                    select(m.Association.id)
                    .where(
                        m.Association.cluster_id == cluster.id,
                        m.Association.user == name,
                        m.Association.account == target,
                    )
                    .limit(1)
                )
                if has is None:
                    raise Conflict(
                        f"user '{name}' has no association with account '{target}' on "
                        f"cluster {cluster.name}: add it first "
                        f"(fscli user add {name} account={target})"
                    )
                user_defaults.set_default(conn, cluster.id, name, target)
            if admin_level is not None:
                user.admin_level = admin_level
            diff = changed(before, self._user_settings(conn, cluster, user))
            if diff:
                detail = _kv(defaultaccount=default_account, adminlevel=admin_level)
                self.log("modify user", name, changes=diff)
                lines.append(f"modified user {name}: {detail}")
        modified = []
        for assoc in assocs:
            before = settings(assoc)
            if not apply_changes(assoc, changes):
                continue
            modified.append(assoc.id)
            detail = " ".join(changes.describe())
            where = _user_assoc_name(assoc)
            self.log(
                "modify association",
                f"{where}@{cluster.name}",
                changes=changed(before, settings(assoc)),
            )
            lines.append(f"modified user {where} on {cluster.name}: {detail}")
        self.s.flush()
        if modified and changes.touches_qos() and not self.slurmdbd_rules:
            self.check_default_qos(cluster, modified)
        return lines

    def delete_users(
        self,
        cluster: m.Cluster,
        names: list[str],
        account: str | None,
        partition: str | None,
        keep_default: bool = True,
    ) -> list[str]:
        """[] when no association matches (a delete that matches nothing). With
        ``keep_default=False`` (sacctmgr's own rule, checked by its front end) a user may
        lose the association of its default account and keep others."""
        if not names:
            raise UsageProblem("name the user(s) to delete")
        assocs = self.user_assocs(cluster, names, account, partition, missing_ok=True)
        if not assocs:
            return []
        self.refuse_active_jobs([a.id for a in assocs])
        doomed = {a.id for a in assocs}
        for name in sorted({a.user for a in assocs if a.user is not None}):
            default = user_defaults.default_of(self.s.connection(), cluster.id, name)
            remaining = [
                a
                for a in self.s.scalars(
                    select(m.Association).where(
                        m.Association.cluster_id == cluster.id, m.Association.user == name
                    )
                )
                if a.id not in doomed
            ]
            if keep_default and remaining and default not in {a.account for a in remaining}:
                raise Conflict(
                    f"You can not remove the default account of a user: '{default}' is "
                    f"{name}'s default on cluster {cluster.name}; change it first (fscli "
                    f"user modify {name} set defaultaccount={min(a.account for a in remaining)})"
                )
        gone = {a.id: changed(settings(a), {}) for a in assocs}
        self._delete_assocs(list(doomed))
        self._drop_orphans()
        lines = []
        for assoc in assocs:
            where = _user_assoc_name(assoc)
            self.log("delete user association", f"{where}@{cluster.name}", changes=gone[assoc.id])
            lines.append(f"deleted user {where} on {cluster.name}")
        return lines

    def check_default_qos(self, cluster: m.Cluster, changed_ids: list[int]) -> None:
        """Refuse a change that leaves an association of the changed subtrees with a
        DefaultQOS outside its QOS list: Slurm 22.05 takes it silently, and then refuses
        every job of that user that names no QOS (``Invalid qos specification``)."""
        from fscli.engine import qoslist
        from fscli.store.snapshot import load_assocs

        self.s.flush()
        a = m.Association
        some_default = select(a.id).where(a.cluster_id == cluster.id, a.default_qos.is_not(None))
        if self.s.scalar(some_default.limit(1)) is None:
            return  # no DefaultQOS anywhere up any chain: none can be outside a list
        assocs = load_assocs(self.s.connection(), cluster.id)
        bad = qoslist.defaults_outside(assocs, self.known_qos(), changed_ids)
        if bad:
            assoc, default, listed = bad[0]
            where = (
                f"user {assoc.user} in account {assoc.account}"
                if assoc.user
                else f"account {assoc.account}"
            )
            raise Conflict(
                f"DefaultQOS '{default}' of {where} on cluster {cluster.name} is not "
                f"in its QOS list ({','.join(listed) or 'none'}): jobs without "
                "--qos would be refused; set qos= or defaultqos= to match"
            )

    # -- partitions ----------------------------------------------------------------
    def partition_names(self, cluster: m.Cluster) -> list[str]:
        """The cluster's partitions, by name."""
        return list(
            self.s.scalars(
                select(m.Partition.name)
                .where(m.Partition.cluster_id == cluster.id)
                .order_by(m.Partition.name)
            )
        )

    def require_partition(self, cluster: m.Cluster, name: str) -> m.Partition:
        found = self.s.scalar(
            select(m.Partition).where(
                m.Partition.cluster_id == cluster.id, m.Partition.name == name
            )
        )
        if found is None:
            raise NotFound(f"partition '{name}' does not exist on cluster {cluster.name}")
        return found

    # -- cleanup -------------------------------------------------------------------
    def _delete_assocs(self, ids: list[int]) -> None:
        """Association rows and their usage charges (their jobs keep a NULL association)."""
        for part in chunked(ids):
            self.s.execute(delete(m.Usage).where(m.Usage.assoc_id.in_(part)))
            self.s.execute(delete(m.Association).where(m.Association.id.in_(part)))
        self.s.flush()

    def _drop_orphans(self) -> None:
        """Users and accounts left without any association disappear, as in the dump."""
        used_users = select(m.Association.user).where(m.Association.user.is_not(None))
        self.s.execute(delete(m.User).where(m.User.name.not_in(used_users)))
        used_accounts = select(m.Association.account)
        self.s.execute(
            delete(m.Account).where(m.Account.name.not_in(used_accounts), m.Account.name != "root")
        )

    def _fix_defaults_and_orphans(self, cluster: m.Cluster) -> None:
        """After a recursive delete: a user whose default account on the cluster went
        away gets the alphabetically first account it still has there (documented,
        deterministic)."""
        self._drop_orphans()
        user_defaults.give_defaults(self.s.connection(), cluster.id)


def _kv(**values) -> str:
    return " ".join(f"{k}={v}" for k, v in values.items() if v is not None)


def _user_assoc_name(assoc: m.Association) -> str:
    """``user/account[/partition]``, as history and messages name a user association."""
    return f"{assoc.user}/{assoc.account}" + (f"/{assoc.partition}" if assoc.partition else "")
