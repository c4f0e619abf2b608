"""Slurm's job reason strings and submission error texts, as printed by Slurm 22.05.

A TRES limit has one generic reason per kind of check (``AssocGrpUnknown`` ...) that
``_get_tres_state_reason`` (src/slurmctld/acct_policy.c) specialises by the offending TRES;
the strings are ``job_reason_string`` (src/common/slurm_protocol_defs.c). Slurm's own quirks
are kept on purpose: a node has no per-node reason (the generic one is used), a license has
no per-node one either, and QOS MaxTRESMinsPerJob on a burst buffer reads
``AssocMaxBBMinutesPerJob``.
"""

from __future__ import annotations

# Submission errors (src/common/slurm_errno.c).
ERR_ACCOUNTING_POLICY = (
    "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)"
)
ERR_INVALID_ACCOUNT = "Invalid account or account/partition combination specified"
ERR_INVALID_QOS = "Invalid qos specification"
ERR_INVALID_TIME_LIMIT = "Requested time limit is invalid (missing or exceeds some limit)"
ERR_INVALID_NODE_COUNT = "Node count specification invalid"
ERR_INVALID_PARTITION = "Invalid partition name specified"
ERR_TOO_MANY_CPUS = "More processors requested than permitted"

# Reasons that do not depend on a TRES.
ASSOC_GRP_JOBS = "AssocGrpJobsLimit"
ASSOC_GRP_SUBMIT = "AssocGrpSubmitJobsLimit"
ASSOC_GRP_WALL = "AssocGrpWallLimit"
ASSOC_MAX_JOBS = "AssocMaxJobsLimit"
ASSOC_MAX_SUBMIT = "AssocMaxSubmitJobLimit"
ASSOC_MAX_WALL = "AssocMaxWallDurationPerJobLimit"
QOS_GRP_JOBS = "QOSGrpJobsLimit"
QOS_GRP_SUBMIT = "QOSGrpSubmitJobsLimit"
QOS_GRP_WALL = "QOSGrpWallLimit"
QOS_MAX_WALL = "QOSMaxWallDurationPerJobLimit"
QOS_MAX_JOBS_PER_USER = "QOSMaxJobsPerUserLimit"
QOS_MAX_JOBS_PER_ACCOUNT = "MaxJobsPerAccount"
QOS_MAX_SUBMIT_PER_USER = "QOSMaxSubmitJobPerUserLimit"
QOS_MAX_SUBMIT_PER_ACCOUNT = "MaxSubmitJobsPerAccount"
PARTITION_TIME = "PartitionTimeLimit"
PARTITION_NODES = "PartitionNodeLimit"
PARTITION_CONFIG = "PartitionConfig"

_CLASSES = ("cpu", "mem", "energy", "node", "billing", "gres", "license", "bb")


def _row(generic: str, *names: str | None) -> dict[str, str]:
    """One generic reason and its TRES-specific names in ``_CLASSES`` order (None = none)."""
    table = {"unknown": generic}
    table.update({cls: name for cls, name in zip(_CLASSES, names) if name})
    return table


