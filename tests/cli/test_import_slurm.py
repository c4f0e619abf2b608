"""``fscli import slurm DIR``: the real captures of tests/data/capture/ (``fscli collect``
on the live 22.05.8 cluster of tests/live/test_live_mirror.py under Fair Tree, classic and
depth-oblivious fair share, a 64-CPU job running, four pending) give back, at the capture's last pass, what the cluster's sshare and sprio
printed; a second import changes nothing, a newer one replaces the cluster alone, and a
capture with fewer files imports what it has."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.capture import last_pass, views

CAPTURES = Path(__file__).parent.parent / "data" / "capture"


@pytest.mark.parametrize("name", ["fair_tree", "classic", "depth_oblivious"])
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


def test_a_dry_run_says_what_it_would_have_done_and_writes_nothing(tmp_path):
    from tests.conftest import Fscli

    store = tmp_path / "new.db"
    said = Fscli(str(store)).ok("import", "slurm", str(CAPTURES / "fair_tree"), "--dry-run")
    lines = said.stderr.splitlines()
    assert "would have applied 16 change(s) of the tree to cluster live" in lines
    assert all(line.startswith("would have ") for line in lines[:-1])
    assert not store.exists()


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


def test_folder_and_live_go_alone(fscli, tmp_path):
    done = fscli.fails("import", "slurm", code=2)
    assert "import slurm takes a FOLDER or --live, not both" in done.stderr
    done = fscli.fails("import", "slurm", str(tmp_path / "nowhere"), code=1)
    assert done.stderr == (
        f"fscli: error: {tmp_path}/nowhere: not a folder (expected what 'fscli collect' wrote)\n"
    )


def test_qos_come_with_their_settings_preemption_and_unread_columns_named(fscli, tmp_path):
    folder = tmp_path / "capture"
    shutil.copytree(CAPTURES / "fair_tree", folder)
    qos = folder / "sacctmgr_show_qos.txt"
    head = qos.read_text().splitlines()[0].split("|")
    row = dict.fromkeys(head, "")
    row.update(Name="high", ID="2", Descr="urgent work", Flags="DenyOnLimit")
    row.update(GraceTime="00:05:00", GrpTRES="cpu=128", MaxWall="1-00:00:00")
    row.update(MaxTRESPU="cpu=32", PreemptMode="cluster", Priority="100")
    row.update(UsageFactor="2.000000", Preempt="normal")
    qos.write_text(qos.read_text() + "|".join(row[h] for h in head) + "\n")
    row.update(Name="low", ID="3", Descr="", Flags="", GraceTime="", GrpTRES="", MaxWall="")
    row.update(MaxTRESPU="", PreemptMode="requeue", Priority="1", Preempt="", UsageFactor="1")
    row.update(PreemptExemptTime="00:10:00", MinPrioThres="50", MaxJobsAccruePU="2")
    qos.write_text(qos.read_text() + "|".join(row[h] for h in head) + "\n")
    done = fscli.ok("import", "slurm", str(folder))
    assert "not imported: sacctmgr_show_qos.txt: column MaxJobsAccruePU not imported\n" in (
        done.stderr
    )
    shown = fscli.ok(
        "sacctmgr", "-P", "show", "qos",
        "format=name,preempt,preemptmode,preemptexempttime,minpriothresh",
    ).stdout  # fmt: skip
    assert shown.splitlines() == [
        "Name|Preempt|PreemptMode|PreemptExemptTime|MinPrioThres",
        "normal||cluster||",
        "high|normal|cluster||",
        "low||requeue|00:10:00|50",
    ]
    shown = fscli.ok(
        "sacctmgr", "-P", "show", "qos",
        "format=name,descr,flags,gracetime,grptres,maxwall,maxtrespu,priority,usagefactor",
    ).stdout  # fmt: skip
    assert shown.splitlines()[1:] == [
        "normal|Normal QOS default||00:00:00||||0|1.000000",
        "high|urgent work|DenyOnLimit|00:05:00|cpu=128|1-00:00:00|cpu=32|100|2.000000",
        "low|||00:00:00||||1|1.000000",
    ]


@pytest.mark.parametrize(
    ("column", "value", "why"),
    [
        ("PreemptMode", "sometimes", "unknown preempt mode 'sometimes'"),
        ("MinPrioThres", "-3", "MinPrioThreshold must be a whole number, not '-3'"),
        (
            "PreemptExemptTime",
            "soon",
            "invalid PreemptExemptTime 'soon': expected minutes, MM:SS, HH:MM:SS, D-HH, "
            "D-HH:MM or D-HH:MM:SS",
        ),
    ],
)
def test_a_bad_preemption_cell_skips_the_qos_file_with_the_reason(
    fscli, tmp_path, column, value, why
):
    folder = tmp_path / "capture"
    shutil.copytree(CAPTURES / "fair_tree", folder)
    qos = folder / "sacctmgr_show_qos.txt"
    head = qos.read_text().splitlines()[0].split("|")
    row = dict.fromkeys(head, "") | {"Name": "odd", "ID": "2", column: value}
    qos.write_text(qos.read_text() + "|".join(row[h] for h in head) + "\n")
    done = fscli.ok("import", "slurm", str(folder))
    assert (
        f"not imported: sacctmgr_show_qos.txt: line 3, {column}: {why}: QOS settings "
        "(QOS the tree names are added at their defaults) not imported\n"
    ) in done.stderr


SPRIO_24_11_PASS = "2026-11-28T06:48:25Z"
"""The last pass before the golden 24.11 sprio capture, which saved none: its ``-l -n`` AGE
0.0004282 is 37 s of PriorityMaxAge 1-0 after the jobs' submission at 06:47:48."""
SPRIO_24_11_MOMENT = "2026-11-28T06:49:04Z"
"""The capture's own moment (collect.json), 39 s after that pass."""


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (("-l",), "sprio_l.txt"),
        (("-l", "-n"), "sprio_l_n.txt"),
        (("-w",), "sprio_w.txt"),
        ((), "sprio_default.txt"),
    ],
)
def test_a_slurm_24_11_capture_gives_its_sprio_byte_for_byte(fscli, monkeypatch, argv, name):
    """Files of Slurm 24.11.5 (the golden sprio capture: ReqTRES/AllocTRES and TresPerTask
    in scontrol show job, ExclusiveTopo in show partition, sacct from its notes): sprio's
    text is 24.11's, whose ``-l`` has ACCOUNT and QOSNAME (collect.json's version)."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")  # its times are UTC, as collect.json says
    folder = CAPTURES / "slurm-24.11-sprio"
    done = fscli.ok("import", "slurm", str(folder))
    assert "imported 9 jobs (8 pending, 1 running)\n" in done.stderr
    assert "imported 2 job(s) on oracle (2 completed, 0 running)\n" in done.stderr
    # the import anchored the passes at the capture's moment; the real one is known
    fscli.ok("-Q", "config", "set", f"PriorityCalcAnchor={SPRIO_24_11_PASS}")
    got = fscli.ok("slurm-sprio", *argv, at=SPRIO_24_11_MOMENT).stdout
    assert got == (folder / name).read_text()


def test_slurm_version_picks_sprio_long_text(fscli):
    """``--slurm-version`` overrides the imported version: 22.05's ``-l`` has no ACCOUNT
    or QOSNAME; a version fscli does not print is refused in one line."""
    fscli.ok("-Q", "import", "slurm", str(CAPTURES / "slurm-24.11-sprio"))
    got = fscli.ok("slurm-sprio", "-l", "--slurm-version=22.05.8", at=SPRIO_24_11_PASS).stdout
    assert got.splitlines()[0].split() == [
        "JOBID", "PARTITION", "USER", "PRIORITY", "SITE", "AGE", "ASSOC", "FAIRSHARE",
        "JOBSIZE", "PARTITION", "QOS", "NICE", "TRES",
    ]  # fmt: skip
    assert got.splitlines()[1].split() == "4 low user1 6631 0 0 0 6000 531 100 0 0".split()
    bad = fscli("slurm-sprio", "-l", "--slurm-version", "21.08")
    assert (bad.exit_code, bad.stdout) == (1, "")
    assert bad.stderr == "sprio: error: Slurm version '21.08' is not one of 22.05 to 25.11\n"


def test_a_file_its_reader_cannot_take_is_skipped_with_the_reason(fscli, tmp_path):
    folder = tmp_path / "capture"
    shutil.copytree(CAPTURES / "fair_tree", folder)
    sacct = folder / "sacct_a_X_P.txt"
    lines = [line.split("|") for line in sacct.read_text().splitlines()]
    cut = lines[0].index("AllocTRES")
    sacct.write_text("".join("|".join(c[: cut - 1] + c[cut + 1 :]) + "\n" for c in lines))
    done = fscli.ok("import", "slurm", str(folder))
    assert (
        "not imported: sacct_a_X_P.txt: sacct header lacks column(s): AllocTRES or AllocCPUS: "
        "usage of finished jobs not imported\n"
    ) in done.stderr
    assert "imported 5 jobs (4 pending, 1 running)\n" in done.stderr


USED_TRES = ("cpu", "mem", "node", "billing")
"""The TRES fscli counts of those assoc_mgr lists (energy, fs/disk, vmem, pages: always 0)."""


def _assoc_mgr_used(folder: Path) -> dict[tuple[str, ...], list[str]]:
    """(account, user or '') of every association but root's, and ('qos', name) of every
    QOS -> what ``scontrol show assoc_mgr`` printed in brackets: GrpWall's minutes, then
    GrpTRESMins' and GrpTRESRunMins' of :data:`USED_TRES`."""
    import re

    text = (folder / "scontrol_show_assoc_mgr.txt").read_text()
    found = {}
    for record in re.split(r"\n(?=ClusterName=|QOS=)", text):
        head = re.match(r"ClusterName=\S+ Account=(\S+) UserName=(\S*?)(?:\(\d+\))? ", record)
        qos = re.match(r"QOS=(\S+)\(\d+\)", record)
        if not (head or qos) or (head and head[1] == "root"):
            continue
        used = [re.search(r"GrpWall=[^(\s]*\(([\d.]+)\)", record)[1]]
        for name in ("GrpTRESMins", "GrpTRESRunMins"):
            cells = dict(
                re.findall(r"([\w/]+)=[^(,\s]*\((\d+)\)", re.search(name + r"=(\S+)", record)[1])
            )
            used += [cells[t] for t in USED_TRES]
        found[(head[1], head[2]) if head else ("qos", qos[1])] = used
    return found


@pytest.mark.parametrize(
    ("name", "user", "account", "running"),
    [
        ("fair_tree", "carl", "shy", True),
        ("classic", "carl", "shy", True),
        ("depth_oblivious", "carl", "shy", True),
        ("slurm-24.11-classic_doc/classic", "user1", "b", False),
        ("slurm-24.11-classic_doc/fairtree", "user1", "b", False),
        ("slurm-24.11-classic_doc/depth_oblivious", "user1", "b", False),
    ],
)
def test_used_counters_are_what_assoc_mgr_printed(fscli, name, user, account, running):
    """The imported jobs give the GrpWall, GrpTRESMins and GrpTRESRunMins slurmctld
    counted, on every user and account association and the QOS (limits set on each, one
    at a time, show them in limits show --effective's Used column): the live 22.05.8
    captures with a job running, and the golden 24.11.5 ones (at their moment: no pass
    saved, no decay)."""
    folder = CAPTURES / name
    fscli.ok("-Q", "import", "slurm", str(folder))
    meta = json.loads((folder / "collect.json").read_text())
    at = last_pass(folder) if meta.get("last_pass") else str(meta["moment"])
    want = _assoc_mgr_used(folder)
    assert want[(account, user)][0] not in ("0.00", "")
    assert (want[(account, user)][5:] != ["0"] * 4) == running  # run minutes held
    tres = ",".join(f"{t}=999999999" for t in USED_TRES)
    limits = ("grpwall=100000", f"grptresmins={tres}", f"grptresrunmins={tres}")
    got = {}
    for key in want:
        owner, held = key
        if owner == "qos":
            holder, who = ("qos=" + held,), ("user=" + user, "account=" + account, "qos=" + held)
        elif held:
            holder = who = ("user=" + held, "account=" + owner)
        else:
            holder = who = ("account=" + owner,)
        fscli.ok("-Q", "limits", "set", *holder, *limits, at=at)
        shown = fscli.ok("limits", "show", "--effective", *who, "-P", at=at).stdout
        rows = {tuple(r.split("|")[:2]): r.split("|")[-1] for r in shown.splitlines()[1:]}
        got[key] = [rows[("GrpWall", "")]] + [
            rows[(limit, t)] for limit in ("GrpTRESMins", "GrpTRESRunMins") for t in USED_TRES
        ]
        fscli.ok(
            "-Q", "limits", "unset", *holder, "GrpWall", "GrpTRESMins", "GrpTRESRunMins", at=at
        )
    assert got == want


def test_without_partitions_the_jobs_in_them_are_left_out_and_said(fscli, tmp_path):
    folder = tmp_path / "capture"
    shutil.copytree(CAPTURES / "fair_tree", folder)
    (folder / "scontrol_show_partition.txt").unlink()
    done = fscli.ok("import", "slurm", str(folder))
    assert "not imported: scontrol_show_partition.txt missing or empty: partitions " in done.stderr
    assert "left out 5 job(s) in partitions the capture does not describe\n" in done.stderr
    assert "imported 1 job(s) on live (1 completed, 0 running)\n" in done.stderr


@pytest.mark.parametrize("mode", ["classic", "fairtree", "depth_oblivious"])
def test_slurm_24_11_captures_give_its_sshare_byte_for_byte(fscli, mode):
    """The golden 24.11.5 classic_doc captures (dump, scontrol show config, the sacct table
    of their notes, no decay) as collect folders: sshare -a -l -P, -a -P and the
    fixed-width -a -l and -a are 24.11's, in
    the three modes, at the capture's moment (collect.json's, no pass saved)."""
    folder = CAPTURES / "slurm-24.11-classic_doc" / mode
    done = fscli.ok("import", "slurm", str(folder))
    assert "imported 3 job(s) on oracle (3 completed, 0 running)\n" in done.stderr
    at = "2026-11-28T" + {"classic": "06:38:57", "fairtree": "06:41:21"}.get(mode, "06:44:53")
    for name, argv in (
        ("sshare_a_l_P.txt", ("-a", "-l", "-P")),
        ("sshare_a_P.txt", ("-a", "-P")),
        ("sshare_a_l.txt", ("-a", "-l")),
        ("sshare_a.txt", ("-a",)),
    ):
        got = fscli.ok("slurm-sshare", *argv, at=at + "Z").stdout
        assert got == (folder / name).read_text(), name


def test_without_the_state_file_passes_are_counted_from_boot_time(fscli, tmp_path):
    """A collect that could not read priority_last_decay_ran: slurmctld's passes are
    counted from scontrol show config's BOOT_TIME, whole PriorityCalcPeriods up to the
    collect's moment, and land on the pass the state file held."""
    folder = tmp_path / "capture"
    shutil.copytree(CAPTURES / "fair_tree", folder)
    meta = json.loads((folder / "collect.json").read_text())
    want = last_pass(folder)
    meta["last_pass"] = meta["last_reset"] = None
    (folder / "collect.json").write_text(json.dumps(meta))
    done = fscli.ok("import", "slurm", str(folder))
    assert (
        "not imported: collect.json has no last priority pass: passes counted from "
        "slurmctld's BOOT_TIME\n"
    ) in done.stderr
    assert f"last priority pass: {want} (ask with --at this moment)\n" in done.stderr
    got = fscli.ok("slurm-sprio", "-l", "-n", at=want).stdout
    assert got == (CAPTURES / "fair_tree" / "sprio_l_n.txt").read_text()
