"""What a ``fscli collect`` folder holds of the live tools' own text, and the same views
asked of fscli after ``import slurm`` of that folder, at the collect's own moment, which
may fall after its last priority pass: the controller's factors, as fscli's, are those of
that pass (shared by the live test and the tests of the captures kept in
tests/data/capture/)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from tests.conftest import Fscli

VIEWS = [  # (file collect wrote, an fscli command printing the same text): its own, the shims'
    (name, (prefix + tool, *argv))
    for name, tool, argv in (
        ("sshare_a_l_P.txt", "sshare", ("-a", "-l", "-P")),
        ("sshare_a_P.txt", "sshare", ("-a", "-P")),
        ("sprio_l.txt", "sprio", ("-l",)),
        ("sprio_l_n.txt", "sprio", ("-l", "-n")),
        ("sprio_w.txt", "sprio", ("-w",)),
    )
    for prefix in ("", "slurm-")
]


def moment(folder: Path) -> str:
    """The capture's moment, as ``--at`` takes it."""
    meta = json.loads((folder / "collect.json").read_text())
    return datetime.fromtimestamp(meta["moment"], timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def views(fscli: Fscli, folder: Path) -> dict[str, tuple[str, str]]:
    """``fscli COMMAND`` -> (what it prints after importing ``folder``, what the cluster
    printed)."""
    fscli.ok("-Q", "import", "slurm", str(folder))
    at = moment(folder)
    cluster = json.loads((folder / "collect.json").read_text())["cluster"]
    return {
        " ".join(argv): (
            fscli.ok("--cluster", cluster, *argv, at=at).stdout,
            (folder / name).read_text(),
        )
        for name, argv in VIEWS
    }


def last_pass(folder: Path) -> str:
    """The capture's last priority pass, as ``--at`` takes it."""
    meta = json.loads((folder / "collect.json").read_text())
    return datetime.fromtimestamp(meta["last_pass"], timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
