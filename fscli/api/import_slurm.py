"""``fscli import slurm DIR``: one cluster of the store made what a ``collect`` saw.

The cluster is replaced whole in one transaction (its associations, partitions, settings,
usage and jobs go, then the capture's are written), so nothing of an earlier snapshot
lingers and no other cluster is touched; users and QOS, global as in Slurm, are added or
updated by the tree. The transaction is recorded at the collect's moment.

Usage is rebuilt from the jobs, as slurmctld charged them: sacct's finished jobs and
``scontrol show job``'s running ones, pass by pass on the grid of slurmctld's own passes
(``PriorityCalcAnchor`` = the last pass the collect read), so ``sshare``/``sprio`` at that
pass print what the cluster printed. Importing the folder the last import came from, with
nothing changed since, changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fscli.api.store import Store
    from fscli.api.when import When
    from fscli.api.writes import Writes
    from fscli.io.capture import Capture

ACTION = "import slurm"


@dataclass
class Imported:
    """What an import did: the cluster, the moment to ask at (slurmctld's last pass), the
    lines saying what changed, what could not be filled, and whether anything changed."""

    cluster: str
    at: int | None
    lines: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    changed: bool = True


def import_slurm(
    store: Store, folder: str | Path, at: When = None, dry_run: bool = False
) -> Imported:
    """Read ``folder`` (:func:`fscli.io.capture.read`) and make its cluster match it; see
    the module docstring. ``at`` stands in for the moment of a capture without one."""
    from fscli.api.when import moment
    from fscli.io.capture import read

    capture = read(folder)
    when = capture.moment if capture.moment is not None else moment(at)
    last_pass = capture.last_pass or capture.estimated_pass() or when
    result = Imported(capture.cluster, last_pass, missing=list(capture.missing))
    if capture.last_pass is None:
        result.missing.append(
            "collect.json has no last priority pass: "
            + (
                "passes anchored at the collect's moment"
                if last_pass == when
                else "passes counted from slurmctld's BOOT_TIME"
            )
        )
    if _unchanged(store, capture, when, dry_run):
        result.changed = False
        result.lines.append(f"cluster {capture.cluster} already holds {capture.folder}: unchanged")
        return result
    with store.transaction(at=when, dry_run=dry_run) as tx:
        result.lines += _replace(tx, capture, last_pass)
    return result


def _unchanged(store: Store, capture: Capture, when: int, dry_run: bool) -> bool:
    """Whether the store's last change is the import of this very capture."""
    if store.read_only or capture.cluster not in store.clusters(create=True, dry_run=dry_run):
        return False
    changes = store.history(since=when)
    return bool(changes) and (changes[-1].action, changes[-1].target, changes[-1].detail) == (
        ACTION,
        capture.cluster,
        _detail(capture),
    )


def _detail(capture: Capture) -> str:
    return f"digest={capture.digest} version={capture.meta.get('version', '?')}"


def imported_version(detail: str | None) -> str | None:
    """The Slurm version in an import's recorded detail (:func:`_detail`); None: unknown."""
    for word in (detail or "").split():
        key, _, value = word.partition("=")
        if key == "version" and value not in ("", "?"):
            return value
    return None


def _replace(tx: Writes, capture: Capture, last_pass: int) -> list[str]:
    """The cluster deleted and written again from ``capture``: QOS first (the tree names
    them), the tree, its size, settings, partitions, usage, then the jobs (checked as
    submissions against all of that)."""
    name = capture.cluster
    lines = tx.delete_cluster(name, active_jobs_too=True)
    known = tx.qos_names()
    for qos, changes in capture.qos.items():
        write = tx.modify_qos if qos in known else tx.add_qos
        lines += write(qos, changes=changes)
    plan = tx.apply_tree(capture.tree, loading=True)
    lines.append(f"applied {len(plan.changes)} change(s) of the tree to cluster {name}")
    if capture.size:
        lines += tx.modify_cluster(name, **capture.size)
    settings = dict(capture.settings)
    settings.pop("ClusterName", None)
    settings["PriorityCalcAnchor"] = str(last_pass)
    lines += tx.import_config(settings, str(capture.folder / "scontrol_show_config.txt"), name)
    for part, values in capture.partitions.items():
        lines += tx.add_partition(part, name, **values)
    if capture.completed:
        from fscli.io.usage_import import SacctImport

        lines += tx.import_usage(
            SacctImport(jobs=capture.completed), str(capture.folder), cluster=name
        )
    jobs = [j for j in capture.jobs if set(j.partitions) <= set(capture.partitions)]
    if len(jobs) < len(capture.jobs):
        lines.append(
            f"left out {len(capture.jobs) - len(jobs)} job(s) in partitions the capture "
            "does not describe"
        )
    if jobs:
        lines += tx.import_jobs(jobs, cluster=name)
    tx.record(ACTION, name, _detail(capture))
    return lines
