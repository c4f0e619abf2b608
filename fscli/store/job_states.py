"""The ``job.state`` values and the largest job id, apart from the schema so that code
that must not import SQLAlchemy (shell completion, word parsing) can name them too."""

from __future__ import annotations

ACTIVE_STATES = ("pending", "running")
"""The ``job.state`` values of jobs that count against limits and can still change."""
SUBMIT_STATES = ("pending", "running", "completed")
"""The states a job may be submitted in."""
JOB_STATES = (*SUBMIT_STATES, "cancelled")
"""Every state a stored job may have (cancel makes the last one)."""
MAX_JOB_ID = 2**63 - 1
"""The largest id the job table's 64-bit column holds."""
