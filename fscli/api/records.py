"""What the API's lists return: a cluster's associations, the accounts, the users and
the recorded changes, as plain dataclasses (the views' answers are
:mod:`fscli.api.results`). The CLI renders these; ``--json`` is their serialisation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass
class Associations:
    """One cluster's associations (engine ``Assoc``), with what their views need: the
    accounts' descriptions and organizations and every QOS name (QOS deltas apply to all)."""

    cluster: str
    assocs: Sequence
    accounts: dict[str, tuple[str, str]]
    qos_names: list[str]


@dataclass(frozen=True)
class Account:
    """An account as ``account list`` shows it (the account table, not its associations)."""

    name: str
    description: str
    organization: str


@dataclass(frozen=True)
class User:
    """A user as ``user list`` shows it: default account and admin level."""

    name: str
    default_account: str
    admin_level: str


@dataclass(frozen=True)
class Change:
    """One recorded change (``fscli history``); ``at`` in epoch seconds. ``cluster``: the
    cluster it was made on (None: a global object such as a QOS or a user); ``changes``:
    the settings it changed as (key, old, new), None unset, in the units the commands take
    (None: a row written before fscli kept old values, or one that changes no setting)."""

    at: int
    actor: str
    action: str
    target: str
    detail: str
    cluster: str | None = None
    changes: tuple[tuple[str, str | None, str | None], ...] | None = None

    def names(self) -> set[str]:
        """The names the target is made of (``alice/chem/batch@c1``: alice, chem, batch),
        in lower case: what ``history --object`` matches."""
        name = self.target.rpartition("@")[0] if "@" in self.target else self.target
        return {part.lower() for part in name.split("/") if part}

    def is_action(self, words: str) -> bool:
        """Whether every word of ``words`` is a word of the action (``modify`` matches
        ``modify account`` and ``modify qos``; ``modify qos`` only the latter)."""
        return set(words.lower().split()) <= set(self.action.lower().split())
