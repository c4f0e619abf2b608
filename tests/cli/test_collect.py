"""``fscli collect DIR`` without Slurm: PATH holds fake sacctmgr/scontrol/sshare/sacct
scripts that print the command line they were given, so each file must hold its own
command's output; sprio is missing, and that is recorded, not fatal."""

from __future__ import annotations

import json
import stat

import pytest

FAKE = """#!/bin/sh
# a fake {tool}: its command line on stdout; the config and the dump as Slurm's
[ "{tool} $*" = "$FAIL_ON" ] && {{ echo "{tool}: error: failing" >&2; exit 1; }}
case "$*" in
  "show config")
    echo "Configuration data as of 2026-11-28T10:00:00+0000"
    echo "ClusterName             = fake"
    echo "PriorityDecayHalfLife   = 00:00:00"
    echo "StateSaveLocation       = {state}";;
  --version) echo "slurm-wlm 22.05.8";;
  dump*) echo "Cluster - 'fake'" > "${{3#file=}}";;
  *) echo "{tool} $*";;
esac
"""


@pytest.fixture
def fake_slurm(tmp_path, monkeypatch):
    bin_dir, state = tmp_path / "bin", tmp_path / "state"
    bin_dir.mkdir()
    state.mkdir()
    for tool in ("sacctmgr", "scontrol", "sshare", "sacct"):
        path = bin_dir / tool
        path.write_text(FAKE.format(tool=tool, state=state))
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    # slurmctld's priority_last_decay_ran: last pass, last reset (packed 64-bit times)
    passes = (1795861313).to_bytes(8, "big") + (1795861073).to_bytes(8, "big")
    (state / "priority_last_decay_ran").write_bytes(passes)
    monkeypatch.setenv("PATH", str(bin_dir))  # no real Slurm tool is found
    return tmp_path


def test_each_command_into_a_file_named_after_it(fscli, fake_slurm):
    folder = fake_slurm / "capture"
    done = fscli.ok("collect", str(folder), "--start", "2026-11-01T00:00:00")
    assert (folder / "sshare_a_l_P.txt").read_text() == "sshare -a -l -P\n"
    assert (folder / "scontrol_show_job.txt").read_text() == "scontrol show job\n"
    assert (folder / "scontrol_show_assoc_mgr.txt").read_text() == (
        "scontrol show assoc_mgr flags=assoc,qos\n"
    )
    sacct = (folder / "sacct_a_X_P.txt").read_text()
    assert sacct.startswith("sacct -a -X -P -S 2026-11-01T00:00:00 -E now --format=JobID,")
    assert "AllocTRES" in sacct
    assert (folder / "sacctmgr_dump.cfg").read_text() == "Cluster - 'fake'\n"
    assert (
        (folder / "sacctmgr_show_assoc.txt")
        .read_text()
        .startswith(
            "sacctmgr -P show assoc format=Cluster,Account,User,Partition,ParentID,ParentName,ID,LFT,"
        )
    )
    meta = json.loads((folder / "collect.json").read_text())
    assert (meta["cluster"], meta["version"], meta["time_zone"]) == ("fake", "22.05.8", "UTC")
    assert (meta["last_pass"], meta["last_reset"]) == (1795861313, 1795861073)
    assert meta["commands"]["sprio_l.txt"] == {
        "argv": ["sprio", "-l"],
        "status": None,
        "error": "sprio: not found",
    }
    assert meta["commands"]["sshare_a_P.txt"]["status"] == 0
    assert done.stderr.splitlines() == [
        "not collected: sprio -l: sprio not found",
        "not collected: sprio -l -n: sprio not found",
        "not collected: sprio -w: sprio not found",
        f"collected cluster fake (Slurm 22.05.8) into {folder}",
    ]


def test_a_failing_command_is_recorded_and_the_rest_collected(fscli, fake_slurm, monkeypatch):
    monkeypatch.setenv("FAIL_ON", "sshare -a -P")
    folder = fake_slurm / "capture"
    done = fscli.ok("collect", str(folder))
    assert "not collected: sshare -a -P: exit 1 sshare: error: failing\n" in done.stderr
    meta = json.loads((folder / "collect.json").read_text())
    assert meta["commands"]["sshare_a_P.txt"] == {
        "argv": ["sshare", "-a", "-P"],
        "status": 1,
        "error": "sshare: error: failing",
    }
    assert (folder / "sshare_a_P.txt").read_text() == ""
    assert (folder / "sshare_a_l_P.txt").read_text() == "sshare -a -l -P\n"


def test_version_23_11_asks_for_lineage_not_lft():
    from fscli.api.collect import commands

    old = dict(commands("22.05.8", "now"))["sacctmgr_show_assoc.txt"][-1]
    new = dict(commands("23.11.4", "now"))["sacctmgr_show_assoc.txt"][-1]
    assert ",LFT,RGT," in old and "Lineage" not in old
    assert ",Lineage," in new and "LFT" not in new


def test_a_pass_during_the_collect_makes_it_collect_again(fscli, fake_slurm):
    """The first sacct run stands for a priority pass that ran meanwhile (it rewrites
    priority_last_decay_ran): every command runs again, so the files show one pass."""
    state, bin_dir = fake_slurm / "state", fake_slurm / "bin"
    (bin_dir / "sacct").write_text(
        "#!/bin/sh\n"
        f'if [ ! -e "{state}/passed" ]; then\n'
        f'  : > "{state}/passed"\n'
        f'  printf "\\000\\000\\000\\000\\153\\012\\255\\015\\000\\000\\000\\000\\153\\012\\252\\121"'
        f' > "{state}/priority_last_decay_ran"\n'
        "fi\n"
        'echo "sacct run"\n'
    )
    (bin_dir / "sshare").write_text(
        f'#!/bin/sh\nif [ -e "{state}/passed" ]; then echo after; else echo before; fi\n'
    )
    folder = fake_slurm / "capture"
    fscli.ok("-Q", "collect", str(folder))
    assert (folder / "sshare_a_l_P.txt").read_text() == "after\n"
    meta = json.loads((folder / "collect.json").read_text())
    assert (meta["last_pass"], meta["last_reset"]) == (0x6B0AAD0D, 0x6B0AAA51)


def test_a_folder_that_cannot_be_made_is_one_line(fscli, fake_slurm):
    blocker = fake_slurm / "a-file"
    blocker.write_text("")
    result = fscli.fails("collect", str(blocker / "capture"), code=1)
    assert result.stderr == (
        f"fscli: error: {blocker / 'capture'}: cannot make the folder: Not a directory\n"
    )