# Keys name the check: who holds the limit (assoc/qos) and which limit it is.
TRES_REASONS: dict[str, dict[str, str]] = {
    "assoc_grp": _row(
        "AssocGrpUnknown",
        "AssocGrpCpuLimit",
        "AssocGrpMemLimit",
        "AssocGrpEnergy",
        "AssocGrpNodeLimit",
        "AssocGrpBilling",
        "AssocGrpGRES",
        "AssocGrpLicense",
        "AssocGrpBB",
    ),
    "assoc_grp_mins": _row(
        "AssocGrpUnknownMinutes",
        "AssocGrpCPUMinutesLimit",
        "AssocGrpMemMinutes",
        "AssocGrpEnergyMinutes",
        "AssocGrpNodeMinutes",
        "AssocGrpBillingMinutes",
        "AssocGrpGRESMinutes",
        "AssocGrpLicenseMinutes",
        "AssocGrpBBMinutes",
    ),
    "assoc_grp_run_mins": _row(
        "AssocGrpUnknownRunMinutes",
        "AssocGrpCPURunMinutesLimit",
        "AssocGrpMemRunMinutes",
        "AssocGrpEnergyRunMinutes",
        "AssocGrpNodeRunMinutes",
        "AssocGrpBillingRunMinutes",
        "AssocGrpGRESRunMinutes",
        "AssocGrpLicenseRunMinutes",
        "AssocGrpBBRunMinutes",
    ),
    "assoc_max_per_job": _row(
        "AssocMaxUnknownPerJob",
        "AssocMaxCpuPerJobLimit",
        "AssocMaxMemPerJob",
        "AssocMaxEnergyPerJob",
        "AssocMaxNodePerJobLimit",
        "AssocMaxBillingPerJob",
        "AssocMaxGRESPerJob",
        "AssocMaxLicensePerJob",
        "AssocMaxBBPerJob",
    ),
    "assoc_max_mins_per_job": _row(
        "AssocMaxUnknownMinutesPerJob",
        "AssocMaxCpuMinutesPerJobLimit",
        "AssocMaxMemMinutesPerJob",
        "AssocMaxEnergyMinutesPerJob",
        "AssocMaxNodeMinutesPerJob",
        "AssocMaxBillingMinutesPerJob",
        "AssocMaxGRESMinutesPerJob",
        "AssocMaxLicenseMinutesPerJob",
        "AssocMaxBBMinutesPerJob",
    ),
    "assoc_max_per_node": _row(
        "AssocMaxUnknownPerNode",
        "AssocMaxCpuPerNode",
        "AssocMaxMemPerNode",
        "AssocMaxEnergyPerNode",
        None,
        "AssocMaxBillingPerNode",
        "AssocMaxGRESPerNode",
        None,
        "AssocMaxBBPerNode",
    ),
    "qos_grp": _row(
        "QOSGrpUnknown",
        "QOSGrpCpuLimit",
        "QOSGrpMemLimit",
        "QOSGrpEnergy",
        "QOSGrpNodeLimit",
        "QOSGrpBilling",
        "QOSGrpGRES",
        "QOSGrpLicense",
        "QOSGrpBB",
    ),
    "qos_grp_mins": _row(
        "QOSGrpUnknownMinutes",
        "QOSGrpCPUMinutesLimit",
        "QOSGrpMemoryMinutes",
        "QOSGrpEnergyMinutes",
        "QOSGrpNodeMinutes",
        "QOSGrpBillingMinutes",
        "QOSGrpGRESMinutes",
        "QOSGrpLicenseMinutes",
        "QOSGrpBBMinutes",
    ),
    "qos_grp_run_mins": _row(
        "QOSGrpUnknownRunMinutes",
        "QOSGrpCPURunMinutesLimit",
        "QOSGrpMemoryRunMinutes",
        "QOSGrpEnergyRunMinutes",
        "QOSGrpNodeRunMinutes",
        "QOSGrpBillingRunMinutes",
        "QOSGrpGRESRunMinutes",
        "QOSGrpLicenseRunMinutes",
        "QOSGrpBBRunMinutes",
    ),
    "qos_max_per_job": _row(
        "QOSMaxUnknownPerJob",
        "QOSMaxCpuPerJobLimit",
        "QOSMaxMemoryPerJob",
        "QOSMaxEnergyPerJob",
        "QOSMaxNodePerJobLimit",
        "QOSMaxBillingPerJob",
        "QOSMaxGRESPerJob",
        "QOSMaxLicensePerJob",
        "QOSMaxBBPerJob",
    ),
    "qos_max_per_node": _row(
        "QOSMaxUnknownPerNode",
        "QOSMaxCpuPerNode",
        "QOSMaxMemoryPerNode",
        "QOSMaxEnergyPerNode",
        None,
        "QOSMaxBillingPerNode",
        "QOSMaxGRESPerNode",
        None,
        "QOSMaxBBPerNode",
    ),
    "qos_max_per_account": _row(
        "MaxUnknownPerAccount",
        "MaxCpuPerAccount",
        "MaxMemoryPerAccount",
        "MaxEnergyPerAccount",
        "MaxNodePerAccount",
        "MaxBillingPerAccount",
        "MaxGRESPerAccount",
        "MaxLicensePerAccount",
        "MaxBBPerAccount",
    ),
    "qos_max_per_user": _row(
        "QOSMaxUnknownPerUser",
        "QOSMaxCpuPerUserLimit",
        "QOSMaxMemoryPerUser",
        "QOSMaxEnergyPerUser",
        "QOSMaxNodePerUserLimit",
        "QOSMaxBillingPerUser",
        "QOSMaxGRESPerUser",
        "QOSMaxLicensePerUser",
        "QOSMaxBBPerUser",
    ),
    "qos_max_mins_per_job": _row(
        "QOSMaxUnknownMinutesPerJob",
        "QOSMaxCpuMinutesPerJobLimit",
        "QOSMaxMemoryMinutesPerJob",
        "QOSMaxEnergyMinutesPerJob",
        "QOSMaxNodeMinutesPerJob",
        "QOSMaxBillingMinutesPerJob",
        "QOSMaxGRESMinutesPerJob",
        "QOSMaxLicenseMinutesPerJob",
        "AssocMaxBBMinutesPerJob",
    ),
    "qos_min_per_job": _row(
        "QOSMinUnknown",
        "QOSMinCpuNotSatisfied",
        "QOSMinMemory",
        "QOSMinEnergy",
        "QOSMinNode",
        "QOSMinBilling",
        "QOSMinGRES",
        "QOSMinLicense",
        "QOSMinBB",
    ),
}


def tres_class(tres: str) -> str:
    """The reason family of a TRES name: cpu, mem, energy, node, billing, gres, license, bb
    or ``unknown`` (fs/disk, vmem, pages)."""
    if tres in _CLASSES:
        return tres
    prefix = tres.split("/", 1)[0]
    return prefix if prefix in ("gres", "license", "bb") and "/" in tres else "unknown"


def tres_reason(check: str, tres: str) -> str:
    """Slurm's reason string for a TRES limit check (a key of :data:`TRES_REASONS`)."""
    table = TRES_REASONS[check]
    return table.get(tres_class(tres), table["unknown"])
