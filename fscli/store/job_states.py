"""The ``job.state`` values, apart from the schema so that code that must not import
SQLAlchemy (shell completion) can name them too."""

from __future__ import annotations

ACTIVE_STATES = ("pending", "running")
"""The ``job.state`` values of jobs that count against limits and can still change."""
