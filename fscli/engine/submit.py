"""What slurmctld fills in or refuses when a job is submitted, before any limit is checked.

* Memory (``_validate_job_desc`` in src/slurmctld/job_mgr.c): a job that gives no memory
  gets ``DefMemPerNode`` per node, else ``DefMemPerCPU`` per CPU (DefMemPerNode wins when
  both are set, as ``read_config.c`` ignores DefMemPerCPU then); ``MaxMemPerCPU`` then
  trades memory per CPU for CPUs as ``_valid_pn_min_mem`` does: a per-CPU amount above it
  multiplies the CPUs by ``ceil(mem / max)`` and divides the memory per CPU by as much
  (rounded up); a per-node amount needs at least ``ceil(mem / max)`` CPUs per node. The
  job's TRES then hold that memory, so memory limits (GrpTRES=mem=...) count it.
* Partition sizes (``_part_access_check``): more CPUs than the partition has is
  ``More processors requested than permitted``, more nodes ``Node count specification
  invalid``. With ``EnforcePartLimits`` ANY or ALL (or YES) ``_valid_job_part`` refuses
  the job at submission; with NO it is accepted and ``job_limits_check`` keeps it pending
  (PartitionConfig for CPUs, PartitionNodeLimit for nodes).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from fscli.engine.config import PriorityConfig
from fscli.engine.model import Partition


class MemoryDefaults(NamedTuple):
    """DefMemPerCPU, DefMemPerNode and MaxMemPerCPU in MB (0 = not set)."""

    per_cpu: int = 0
    per_node: int = 0
    max_per_cpu: int = 0

    @classmethod
    def of(cls, config: PriorityConfig) -> MemoryDefaults:
        """The cluster's (DefMemPerCPU, DefMemPerNode, MaxMemPerCPU)."""
        return cls(config.def_mem_per_cpu, config.def_mem_per_node, config.max_mem_per_cpu)

    def under(self, partition: Partition | None) -> MemoryDefaults:
        """The defaults a job in ``partition`` gets: a partition that sets DefMemPerCPU or
        DefMemPerNode replaces the cluster's pair (they are one setting in slurmctld,
        ``def_mem_per_cpu`` with a per-CPU flag, and a partition's is taken whole when set:
        read_config.c), and its MaxMemPerCPU replaces the cluster's."""
        if partition is None:
            return self
        per_cpu, per_node = self.per_cpu, self.per_node
        if partition.def_mem_per_cpu is not None or partition.def_mem_per_node is not None:
            per_cpu, per_node = partition.def_mem_per_cpu or 0, partition.def_mem_per_node or 0
        cap = self.max_per_cpu if partition.max_mem_per_cpu is None else partition.max_mem_per_cpu
        return MemoryDefaults(per_cpu, per_node, cap)


def fill_memory(
    cpus: int, nodes: int, tres: Mapping[str, int], memory: MemoryDefaults
) -> tuple[int, dict[str, int]]:
    """(CPUs, TRES) of a job once its default memory is filled in; a job that gives its
    memory (``tres["mem"]``, the total) is left as it is."""
    out = dict(tres)
    if "mem" in out or not (memory.per_node or memory.per_cpu):
        return cpus, out
    cap = memory.max_per_cpu
    if memory.per_node:
        if cap:
            cpus = max(cpus, nodes * math.ceil(memory.per_node / cap))
        out["mem"] = memory.per_node * nodes
        return cpus, out
    per_cpu = memory.per_cpu
    if cap and per_cpu > cap:
        ratio = math.ceil(per_cpu / cap)
        cpus *= ratio
        per_cpu = math.ceil(per_cpu / ratio)
    out["mem"] = per_cpu * cpus
    return cpus, out


@dataclass
class JobInput:
    """A job as given on the command line or read from squeue (times are epoch seconds)."""

    user: str
    account: str | None = None
    partitions: tuple[str, ...] = ()
    qos: str | None = None
    queue: str | None = None
    state: str = "pending"
    submit: int | None = None
    eligible: int | None = None
    start: int | None = None
    end: int | None = None
    cpus: int = 1
    nodes: int = 1
    slots: int = 1
    tres: dict[str, int] = field(default_factory=dict)
    time_limit: int | None = None  # minutes; None = UNLIMITED
    nice: int = 0
    site_factor: int = 0
    cputime: float | None = None
    job_id: int | None = None
