"""``fscli import slurm DIR``: the real captures of tests/data/capture/ (``fscli collect``
on the live 22.05.8 cluster of tests/live/test_live_mirror.py, a 64-CPU job running, four
pending) give back, at the capture's last pass, what the cluster's sshare and sprio
printed; a second import changes nothing, a newer one replaces the cluster alone, and a
capture with fewer files imports what it has."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.capture import last_pass, views

CAPTURES = Path(__file__).parent.parent / "data" / "capture"


@pytest.mark.parametrize("name", ["fair_tree", "classic"])
def test_the_views_print_what_the_cluster_printed(fscli, name):
    for view, (got, want) in views(fscli, CAPTURES / name).items():
        assert got == want, view


def test_a_second_import_of_the_same_folder_changes_nothing(fscli):
    folder = CAPTURES / "fair_tree"
    fscli.ok("import", "slurm", str(folder))
    before = fscli.ok("history").stdout
    again = fscli.ok("import", "slurm", str(folder))
    assert again.stderr == f"cluster live already holds {folder}: unchanged\n" + (
        f"last priority pass: {last_pass(folder)} (ask with --at this moment)\n"
    )
    assert fscli.ok("history").stdout == before


def test_a_newer_capture_replaces_its_cluster_and_no_other(fscli):
    fscli.ok("-Q", "cluster", "add", "other", "nodes=2", "cpus=8")
    fscli.ok("-Q", "account", "add", "chem", "cluster=other", "fairshare=3")
    fscli.ok("-Q", "user", "add", "alice", "account=chem", "cluster=other")
    other = fscli.ok("--cluster", "other", "assoc", "list", "-P").stdout
    fscli.ok("-Q", "import", "slurm", str(CAPTURES / "fair_tree"))
    for view, (got, want) in views(fscli, CAPTURES / "classic").items():
        assert got == want, view  # nothing of the Fair Tree snapshot is left
    assert fscli.ok("--cluster", "other", "assoc", "list", "-P").stdout == other
    settings = fscli.ok("--cluster", "live", "config", "show", "-P").stdout.splitlines()
    assert "PriorityFlags|NO_FAIR_TREE|set" in settings


def test_fewer_files_import_what_they_have_and_say_what_is_missing(fscli, tmp_path):
    folder = tmp_path / "capture"
    shutil.copytree(CAPTURES / "fair_tree", folder)
    (folder / "scontrol_show_job.txt").unlink()
    (folder / "sacct_a_X_P.txt").write_text("")
    done = fscli.ok("import", "slurm", str(folder))
    assert "not imported: scontrol_show_job.txt missing or empty: pending and running jobs " in (
        done.stderr
    )
    assert "not imported: sacct_a_X_P.txt missing or empty: usage of finished jobs" in done.stderr
    assert fscli.ok("job", "list", "-P", "-n").stdout == ""
    got = fscli.ok("slurm-sshare", "-a", "-P", at=last_pass(folder)).stdout
    assert (
        got.splitlines()[0] == "Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare"
    )
    assert [line.split("|")[4] for line in got.splitlines()[1:]] == ["0"] * 10


def test_a_folder_without_a_dump_is_refused_whole(fscli, tmp_path):
    folder = tmp_path / "capture"
    shutil.copytree(CAPTURES / "fair_tree", folder)
    (folder / "sacctmgr_dump.cfg").unlink()
    done = fscli.fails("import", "slurm", str(folder), code=1)
    assert done.stderr == (
        f"fscli: error: {folder}/sacctmgr_dump.cfg: missing or empty: the tree cannot be built\n"
    )
    assert not Path(fscli.db).exists()  # refused before a store was made


def test_folder_and_live_go_alone(fscli):
    done = fscli.fails("import", "slurm", code=2)
    assert "import slurm takes a FOLDER or --live, not both" in done.stderr
