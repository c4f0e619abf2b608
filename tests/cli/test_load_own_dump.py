"""Loading a cluster's own dump changes nothing: the flat file does not carry the
cluster's nodes, CPUs and TRES, and ``load`` leaves them (issue 31, item 5)."""

from __future__ import annotations

import pytest

from tests.conftest import build_science

SIZE = ("nodes=4", "cpus=256", "tres=mem=1T,gres/gpu=8")
LISTED = "c1           4   256  mem=1T,gres/gpu=8"


def build_sized(fscli) -> None:
    build_science(fscli)
    fscli.ok("cluster", "modify", "c1", "set", *SIZE)
    assert fscli.ok("cluster", "list").stdout.splitlines()[1] == LISTED


@pytest.fixture
def sized(fscli, template):
    """The store :func:`build_sized` leaves, copied from its template."""
    return template(fscli, build_sized)


def test_load_of_the_own_dump_keeps_the_cluster_size(sized, tmp_path):
    path = str(tmp_path / "c1.cfg")
    sized.ok("dump", "c1", f"file={path}")
    result = sized.ok("load", path)
    assert result.stderr == f"no changes: cluster c1 already matches {path}\n"
    assert sized.ok("cluster", "list").stdout.splitlines()[1] == LISTED


def test_sacctmgr_load_of_the_own_dump_keeps_the_cluster_size(sized, tmp_path):
    path = str(tmp_path / "c1.cfg")
    sized.ok("sacctmgr", "dump", "c1", f"file={path}")
    result = sized.ok("sacctmgr", "-i", "load", path)
    # what the real sacctmgr 22.05.8 printed loading its cluster's own dump
    assert result.stdout == "For cluster c1\n Nothing new added.\n"
    assert sized.ok("cluster", "list").stdout.splitlines()[1] == LISTED


def test_a_load_into_a_new_cluster_has_no_size(sized, tmp_path):
    path = str(tmp_path / "c1.cfg")
    sized.ok("dump", "c1", f"file={path}")
    sized.ok("load", path, "cluster=c2")
    assert sized.ok("cluster", "list").stdout.splitlines()[2].split() == ["c2"]
