"""What ``limits set``/``show`` name: an association (the cluster's root, an account, a
user in an account, optionally in a partition), QOS, or a partition."""

from __future__ import annotations

from dataclasses import dataclass, field

from fscli.engine.model import Assoc

ASSOC = "assoc"
QOS = "qos"
PARTITION = "partition"


@dataclass
class Target:
    """What a ``limits set``/``show`` names: an association, a QOS or a partition."""

    kind: str  # ASSOC, QOS or PARTITION
    cluster: str | None = None
    account: str | None = None  # "root" for the cluster's root association
    user: str | None = None
    partition: str | None = None
    qos: list[str] = field(default_factory=list)

    def describe(self) -> str:
        if self.kind == QOS:
            return f"QOS {','.join(self.qos)}"
        if self.kind == PARTITION:
            return f"partition {self.partition}"
        if self.user is None:
            return "the root association" if self.account == "root" else f"account {self.account}"
        return "a user association"

    def missing(self) -> str:
        """The error when an association target names none: ``no association for account
        chem``, ``... for user bob account chem partition gpu``."""
        if self.user is None:
            return f"no association for {self.describe()}"
        return f"no association for user {self.user}{self._where('account ')}"

    def not_on(self, cluster: str) -> str:
        """The error of a write (``limits set``) whose association target names none on
        ``cluster``, in the write's words, which a what-if of it repeats."""
        if self.user is None:
            return f"account '{self.account}' does not exist on cluster {cluster}"
        return f"no association of user(s) {self.user}{self._where('in account ')} on cluster {cluster}"

    def _where(self, account: str) -> str:
        """`` account chem partition gpu``: the parts a user target names."""
        parts = ((account, self.account), ("partition ", self.partition))
        return "".join(f" {prefix}{value}" for prefix, value in parts if value)

    def matches(self, assoc: Assoc) -> bool:
        if self.user is None:
            return assoc.user is None and assoc.account == self.account
        return (
            assoc.user == self.user
            and (self.account is None or assoc.account == self.account)
            and (self.partition is None or assoc.partition == self.partition)
        )
