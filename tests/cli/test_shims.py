"""``fscli shims DIR`` and the Slurm front ends its programs run (``slurm-sshare``,
``slurm-sprio``): Slurm 22.05's own command lines and text, byte for byte.

The expected answers are real ones: the captures of ``tests/data/slurm-22.05-shims``
(``README.md`` there: a live cluster, ``tests/live/capture_shims.py``) and the golden
captures of ``tests/data/golden/slurm-22.05`` (classic_doc, sprio).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from tests.cli.test_sprio_capture import CAPTURE as SPRIO_CAPTURE
from tests.cli.test_sprio_capture import (
    FULL_FORMAT,
    oracle,  # noqa: F401 (a fixture)
)
from tests.cli.test_sprio_capture import NOW as SPRIO_NOW
from tests.cli.test_sshare import _capture_tree, build
from tests.conftest import DATA, Fscli
from tests.live.test_live_shares import _usage_file

SHIMS = DATA / "slurm-22.05-shims"
GOLDEN = DATA / "golden" / "slurm-22.05"
AT = "2026-05-01T12:00:00"
CASES = json.loads((SHIMS / "cases.json").read_text())
KNOWN_DIFFERENCES = {
    # root's NormShares under Fair Tree: Slurm holds 2**-32 (0.000000 in %f), fscli 0
    ("sshare", "-a", "-o", "Account", "-o", "User%3,NormShares%4"),
}


@pytest.fixture(scope="module")
def live_copy(tmp_path_factory):
    """A store rebuilt from the live capture: the dump, slurm.conf's priority lines, the
    partitions of tests/live/slurm, the users' usage as the controller held it (two
    decimals: root's RawUsage is its users' sum, not the sum of their printed RawUsage)."""
    folder = tmp_path_factory.mktemp("shims")
    fscli = Fscli(str(folder / "store.db"))
    fscli.ok("-Q", "cluster", "add", "live", "nodes=1", "cpus=64")
    fscli.ok("-Q", "load", str(SHIMS / "sacctmgr_dump.cfg"))
    fscli.ok("-Q", "config", "import", str(SHIMS / "slurm_conf_priority.txt"))
    for name, factor in (("batch", 1), ("low", 1), ("high", 10)):
        fscli.ok(
            "-Q", "partition", "add", name, "nodes=1", "cpus=64", f"priorityjobfactor={factor}"
        )
    usage = folder / "usage.txt"
    usage.write_text(_usage_file((SHIMS / "scontrol_show_assoc_mgr.txt").read_text()))
    fscli.ok("-Q", "usage", "import", str(usage), "--format", "sshare", at=AT)
    return fscli


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if tuple(c["argv"]) not in KNOWN_DIFFERENCES],
    ids=[" ".join(c["argv"]) for c in CASES if tuple(c["argv"]) not in KNOWN_DIFFERENCES],
)
def test_answers_as_the_real_tool(live_copy, case):
    tool, *args = case["argv"]
    result = live_copy(f"slurm-{tool}", *args, at=AT)
    assert (result.stdout, result.stderr, result.exit_code) == (
        case["stdout"],
        case["stderr"],
        case["rc"],
    )


@pytest.mark.parametrize("folder,flags", [("classic", "NO_FAIR_TREE"), ("fairtree", None)])
@pytest.mark.parametrize(
    "name,args",
    [
        ("sshare_a.txt", ["-a"]),
        ("sshare_a_l.txt", ["-a", "-l"]),
        ("sshare_a_P.txt", ["-a", "-P"]),
        ("sshare_a_l_P.txt", ["-a", "-l", "-P"]),
    ],
)
def test_sshare_text_equals_the_golden_capture(fscli, folder, flags, name, args):
    capture = GOLDEN / "classic_doc" / folder
    build(fscli, _capture_tree(capture), flags, capture / "sshare_a_l_P.txt")
    result = fscli.ok("slurm-sshare", *args, at=AT)
    assert result.stdout == (capture / name).read_text()


@pytest.mark.parametrize(
    "name,options",
    [
        ("sprio_l.txt", ["-l"]),
        ("sprio_l_n.txt", ["-ln"]),
        ("sprio_w.txt", ["-w"]),
        ("sprio_w_n.txt", ["--weights", "--norm"]),
        ("sprio_default.txt", []),
        ("sprio_o_full.txt", ["-o", FULL_FORMAT]),
        ("sprio_o_full_n.txt", ["-n", f"--format={FULL_FORMAT}"]),
    ],
)
def test_sprio_text_equals_the_golden_capture(oracle, name, options):  # noqa: F811
    result = oracle.ok("slurm-sprio", *options, at=SPRIO_NOW)
    assert result.stdout == (SPRIO_CAPTURE / name).read_text()


def test_sprio_job_list_after_j_and_sprio_format(oracle, monkeypatch):  # noqa: F811
    out = oracle.ok("slurm-sprio", "-h", "-o", "%i %Y", "-j", "8,9", at=SPRIO_NOW).stdout
    assert out.splitlines() == ["8 5725", "9 5016"]
    out = oracle.ok("slurm-sprio", "-h", "-o", "%i", "-j", "4,7", at=SPRIO_NOW).stdout
    assert out.split() == ["4", "7"]
    out = oracle.ok("slurm-sprio", "-hj", "4", "-o%i", at=SPRIO_NOW).stdout
    assert out.split() == ["4"]
    monkeypatch.setenv("SPRIO_FORMAT", "%i|%r")
    assert oracle.ok("slurm-sprio", "-h", "-j5", at=SPRIO_NOW).stdout == "5|high\n"
    assert oracle.ok("slurm-sprio", "-h", "-j5", "-o", "%i", at=SPRIO_NOW).stdout == "5\n"


def test_sshare_without_a_shows_the_callers_rows(live_copy, monkeypatch):
    """No -a, no -u: the rows of the user running sshare (here: "bob", by its uid)."""
    import pwd

    bob = pwd.struct_passwd(("bob", "x", 1002, 100, "", "/", "/bin/sh"))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: bob)
    out = live_copy("slurm-sshare", "-n", "-P", "-o", "Account,User", at=AT).stdout
    assert out == " root|\n chem|\n phys|\n  phys|bob\n shx|\n  shx|bob\n shy|\n  shz|\n".replace(
        " root|\n", "root|\n", 1
    )


def test_version_names_fscli(live_copy):
    assert live_copy("slurm-sshare", "-V").stdout == "slurm 22.05.8 (fscli sshare)\n"
    assert live_copy("slurm-sprio", "--version").stdout == "slurm 22.05.8 (fscli sprio)\n"


def test_shims_refuse_to_replace_other_programs(fscli, tmp_path):
    (tmp_path / "sprio").write_text("#!/bin/sh\necho real\n")
    result = fscli.fails("shims", str(tmp_path), code=1)
    assert result.stderr == (
        f"fscli: error: {tmp_path}/sprio already exists and is not an fscli shim: "
        "use --force to replace\n"
    )
    assert not (tmp_path / "sshare").exists()
    assert fscli.ok("shims", str(tmp_path), "--force").stdout.splitlines() == [
        str(tmp_path / name) for name in ("sacctmgr", "sshare", "sprio")
    ]
    assert fscli.ok("shims", str(tmp_path)).stdout  # its own shims are replaced quietly


def _env(path, **extra) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FSCLI_")}
    env["PATH"] = f"{path}:{env.get('PATH', '')}"
    env.update(extra)
    return env


@pytest.mark.slow
def test_shims_run_fscli_as_the_slurm_tools(live_copy, tmp_path):
    """The programs, run as a site script runs them: found on PATH, through /bin/sh."""
    bin_dir = tmp_path / "bin"
    live_copy.ok("--cluster", "live", "shims", str(bin_dir))
    for name in ("sacctmgr", "sshare", "sprio"):
        mode = (bin_dir / name).stat().st_mode
        assert mode & stat.S_IXUSR and mode & stat.S_IXOTH
    script = bin_dir / "sshare"
    assert script.read_text().splitlines()[0] == "#!/bin/sh"
    assert sys.executable in script.read_text()
    env = _env(bin_dir, FSCLI_AT=AT)
    case = next(
        c for c in CASES if c["argv"] == ["sshare", "-A", "shx,SHZ", "-a", "-o", c["argv"][-1]]
    )

    def run(*argv: str, **kw):
        return subprocess.run(argv, capture_output=True, text=True, env=kw.get("env", env), cwd="/")

    done = run(*case["argv"])
    assert (done.stdout, done.stderr, done.returncode) == (case["stdout"], case["stderr"], 0)
    done = run("sprio", "-z")
    assert (done.stderr, done.returncode) == (
        "sprio: invalid option -- 'z'\nTry \"sprio --help\" for more information\n",
        1,
    )
    done = run("sacctmgr", "-n", "-P", "show", "account", "shz", "format=account,descr")
    assert (done.stdout, done.returncode) == ("shz|shz\n", 0)
    # FSCLI_DB set when a shim runs takes precedence over the store written in
    other = tmp_path / "other.db"
    Fscli(str(other)).ok("-Q", "cluster", "add", "elsewhere")
    done = run(
        "sacctmgr",
        "-n",
        "-P",
        "show",
        "cluster",
        "format=cluster",
        env=_env(bin_dir, FSCLI_DB=str(other)),
    )
    assert (done.stdout, done.returncode) == ("elsewhere\n", 0)
