"""The write surface: every change to a store, by keyword, inside one transaction.

``with store.transaction() as tx:`` yields a :class:`Writes`; its methods validate against
the store, write, log the change for ``fscli history`` and return the lines saying what
changed (an empty list: nothing did). Nothing is committed until the block ends without
an error, so a script's changes land all together or not at all.

Settings are keywords read exactly as the same sacctmgr words would be
(:func:`fscli.engine.assoc_changes.from_settings`, :func:`fscli.engine.qos_changes.from_settings`):
``tx.add_account("chem", fairshare=10, GrpTRES={"cpu": 128})``. The command line, which
has already parsed its words, passes the parsed changes instead (``changes=``).
``cluster=None`` is the store's only cluster, as on the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fscli.errors import UsageProblem

if TYPE_CHECKING:
    from fscli.engine.assoc_changes import AssocChanges
    from fscli.engine.imported import ShareUsage
    from fscli.engine.limits.target import Target
    from fscli.engine.qos_changes import QosChanges
    from fscli.engine.submit import JobInput
    from fscli.engine.treediff import Plan
    from fscli.engine.treespec import TreeSpec
    from fscli.io.usage_import import SacctImport
    from fscli.store.progress import Progress
    from fscli.store.usage_admin import UsageAdmin


def _names(names: str | list[str]) -> list[str]:
    return [names] if isinstance(names, str) else list(names)


def _assoc_changes(changes: AssocChanges | None, settings: dict[str, Any]) -> AssocChanges:
    from fscli.engine.assoc_changes import from_settings

    if changes is not None and settings:
        raise UsageProblem("give the settings as keywords or as changes=, not both")
    return changes if changes is not None else from_settings(**settings)


def _qos_changes(changes: QosChanges | None, settings: dict[str, Any]) -> QosChanges:
    from fscli.engine.qos_changes import from_settings

    if changes is not None and settings:
        raise UsageProblem("give the settings as keywords or as changes=, not both")
    return changes if changes is not None else from_settings(**settings)


class Writes:
    """One transaction's changes (see the module's docstring)."""

    implicit_cluster: str | None = None
    """The cluster a first write without ``cluster=`` makes on a store that has none (the
    command line's ``default``, and its lines say so); None, the library's default: such a
    write is refused, as a cluster is never made up silently."""

    def __init__(self, admin: UsageAdmin):
        self._admin = admin

    @property
    def now(self) -> int:
        """The moment the changes are recorded at (epoch seconds)."""
        return self._admin.now

    def _cluster(self, name: str | None):
        return self._admin.cluster(name)

    def _first_cluster(self, name: str | None) -> tuple[Any, list[str]]:
        """(the cluster a write that may be a store's first works on, the lines saying
        that :attr:`implicit_cluster` was made for it)."""
        made: list[str] = []
        if not name and not self._admin.has_cluster():
            if self.implicit_cluster is None:
                from fscli.errors import NotFound

                raise NotFound(
                    "the store holds no cluster yet: add one first "
                    "(tx.add_cluster(NAME); on the command line 'fscli cluster add NAME')"
                )
            made = self._admin.add_cluster(self.implicit_cluster)
            name = self.implicit_cluster
        return self._admin.cluster(name), made

    # -- clusters ---------------------------------------------------------------------
    def add_cluster(
        self, name: str, nodes: int | None = None, cpus: int | None = None, tres: str | None = None
    ) -> list[str]:
        """A cluster with its root association (and the ``root`` account and ``normal``
        QOS when the store has none)."""
        return self._admin.add_cluster(name, nodes=nodes, cpus=cpus, tres=tres)

    def modify_cluster(self, name: str, **values: Any) -> list[str]:
        """Change a cluster's ``nodes``, ``cpus`` or ``tres``."""
        unknown = sorted(set(values) - {"nodes", "cpus", "tres"})
        if unknown:
            raise UsageProblem(f"unknown cluster setting '{unknown[0]}' (known: nodes, cpus, tres)")
        return self._admin.modify_cluster(name, values)

    def delete_cluster(self, names: str | list[str], active_jobs_too: bool = False) -> list[str]:
        """Delete clusters with all their associations (refused while jobs are pending or
        running there, unless ``active_jobs_too``: those go too)."""
        return [
            line
            for name in _names(names)
            for line in self._admin.delete_cluster(name, active_jobs_too)
        ]

    def apply_tree(self, spec: TreeSpec, loading: bool = False) -> Plan:
        """Make the spec's cluster match ``spec`` (a tree as ``fscli apply``/``load`` read
        it) inside this transaction; ``loading``: as ``load`` of a sacctmgr dump (QOS and
        partitions it names are added, a DefaultQOS outside a QOS list is kept)."""
        from fscli.engine.treespec import lower_names
        from fscli.store.tree_plan import make_plan
        from fscli.store.tree_sync import apply_plan

        session = self._admin.s
        plan = make_plan(session.connection(), lower_names(spec), create_missing=loading)
        if plan.changes:
            apply_plan(session, plan, self.now, self._admin.actor, check_default_qos=not loading)
        return plan

    def record(self, action: str, target: str, detail: str = "") -> None:
        """A line of ``fscli history`` for a change made of several writes (an import)."""
        self._admin.log(action, target, detail)

    # -- accounts ---------------------------------------------------------------------
    def add_account(
        self,
        names: str | list[str],
        cluster: str | None = None,
        parent: str | None = None,
        description: str | None = None,
        organization: str | None = None,
        changes: AssocChanges | None = None,
        **settings: Any,
    ) -> list[str]:
        """Accounts under ``parent`` (default root), with their association settings."""
        changes = _assoc_changes(changes, settings)
        target, made = self._first_cluster(cluster)
        return made + self._admin.add_accounts(
            target, _names(names), parent, description, organization, changes
        )

    def modify_account(
        self,
        names: str | list[str],
        cluster: str | None = None,
        parent: str | None = None,
        description: str | None = None,
        organization: str | None = None,
        changes: AssocChanges | None = None,
        **settings: Any,
    ) -> list[str]:
        """Change accounts: parent, description, organization, association settings."""
        changes = _assoc_changes(changes, settings)
        return self._admin.modify_accounts(
            self._cluster(cluster), _names(names), parent, description, organization, changes
        )

    def delete_account(
        self, names: str | list[str], cluster: str | None = None, recursive: bool = False
    ) -> list[str]:
        """Delete accounts (refused while sub-accounts or users remain, unless
        ``recursive``)."""
        return self._admin.delete_accounts(self._cluster(cluster), _names(names), recursive)

    # -- users ------------------------------------------------------------------------
    def add_user(
        self,
        names: str | list[str],
        accounts: str | list[str],
        cluster: str | None = None,
        partition: str | None = None,
        default_account: str | None = None,
        admin_level: str | None = None,
        changes: AssocChanges | None = None,
        **settings: Any,
    ) -> list[str]:
        """Users with an association in each of ``accounts`` (under slurmdbd's rules, as
        ``fscli sacctmgr``'s, in a partition the store may not know: sacctmgr never asks
        slurmctld)."""
        changes = _assoc_changes(changes, settings)
        target, made = self._first_cluster(cluster)
        return made + self._admin.add_users(
            target,
            _names(names),
            _names(accounts),
            partition,
            default_account,
            admin_level,
            changes,
            known_partition=not self._admin.slurmdbd_rules,
        )

    def modify_user(
        self,
        names: str | list[str],
        account: str | None = None,
        cluster: str | None = None,
        partition: str | None = None,
        default_account: str | None = None,
        admin_level: str | None = None,
        changes: AssocChanges | None = None,
        **settings: Any,
    ) -> list[str]:
        """Change users (their associations in ``account``/``partition``, else all)."""
        changes = _assoc_changes(changes, settings)
        return self._admin.modify_users(
            self._cluster(cluster),
            _names(names),
            account,
            partition,
            default_account,
            admin_level,
            changes,
        )

    def delete_user(
        self,
        names: str | list[str],
        account: str | None = None,
        cluster: str | None = None,
        partition: str | None = None,
    ) -> list[str]:
        """Delete users' associations (in ``account``/``partition``, else all). The
        association of a user's default account goes only with the user's last one, but
        under slurmdbd's rules (``fscli sacctmgr``), whose own check of defaults is
        sacctmgr's front end's: there the user keeps the others, with no default."""
        return self._admin.delete_users(
            self._cluster(cluster),
            _names(names),
            account,
            partition,
            keep_default=not self._admin.slurmdbd_rules,
        )

    # -- QOS --------------------------------------------------------------------------
    def add_qos(
        self, names: str | list[str], changes: QosChanges | None = None, **settings: Any
    ) -> list[str]:
        """QOS with their priority, flags, factors and limits."""
        from fscli.store.resources import add_qos

        return add_qos(self._admin, _names(names), _qos_changes(changes, settings))

    def modify_qos(
        self, names: str | list[str], changes: QosChanges | None = None, **settings: Any
    ) -> list[str]:
        """Change QOS."""
        from fscli.store.resources import modify_qos

        return modify_qos(self._admin, _names(names), _qos_changes(changes, settings))

    def qos_names(self) -> set[str]:
        """The names of the store's QOS (global: every cluster's)."""
        return self._admin.known_qos()

    def delete_qos(self, names: str | list[str]) -> list[str]:
        """Delete QOS (refused while anything uses them)."""
        from fscli.store.resources import delete_qos

        return delete_qos(self._admin, _names(names))

    # -- partitions -------------------------------------------------------------------
    def add_partition(self, name: str, cluster: str | None = None, **values: Any) -> list[str]:
        """A partition with its settings (``engine.model.PARTITION_SETTINGS``, as stored:
        minutes, MB, TRES dicts)."""
        from fscli.store.resources import add_partition

        target, made = self._first_cluster(cluster)
        return made + add_partition(self._admin, target, name, values)

    def modify_partition(self, name: str, cluster: str | None = None, **values: Any) -> list[str]:
        """Change a partition's settings."""
        from fscli.store.resources import modify_partition

        return modify_partition(self._admin, self._cluster(cluster), name, values)

    def delete_partition(self, name: str, cluster: str | None = None) -> list[str]:
        """Delete a partition (refused while user associations name it)."""
        from fscli.store.resources import delete_partition

        return delete_partition(self._admin, self._cluster(cluster), name)

    # -- limits -----------------------------------------------------------------------
    def set_limits(self, target: Target, changes: Any, cluster: str | None = None) -> list[str]:
        """Set (or clear, with -1) limits on an association, QOS or partition
        (``fscli.engine.limits.target.Target``) through the same checks and history as
        modify; ``changes`` as that kind's modify takes them (``AssocChanges``,
        ``QosChanges``, a partition's values)."""
        from fscli.engine.limits.target import PARTITION, QOS

        if target.kind == QOS:
            return self.modify_qos(target.qos, changes=changes)
        where = target.cluster or cluster
        if target.kind == PARTITION:
            assert target.partition is not None, "a partition target names its partition"
            return self.modify_partition(target.partition, where, **changes)
        if target.user is None:
            assert target.account is not None, "an account target names its account"
            return self.modify_account(target.account, where, changes=changes)
        return self.modify_user(
            target.user, target.account, where, target.partition, changes=changes
        )

    # -- settings and usage -----------------------------------------------------------
    def set_config(
        self, values: dict[str, Any], cluster: str | None = None, source: str = "config set"
    ) -> list[str]:
        """Priority settings of one cluster, by slurm.conf's names (any case) with values
        as slurm.conf writes them (``{"PriorityDecayHalfLife": "7-0"}``); ``source`` names
        the change in the history."""
        from fscli.engine.config import validate

        checked = dict(validate(key, str(value)) for key, value in values.items())
        target, made = self._first_cluster(cluster)
        return made + self._admin.set_config(target, checked, source=source)

    def import_config(
        self, values: dict[str, str], origin: str, cluster: str | None = None
    ) -> list[str]:
        """The priority settings a slurm.conf holds (``fscli.io.slurmconf``'s ``used``:
        checked and canonical), recorded as imported from ``origin``."""
        if not values:
            return [f"no priority setting found in {origin}"]
        target, made = self._first_cluster(cluster)
        return made + self._admin.set_config(
            target,
            values,
            source="config import",
            origin=f" (from {origin})",
        )

    def add_usage(
        self,
        account: str,
        amount: float,
        at: int | None = None,
        user: str | None = None,
        cluster: str | None = None,
    ) -> list[str]:
        """Charge ``amount`` (billing TRES-seconds) to an association at ``at`` (epoch
        seconds; default the transaction's moment); it decays from then on."""
        return self._admin.add_usage(
            self._cluster(cluster), user, account, float(amount), self.now if at is None else at
        )

    def import_usage(
        self,
        usage: SacctImport | list[ShareUsage],
        origin: str,
        skip_unknown: bool = False,
        cluster: str | None = None,
        progress: Progress | None = None,
    ) -> list[str]:
        """Usage read from ``sacct -a -X -P`` output (``fscli.io.usage_import.parse_sacct``:
        jobs charged pass by pass) or ``sshare -a -l -P`` output (``parse_sshare``: each
        user's RawUsage as of the transaction's moment), recorded as imported from
        ``origin``; ``skip_unknown`` imports what matches the store and names the
        user/account pairs it skipped instead of refusing them. (The file is parsed by the
        caller, before the transaction: a file that is not usage opens no store.)"""
        target = self._cluster(cluster)
        if isinstance(usage, list):
            result = self._admin.import_sshare(
                target, usage, self.now, origin, skip_unknown, progress
            )
        else:
            result = self._admin.import_sacct(target, usage.jobs, origin, skip_unknown, progress)
            if usage.skipped:
                result.lines.append(f"ignored {usage.skipped} job step(s) or never-started job(s)")
        if result.skipped:
            result.lines.append(
                f"skipped {len(result.skipped)} unknown user/account pair(s): "
                + ", ".join(result.skipped)
            )
        return result.lines

    def set_usage(
        self,
        account: str,
        amount: float,
        at: int | None = None,
        user: str | None = None,
        cluster: str | None = None,
    ) -> list[str]:
        """Make an association's RawUsage ``amount`` as of ``at`` (earlier charges go)."""
        return self._admin.set_usage(
            self._cluster(cluster), user, account, float(amount), self.now if at is None else at
        )

    def settings(self, cluster: str | None = None) -> dict[str, str]:
        """The cluster's stored priority settings as they stand in this transaction."""
        from fscli.store.snapshot import load_config

        target = self._cluster(cluster)
        return load_config(self._admin.s.connection(), target.id)

    def partition_names(self, cluster: str | None = None) -> list[str]:
        """The cluster's partitions as they stand in this transaction."""
        return self._admin.partition_names(self._cluster(cluster))

    # -- jobs -------------------------------------------------------------------------
    def _jobs(self, cluster: str | None, lsf: bool = False, by_id: bool = False):
        """The job writer of ``cluster``; an LSF job may live in a store without one, and
        jobs named ``by_id`` are found on whichever cluster holds them."""
        from fscli.errors import NotFound
        from fscli.store.jobs import Jobs

        if by_id:
            return Jobs(self._admin, None)
        try:
            target = self._cluster(cluster)
        except (NotFound, UsageProblem):
            if not lsf:
                raise
            target = None
        return Jobs(self._admin, target)

    def submit_job(
        self, job: JobInput | None = None, count: int = 1, cluster: str | None = None, **fields: Any
    ) -> tuple[list[int], list[str]]:
        """Store ``count`` copies of a job, checked as sbatch (or LSF's bsub, for a job with
        a ``queue``) checks a submission; (the new ids, what changed). The job is a
        ``JobInput`` or its fields as keywords (``user="bob", cpus=8, time_limit=120``)."""
        from fscli.engine.submit import JobInput

        if job is not None and fields:
            raise UsageProblem("give the job as keywords or as job=, not both")
        job = job if job is not None else JobInput(**fields)
        return self._jobs(cluster, lsf=job.queue is not None).submit(job, count)

    def cancel_jobs(self, ids: list[int]) -> list[str]:
        """Cancel pending or running jobs (running ones end at the transaction's moment)."""
        return self._jobs(None, by_id=True).cancel(list(ids))

    def modify_jobs(self, ids: list[int], **changes: int | None) -> list[str]:
        """Change pending or running jobs' ``admin_priority`` (None: back to the
        plugin; 0 holds), ``nice`` or ``site_factor``."""
        unknown = sorted(set(changes) - {"admin_priority", "nice", "site_factor"})
        if unknown:
            raise UsageProblem(
                f"unknown job setting '{unknown[0]}' (known: admin_priority, nice, site_factor)"
            )
        return self._jobs(None, by_id=True).modify(list(ids), changes)

    def import_jobs(
        self,
        jobs: list[JobInput],
        replace: bool = False,
        cluster: str | None = None,
        progress: Progress | None = None,
    ) -> list[str]:
        """Store the pending and running jobs among ``jobs`` (squeue's, as ``JobInput``),
        each checked as a submission; ids already stored conflict unless ``replace``."""
        return self._jobs(cluster).import_jobs(jobs, replace, progress)

    # -- LSF --------------------------------------------------------------------------
    def set_lsf_params(self, values: dict[str, str]) -> list[str]:
        """Set lsb.params values (known names, numbers in range, Y/N switches)."""
        from fscli.store.lsf_admin import set_params

        return set_params(self._admin, values)

    def unset_lsf_params(self, names: list[str]) -> list[str]:
        """Put lsb.params values back to LSF's defaults."""
        from fscli.store.lsf_admin import unset_params

        return unset_params(self._admin, list(names))

    def add_lsf_queue(self, name: str, values: dict[str, str]) -> list[str]:
        """An LSF queue: ``priority``, ``fairshare`` (``USER_SHARES[...]``) and
        lsb.params overrides by name."""
        from fscli.store.lsf_admin import add_queue

        return add_queue(self._admin, name, values)

    def modify_lsf_queue(self, names: str | list[str], values: dict[str, str]) -> list[str]:
        """Change LSF queues (``fairshare=none``: first come first served)."""
        from fscli.store.lsf_admin import modify_queue

        return modify_queue(self._admin, _names(names), values)

    def delete_lsf_queue(self, names: str | list[str]) -> list[str]:
        """Delete LSF queues (refused while pending or running jobs use them)."""
        from fscli.store.lsf_admin import delete_queue

        return delete_queue(self._admin, _names(names))

    def add_lsf_group(self, name: str, values: dict[str, str]) -> list[str]:
        """An LSF user group: ``members`` and ``shares``."""
        from fscli.store.lsf_admin import add_group

        return add_group(self._admin, name, values)

    def modify_lsf_group(self, name: str, values: dict[str, str]) -> list[str]:
        """Change an LSF user group."""
        from fscli.store.lsf_admin import modify_group

        return modify_group(self._admin, name, values)

    def delete_lsf_group(self, names: str | list[str]) -> list[str]:
        """Delete LSF user groups (refused while a queue's or group's shares name them)."""
        from fscli.store.lsf_admin import delete_group

        return delete_group(self._admin, _names(names))
