"""``fscli config set|show|import``: slurm.conf key names, validation, history."""

from __future__ import annotations

import json

SLURM_CONF = """\
# Generated for the test
ClusterName=oracle
SlurmctldHost=localhost(127.0.0.1)
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageTRES=gres/gpu
PriorityType=priority/multifactor
PriorityFlags=NO_FAIR_TREE  # classic
PriorityDecayHalfLife=0-0:04:00
PriorityCalcPeriod=1
PriorityWeightFairshare=10000 PriorityWeightAge=1000
PriorityMaxAge=1-0
PartitionName=low Nodes=ALL Default=YES PriorityJobFactor=10
NodeName=n[1-4] CPUs=16
"""


def test_set_and_show(fscli):
    fscli.ok(
        "config",
        "set",
        "priorityflags=no_fair_tree",
        "PriorityDecayHalfLife=7-0",
        "PriorityWeightFairshare=10000",
    )
    assert fscli.ok("config", "show", "-P").stdout.splitlines() == [
        "Key|Value|Source",
        "PriorityFlags|NO_FAIR_TREE|set",
        "PriorityDecayHalfLife|7-00:00:00|set",
        "PriorityWeightFairshare|10000|set",
    ]
    doc = json.loads(fscli.ok("config", "show", "--all", "--json").stdout)
    values = {row["Key"]: (row["Value"], row["Source"]) for row in doc["config"]}
    assert values["PriorityCalcPeriod"] == (5, "default")  # minutes, a number
    assert values["PriorityFlags"] == ("NO_FAIR_TREE", "set")
    # issue 35: unset, it is enforced as associations,limits,qos: shown so, not blank
    assert values["AccountingStorageEnforce"] == ("associations,limits,qos", "default")
    history = fscli.ok("history", "-P").stdout
    assert "config set|PriorityFlags@default|PriorityFlags=- -> NO_FAIR_TREE" in history


def test_flags_choose_the_default_algorithm(fscli):
    fscli.ok("-Q", "cluster", "add", "c")
    fscli.ok("config", "set", "PriorityFlags=DEPTH_OBLIVIOUS")
    assert '"algorithm": "depth_oblivious"' in fscli.ok("sshare", "--json").stdout


def test_unknown_key_lists_close_matches(fscli):
    result = fscli.fails("config", "set", "PriorityDecayHalfLif=7-0", code=2)
    assert result.stderr == (
        "fscli: error: unknown config key 'PriorityDecayHalfLif'; did you "
        "mean PriorityDecayHalfLife, PriorityFavorSmall, PriorityCalcPeriod?\n"
    )


def test_bad_values_change_nothing(fscli):
    fscli.ok("-Q", "cluster", "add", "c")
    result = fscli.fails("config", "set", "PriorityWeightAge=100", "PriorityCalcPeriod=0", code=1)
    assert "PriorityCalcPeriod" in result.stderr
    result = fscli.fails("config", "set", "PriorityFlags=NO_FAIR_TRE", code=1)
    assert (
        "invalid PriorityFlags value 'NO_FAIR_TRE' (did you mean 'NO_FAIR_TREE'?)" in result.stderr
    )
    fscli.fails("config", "set", "PriorityWeightFairshare=-3", code=1)
    fscli.fails("config", "set", "PriorityFlags", code=2)
    result = fscli.fails("config", "set", "PriorityCalcAnchor=now-1hour", code=1)
    assert result.stderr.strip().endswith(
        "invalid PriorityCalcAnchor 'now-1hour': expected a "
        "date (2026-05-01T12:00:00) or epoch seconds"
    )
    assert fscli.ok("config", "show", "-P", "-n").stdout == ""


def test_calc_anchor_reads_back_its_stored_epoch_seconds(fscli, tmp_path):
    """The anchor is stored and exported as epoch seconds (38: passes 38 s past the
    minute); those must be accepted again, or export -> apply fails (it did)."""
    fscli.ok("-Q", "cluster", "add", "c")
    fscli.ok("-Q", "config", "set", "PriorityCalcAnchor=1970-01-01T00:01:38Z")
    fscli.ok("-Q", "config", "set", "PriorityCalcAnchor=38")
    assert fscli.ok("config", "show", "-P", "-n").stdout == (
        "PriorityCalcAnchor|1970-01-01T00:00:38Z|set\n"
    )
    exported = tmp_path / "tree.yaml"
    fscli.ok("-Q", "export", "-o", str(exported))
    assert "  PriorityCalcAnchor: 38\n" in exported.read_text()
    other = tmp_path / "other.db"
    fscli.ok("-Q", "--db", str(other), "apply", "--prune", str(exported))
    assert fscli.ok("--db", str(other), "config", "show", "-P", "-n").stdout == (
        "PriorityCalcAnchor|1970-01-01T00:00:38Z|set\n"
    )
    fscli.ok("-Q", "config", "set", "PriorityCalcAnchor=0")
    assert fscli.ok("config", "show", "-P", "-n").stdout == (
        "PriorityCalcAnchor|1970-01-01T00:00:00Z|set\n"
    )
    err = fscli.fails("config", "set", "PriorityCalcAnchor=-9999999999", code=1).stderr
    assert err == (
        "fscli: error: invalid PriorityCalcAnchor '-9999999999': out of range (1900 to 9999)\n"
    )


