"""Jobs as the API lists them. The words a job's command takes are checked against
:mod:`fscli.engine.job_states`, which the command line reads directly."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fscli.api.store import Store
    from fscli.engine.model import Job

__all__ = ["list_jobs", "stored_job"]


def list_jobs(store: Store, cluster: str | None, filters: dict[str, set[str]]) -> list[Job]:
    """The cluster's jobs plus LSF jobs stored without a cluster (every job when the store
    has no cluster), oldest id first, keeping those whose ``user``, ``account``, ``state``,
    ``partition`` or ``queue`` is among ``filters``' values."""
    from fscli.store.snapshot import load_listed_jobs

    with store.viewing() as conn:
        return load_listed_jobs(conn, cluster, filters)


def stored_job(store: Store, job_id: int, cluster: str | None) -> Job:
    """Job ``job_id`` of the cluster, or :class:`~fscli.errors.NotFound`."""
    from fscli.errors import NotFound
    from fscli.store import snapshot

    with store.viewing() as conn:
        found = snapshot.load_jobs(conn, snapshot.cluster_id_for(conn, cluster), job_id=job_id)
    if not found:
        raise NotFound(f"job {job_id} does not exist on this cluster")
    return found[0]
