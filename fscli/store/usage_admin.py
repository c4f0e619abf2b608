"""Writes for usage and priority configuration (``fscli config``, ``fscli usage``).

:class:`UsageAdmin` extends :class:`fscli.store.admin.Admin`, so every change runs in the
caller's transaction and is logged for ``fscli history``. Usage is stored as charges in
the ``usage`` table (billing TRES-seconds at a moment) and, for ``sacct`` imports, as
completed/running rows in the ``job`` table, which ``engine.cluster_state.raw_usage_of``
charges pass by pass as slurmctld does. Imports are all-or-nothing: every unknown
user/account is reported at once unless ``skip_unknown`` is set, in which case the rest
is imported and the skipped names are returned.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sqlalchemy import delete, func, select

from fscli.engine.config import KEYS, RESET_AT_KEY, readable
from fscli.engine.imported import JobRecord, ShareUsage
from fscli.engine.timestr import utc_iso
from fscli.engine.tres import format_tres
from fscli.errors import Conflict, InvalidValue, NotFound
from fscli.store import models as m
from fscli.store.admin import Admin, chunked
from fscli.store.audit import describe
from fscli.store.config_history import keep_replaced
from fscli.store.pass_cache import stamped_once
from fscli.store.progress import Progress, tick
from fscli.store.tables import MAX_JOB_ID


@dataclass
class ImportResult:
    lines: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "user/account" pairs not in the store


class UsageAdmin(Admin):
    # -- configuration -------------------------------------------------------------
    def set_config(
        self,
        cluster: m.Cluster,
        values: dict[str, str],
        source: str = "config set",
        origin: str = "",
    ) -> list[str]:
        """Store validated slurm.conf-style settings (canonical key -> normalized text) of
        one cluster: the others keep theirs, as each Slurm cluster has its own slurm.conf.

        ``origin`` (the imported file) goes into each history record's detail.
        """
        lines = []
        replaced: dict[str, str | None] = {}
        for key, value in values.items():
            row = self.s.get(m.Config, (cluster.id, key))
            if row is None or row.value != value:
                replaced[key] = None if row is None else row.value
        if replaced:
            self.s.flush()
            keep_replaced(self.s, cluster.id, self.now, replaced)
        for key, value in values.items():
            if key not in replaced:
                continue
            self._put(cluster, key, value)
            old = replaced[key] if replaced[key] is not None else KEYS.get(key, ("",))[0]
            diff = [(key, readable(key, old) if old else None, readable(key, value))]
            self.log(source, f"{key}@{cluster.name}", describe(diff) + origin, diff)
            lines.append(f"set {key}={readable(key, value)} on {cluster.name}")
            if key == "PriorityUsageResetPeriod" and value == "NOW":
                self._put(cluster, RESET_AT_KEY, str(self.now))
                self.log(source, f"{RESET_AT_KEY}@{cluster.name}", utc_iso(self.now))
                lines.append(f"usage reset at {utc_iso(self.now)}")
        self.s.flush()
        return lines or [f"nothing changed: every value was already set on {cluster.name}"]

    def _put(self, cluster: m.Cluster, key: str, value: str) -> None:
        row = self.s.get(m.Config, (cluster.id, key))
        if row is None:
            self.s.add(m.Config(cluster_id=cluster.id, key=key, value=value))
        else:
            row.value = value

    # -- associations ----------------------------------------------------------------
    def usage_assoc(self, cluster: m.Cluster, user: str | None, account: str) -> m.Association:
        """The association usage is charged to: user's (no partition) or the account's own."""
        account = account.lower()
        if user is None:
            return self.require_account(cluster, account)
        self.require_account(cluster, account)
        assoc = self._user_assoc(cluster, user.lower(), account, None)
        if assoc is None:
            raise NotFound(
                f"user '{user}' has no association with account '{account}' "
                f"on cluster {cluster.name}"
            )
        return assoc

    def _assoc_index(self, cluster: m.Cluster) -> dict[tuple[str, str | None], int]:
        rows = self.s.execute(
            select(m.Association.account, m.Association.user, m.Association.id).where(
                m.Association.cluster_id == cluster.id, m.Association.partition.is_(None)
            )
        )
        return {(account, user): aid for account, user, aid in rows}

    # -- charges --------------------------------------------------------------------
    def add_usage(
        self, cluster: m.Cluster, user: str | None, account: str, amount: float, at: int
    ) -> list[str]:
        assoc = self.usage_assoc(cluster, user, account)
        self.s.add(m.Usage(assoc_id=assoc.id, at=at, amount=amount))
        target = _target(assoc, cluster)
        self.log("add usage", target, f"raw={amount:g} at={utc_iso(at)}")
        return [f"charged {amount:g} to {target} at {utc_iso(at)}"]

    def set_usage(
        self, cluster: m.Cluster, user: str | None, account: str, amount: float, at: int
    ) -> list[str]:
        assoc = self.usage_assoc(cluster, user, account)
        self._replace_charges(assoc.id, amount, at)
        target = _target(assoc, cluster)
        self.log("set usage", target, f"raw={amount:g} at={utc_iso(at)}")
        return [f"set RawUsage of {target} to {amount:g} as of {utc_iso(at)}"]

    def _replace_charges(self, assoc_id: int, amount: float, at: int) -> None:
        """Earlier charges (at or before ``at``) give way to one charge of ``amount``."""
        self.s.execute(delete(m.Usage).where(m.Usage.assoc_id == assoc_id, m.Usage.at <= at))
        self.s.add(m.Usage(assoc_id=assoc_id, at=at, amount=amount))

    # -- imports --------------------------------------------------------------------
    def _resolve(
        self, cluster: m.Cluster, pairs: list[tuple[str, str]], skip_unknown: bool
    ) -> tuple[dict[tuple[str, str], int], list[str]]:
        index = self._assoc_index(cluster)
        found, unknown = {}, []
        for user, account in dict.fromkeys((u.lower(), a.lower()) for u, a in pairs):
            aid = index.get((account, user))
            if aid is None:
                unknown.append(f"{user}/{account}")
            else:
                found[(user, account)] = aid
        if unknown and not skip_unknown:
            raise NotFound(
                f"{len(unknown)} user/account pair(s) not in cluster {cluster.name}: "
                f"{', '.join(unknown)} (add them, or use --skip-unknown)"
            )
        return found, unknown

    def import_sshare(
        self,
        cluster: m.Cluster,
        rows: list[ShareUsage],
        at: int,
        path: str,
        skip_unknown: bool,
        progress: Progress | None = None,
    ) -> ImportResult:
        """Each user row's RawUsage becomes that association's usage as of ``at``."""
        users = [(r.user, r) for r in rows if r.user is not None]
        found, unknown = self._resolve(cluster, [(u, r.account) for u, r in users], skip_unknown)
        result = ImportResult(skipped=unknown)
        with stamped_once(self.s, ("usage",), len(users)):
            for i, (user, r) in enumerate(users):
                tick(progress, i, len(users))
                aid = found.get((user.lower(), r.account.lower()))
                if aid is not None:
                    self._replace_charges(aid, r.raw_usage, at)
            self.s.flush()
        self.log("import usage", path, f"format=sshare users={len(found)} at={utc_iso(at)}")
        result.lines.append(
            f"set RawUsage of {len(found)} user association(s) on "
            f"{cluster.name} as of {utc_iso(at)}"
        )
        return result

    def import_sacct(
        self,
        cluster: m.Cluster,
        jobs: list[JobRecord],
        path: str,
        skip_unknown: bool,
        progress: Progress | None = None,
    ) -> ImportResult:
        """Store sacct job records as completed/running jobs (charged pass by pass), at
        the billing sacct recorded (AllocTRES ``billing=``): what slurmctld charged."""
        found, unknown = self._resolve(cluster, [(j.user, j.account) for j in jobs], skip_unknown)
        result = ImportResult(skipped=unknown)
        kept = [j for j in jobs if (j.user.lower(), j.account.lower()) in found]
        ids = self._job_ids(kept)
        with stamped_once(self.s, ("job",), len(kept)):
            self._add_jobs(cluster, kept, ids, found, progress)
        self.log("import usage", path, f"format=sacct jobs={len(kept)}")
        running = sum(1 for j in kept if j.end is None)
        result.lines.append(
            f"imported {len(kept)} job(s) on {cluster.name} "
            f"({len(kept) - running} completed, {running} running)"
        )
        return result

    def _add_jobs(
        self,
        cluster: m.Cluster,
        kept: list[JobRecord],
        ids: list[int],
        found: dict[tuple[str, str], int],
        progress: Progress | None,
    ) -> None:
        """The job rows of sacct's records (``found``: their associations' ids), flushed:
        inside the caller's trigger pause."""
        for i, (job, job_id) in enumerate(zip(kept, ids)):
            tick(progress, i, len(kept))
            tres = dict(job.tres)
            self.s.add(
                m.Job(
                    id=job_id,
                    cluster_id=cluster.id,
                    assoc_id=found[(job.user.lower(), job.account.lower())],
                    user=job.user.lower(),
                    account=job.account.lower(),
                    partition=job.partition,
                    qos=job.qos.lower() if job.qos else None,
                    state="running" if job.end is None else "completed",
                    submit=job.start,
                    eligible=job.start,
                    start=job.start,
                    end=job.end,
                    cpus=tres.get("cpu", 1),
                    nodes=tres.get("node", 1),
                    tres=format_tres(tres, units=False) or None,
                    billing=float(tres["billing"]) if "billing" in tres else None,
                )
            )
        self.s.flush()

    def _job_ids(self, jobs: list[JobRecord]) -> list[int]:
        """sacct's numeric JobID where it has one (clash = error), else new ids."""
        given = [
            int(j.job_id) if j.job_id and j.job_id.isascii() and j.job_id.isdigit() else None
            for j in jobs
        ]
        wanted = [i for i in given if i is not None]
        too_big = next((i for i in wanted if i > MAX_JOB_ID), None)
        if too_big is not None:
            raise InvalidValue(f"job id {too_big} is too large (at most {MAX_JOB_ID})")
        dupes = sorted(i for i, n in Counter(wanted).items() if n > 1)
        if dupes:
            raise Conflict(f"job id(s) {', '.join(map(str, dupes[:10]))} appear twice in the file")
        taken = {
            i
            for part in chunked(wanted)
            for i in self.s.scalars(select(m.Job.id).where(m.Job.id.in_(part)))
        }
        if taken:
            shown = ", ".join(map(str, sorted(taken)[:10]))
            raise Conflict(f"job id(s) {shown} are already in the store (imported before?)")
        next_id = max([self.s.scalar(select(func.max(m.Job.id))) or 0, *wanted]) + 1
        new = len(given) - len(wanted)
        if new and next_id + new - 1 > MAX_JOB_ID:
            raise Conflict(
                f"no new job id left for the {new} job(s) without a numeric JobID "
                f"after job {next_id - 1} (job ids go up to {MAX_JOB_ID})"
            )
        out = []
        for i in given:
            if i is None:
                i, next_id = next_id, next_id + 1
            out.append(i)
        return out


def _target(assoc: m.Association, cluster: m.Cluster) -> str:
    return (f"{assoc.user}/{assoc.account}" if assoc.user else assoc.account) + f"@{cluster.name}"
