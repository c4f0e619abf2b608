"""Opening the store: which file systems get SQLite's WAL journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from fscli.store import db

MOUNTS = "/dev/sda1 / ext4 rw 0 0\nserver:/export /home nfs4 rw 0 0\n"


@pytest.mark.parametrize("store, network", [
    ("/home/alice/fscli.db", True),
    ("/home/fscli.db", True),
    ("/homes/alice/fscli.db", False),  # a longer name is not inside /home
    ("/tmp/fscli.db", False),
])
def test_network_file_system_is_found_by_mount_point(monkeypatch, store, network):
    real = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **kw:
                        MOUNTS if str(self) == "/proc/mounts" else real(self, *a, **kw))
    monkeypatch.setattr(Path, "resolve", lambda self, strict=False: self)  # no host symlinks
    assert db._on_network_fs(Path(store)) is network
