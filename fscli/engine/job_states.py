"""The states a job may be in and the largest job id: domain facts the schema, the
writers and the command line's word checks (shell completion, parsing) all name, kept
apart from the schema so that naming them imports no SQLAlchemy."""

from __future__ import annotations

ACTIVE_STATES = ("pending", "running")
"""The ``job.state`` values of jobs that count against limits and can still change."""
SUBMIT_STATES = ("pending", "running", "completed")
"""The states a job may be submitted in."""
JOB_STATES = (*SUBMIT_STATES, "cancelled")
"""Every state a stored job may have (cancel makes the last one)."""
MAX_JOB_ID = 2**63 - 1
"""The largest id the job table's 64-bit column holds."""
