"""fscli: fair-share, job priority and limits for HPC administrators.

``fscli.open_store(path_or_url)`` opens a store for Python programs (:mod:`fscli.api`);
it is imported on first use, so that the command line starts without it.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: ~9 ms of every command
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"
__all__ = ["__version__", "open_store"]


def __getattr__(name: str) -> Any:
    if name == "open_store":
        from fscli.api import open_store

        return open_store
    raise AttributeError(f"module 'fscli' has no attribute {name!r}")