def test_calc_anchor_change_lines_read_as_dates(fscli):
    """The change line and history say the anchor as a date; the file keeps the epoch."""
    fscli.ok("-Q", "cluster", "add", "c")
    assert fscli.ok("config", "set", "PriorityCalcAnchor=1795861945").stderr == (
        "set PriorityCalcAnchor=2026-11-28T10:32:25Z on c\n"
    )
    fscli.ok("-Q", "config", "set", "PriorityCalcAnchor=38")
    history = fscli.ok("history", "-P", "-n").stdout
    assert "PriorityCalcAnchor=2026-11-28T10:32:25Z -> 1970-01-01T00:00:38Z" in history


def test_import_reports_used_and_ignored(fscli, tmp_path):
    conf = tmp_path / "slurm.conf"
    conf.write_text(SLURM_CONF)
    out = fscli.ok("config", "import", str(conf)).stdout.splitlines()
    assert out[0] == (
        "used: ClusterName=oracle, AccountingStorageTRES=gres/gpu, "
        "PriorityType=priority/multifactor, PriorityFlags=NO_FAIR_TREE, "
        "PriorityDecayHalfLife=4, PriorityCalcPeriod=1, "
        "PriorityWeightFairshare=10000, PriorityWeightAge=1000, PriorityMaxAge=1440"
    )
    assert out[1] == (
        "ignored: AccountingStorageType, SlurmctldHost, "
        "PartitionName (1 line(s)), NodeName (1 line(s))"
    )
    shown = fscli.ok("config", "show", "-P", "-n").stdout
    assert (
        "PriorityDecayHalfLife|00:04:00|set" in shown and "PriorityMaxAge|1-00:00:00|set" in shown
    )


def test_import_malformed_line_names_it(fscli, tmp_path):
    fscli.ok("-Q", "cluster", "add", "c")
    conf = tmp_path / "slurm.conf"
    conf.write_text("PriorityWeightAge=10\n\nPriorityFlags\n")
    result = fscli.fails("config", "import", str(conf), code=1)
    assert "line 3" in result.stderr
    conf.write_text("PriorityWeightAge=10\nPriorityDecayHalfLife=soon\n")
    assert "line 2" in fscli.fails("config", "import", str(conf), code=1).stderr
    assert fscli.ok("config", "show", "-P", "-n").stdout == ""
    assert "cannot read" in fscli.fails("config", "import", str(tmp_path / "nope"), code=1).stderr


def test_reset_now_records_the_moment(fscli):
    fscli.ok("-Q", "cluster", "add", "c")
    fscli.ok("-Q", "account", "add", "a")
    fscli.ok("-Q", "user", "add", "u", "account=a")
    fscli.ok("-Q", "config", "set", "PriorityDecayHalfLife=0", at="2026-05-01T00:00:00")
    fscli.ok("-Q", "usage", "add", "user=u", "account=a", "raw=100", at="2026-05-01T00:00:00")
    fscli.ok("-Q", "config", "set", "PriorityUsageResetPeriod=NOW", at="2026-05-02T00:00:00")
    fscli.ok("-Q", "usage", "add", "user=u", "account=a", "raw=7", at="2026-05-03T00:00:00")
    out = fscli.ok("sshare", "-a", "-P", "-n", "-o", "User,RawUsage", at="2026-05-04T00:00:00")
    assert out.stdout.splitlines()[-1] == "u|7"
    assert (
        "PriorityUsageResetAt|2026-05-02T00:00:00Z|set" in fscli.ok("config", "show", "-P").stdout
    )


def test_accounting_tres_names_are_checked_when_set_or_imported(fscli, tmp_path):
    """A name fscli does not track (Slurm's fs/lustre) is refused where it is given, not
    stored to break every later sshare; nothing of a refused import is kept."""
    fscli.ok("cluster", "add", "c1")
    known = (
        "known TRES are cpu, mem, node, energy, billing, fs/disk, vmem, pages, "
        "gres/NAME[:TYPE], license/NAME, bb/NAME"
    )
    err = fscli.fails("config", "set", "AccountingStorageTRES=gres/gpu,fs/lustre", code=1).stderr
    assert err == f"fscli: error: unknown TRES 'fs/lustre': {known}\n"
    conf = tmp_path / "slurm.conf"
    conf.write_text("PriorityWeightAge=100\nAccountingStorageTRES=GRES/gpu,ic/ofed\n")
    err = fscli.fails("config", "import", str(conf), code=1).stderr
    assert err == f"fscli: error: slurm.conf line 2: unknown TRES 'ic/ofed': {known}\n"
    assert fscli.ok("config", "show", "-P", "-n").stdout == ""
    fscli.ok("config", "set", "AccountingStorageTRES=GRES/gpu,license/x")
    header, root = fscli.ok("sshare", "-l", "-P").stdout.splitlines()[:2]
    assert root.endswith(
        "|cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0,gres/gpu=0,license/x=0"
    )


def test_export_writes_settings_as_the_admin_wrote_them(fscli, tmp_path):
    """Issue 35: export wrote PriorityDecayHalfLife: 20160 and PRIORITY/MULTIFACTOR for
    14-0 and priority/multifactor; now slurm.conf's forms, which apply reads back."""
    fscli.ok("-Q", "cluster", "add", "c1")
    result = fscli.ok(
        "config", "set", "PriorityDecayHalfLife=14-0", "PriorityType=priority/multifactor"
    )
    assert result.stderr == (
        "set PriorityDecayHalfLife=14-00:00:00 on c1\nset PriorityType=priority/multifactor on c1\n"
    )
    text = fscli.ok("export").stdout
    assert "  PriorityDecayHalfLife: 14-00:00:00\n  PriorityType: priority/multifactor\n" in text
    (tmp_path / "site.yaml").write_text(text)
    assert fscli.ok("apply", str(tmp_path / "site.yaml")).stderr.startswith("no changes")
