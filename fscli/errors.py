"""Errors a user can cause.

Every layer raises a subclass of :class:`FscliError`; the CLI turns them into one clear
line on stderr and a non-zero exit (``exit_code``), never a traceback.
"""

from __future__ import annotations


class FscliError(Exception):
    """Base class: a problem with the user's input or the store, not a bug."""

    exit_code = 1

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.message


class InvalidValue(FscliError):
    """A value (TRES string, time string, number, name) is malformed or out of range."""


class UsageProblem(FscliError):
    """The command line itself is wrong (unknown key, missing argument): exit 2."""

    exit_code = 2


class NotFound(FscliError):
    """A named object (account, user, QOS, partition, cluster, job) does not exist."""


class Conflict(FscliError):
    """The change contradicts the store (duplicate name, cycle, object still in use)."""


class StoreError(FscliError):
    """The store cannot be opened or used (not an fscli store, newer schema, read-only)."""


def closest(word: str, choices, n: int = 3) -> list[str]:
    """Known names close to ``word`` (case-insensitive), for "did you mean" hints."""
    import difflib

    lowered = {c.lower(): c for c in choices}
    return [
        lowered[m] for m in difflib.get_close_matches(word.lower(), list(lowered), n=n, cutoff=0.6)
    ]


def did_you_mean(word: str, choices) -> str:
    """A suffix like ``" (did you mean 'GrpTRES'?)"`` or an empty string."""
    near = closest(word, choices, n=1)
    return f" (did you mean '{near[0]}'?)" if near else ""
