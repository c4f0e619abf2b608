"""Capture real sshare/sprio answers for ``tests/data/slurm-22.05-shims`` (run by hand).

With a live cluster started by ``tests/live/slurm up DIR --jobs`` and the scenario of
``tests/live/test_live_shares.py`` run on it (its tree and usage left in place), this
writes the cluster's dump, slurm.conf's priority lines, ``sshare -a -l -P``, the
controller's usage with its two decimals (``scontrol show assoc_mgr``: what the non-live
tests import) and every case below (argv, stdout, stderr, exit code) to
``cases.json``. The cases avoid the columns made from the usage's decimals, which the
printed RawUsage does not carry.

    python -m tests.live.capture_shims tests/data/slurm-22.05-shims
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BASIC = "Account,User,RawShares,NormShares,RawUsage,FairShare"
CASES = [
    ["sshare", "-a", "-o", BASIC],
    ["sshare", "-a", "-n", "-P", "-o", "Account,User,RawShares,NormShares,RawUsage"],
    ["sshare", "-a", "-p", "-o", "Account,User,RawShares"],
    ["sshare", "-A", "shx,SHZ", "-a", "-o", BASIC],
    ["sshare", "-A", "shz", "-a", "-o", "Account,User"],
    ["sshare", "-U", "-a", "-o", "Account,User,RawShares"],
    ["sshare", "-u", "bob,dana", "-o", "Account,User,RawShares"],
    ["sshare", "-u", "bob", "-a", "-o", "Account,User"],
    ["sshare", "-a", "-u", "bob", "-o", "Account,User"],
    ["sshare", "-a", "-m", "-o", "Account,User,Partition,RawShares"],
    ["sshare", "-a", "-o", "Account%30,User%-12,FairShare%5,RawShares%-4"],
    ["sshare", "-a", "-o", "User%5,User%8,user"],
    ["sshare", "-a", "-o", "User%abc,,A%0"],
    ["sshare", "-a", "-o", "Account", "-o", "User%3,NormShares%4"],
    ["sshare", "-al", "-oAccount,User"],
    ["sshare", "-a", "--format=acc,us", "--accounts=shy"],
    ["sshare", "-v", "-u", "root", "-A", "shx", "-o", "Account"],
    ["sshare", "-v", "-a", "-o", "Account", "-A", "shy"],
    ["sshare", "-M", "live", "-a", "-o", "Account,User", "-A", "shx"],
    ["sshare", "-M", "nope"],
    ["sshare", "-o", "bogus"],
    ["sshare", "-z"],
    ["sshare", "--us"],
    ["sshare", "--us=x"],
    ["sshare", "--all=3"],
    ["sshare", "--format"],
    ["sshare", "--bogus=1"],
    ["sshare", "-q"],
    ["sshare", "-t"],
    ["sshare", "-u", "9999"],
    ["sshare", "-e"],
    ["sshare", "--help"],
    ["sshare", "--usage"],
    ["sprio", "-w"],
    ["sprio", "-w", "-l"],
    ["sprio", "-w", "-n"],
    ["sprio", "-w", "-h", "-o", "%.15i|%A|%F"],
    ["sprio", "-l", "-o", "%i"],
    ["sprio", "5"],
    ["sprio", "-j", "5", "6"],
    ["sprio", "-z"],
    ["sprio", "-o"],
    ["sprio", "-j", "abc"],
    ["sprio", "-j", "99"],
    ["sprio", "-j99"],
    ["sprio", "--jobs=99,98"],
    ["sprio", "-p", "nosuch"],
    ["sprio", "-u", "alice"],
    ["sprio", "-o", "%.5iabc%z"],
    ["sprio", "--usage"],
    ["sprio", "--help"],
    ["sprio", "--us"],
]


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    dump = out / "sacctmgr_dump.cfg"
    dump.unlink(missing_ok=True)
    subprocess.run(["sacctmgr", "dump", "live", f"file={dump}"], check=True, capture_output=True)
    conf = Path(os.environ["SLURM_CONF"]).read_text().splitlines()
    (out / "slurm_conf_priority.txt").write_text(
        "\n".join(
            line for line in conf if line.startswith(("Priority", "AccountingStorageEnforce"))
        )
        + "\n"
    )
    (out / "sshare_a_l_P.txt").write_text(
        subprocess.run(["sshare", "-a", "-l", "-P"], capture_output=True, text=True).stdout
    )
    (out / "scontrol_show_assoc_mgr.txt").write_text(
        subprocess.run(
            ["scontrol", "show", "assoc_mgr", "flags=assoc"], capture_output=True, text=True
        ).stdout
    )
    cases = []
    for argv in CASES:
        done = subprocess.run(argv, capture_output=True, text=True, cwd="/tmp")
        cases.append(
            {"argv": argv, "stdout": done.stdout, "stderr": done.stderr, "rc": done.returncode}
        )
    (out / "cases.json").write_text(json.dumps(cases, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
