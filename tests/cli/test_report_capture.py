"""``fscli report`` against real sreport 22.05, byte for byte.

The capture (``tests/data/capture/sreport-22.05``): a live cluster (64 CPUs) where alice
ran 4 CPUs for 70 s (physics), bob 2 CPUs for 40 s (chem) and 1 CPU for 95 s (physics)
between 11:48 and 11:52; ``fscli collect`` saved the cluster, and after slurmdbd's
12:00 rollup sreport printed each ``sreport_*.txt`` (the command is in the test).

Percentages differ on purpose and are masked: sreport divides by the time the cluster
was *up* in the window (it registered at 11:47:55, so about 725 s of the hour), fscli by
the whole window (the store does not know when a cluster came up).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CAPTURE = Path(__file__).resolve().parents[1] / "data" / "capture" / "sreport-22.05"
AFTER_ROLLUP = "2026-11-28T12:01:30"
HOUR = ["start=2026-11-28T11:00", "end=2026-11-28T12:00"]
PERCENT = re.compile(r"\d+\.\d\d%")


def build_capture(fscli) -> None:
    fscli.ok("-Q", "import", "slurm", str(CAPTURE))


@pytest.fixture
def live(fscli, template):
    return template(fscli, build_capture)


@pytest.mark.parametrize(
    "name, words",
    [
        ("sreport_au.txt", ["cluster", "AccountUtilizationByUser", *HOUR]),
        ("sreport_ua_seconds_P.txt", ["cluster", "UserUtilizationByAccount", *HOUR, "-t", "seconds", "-P"]),
        ("sreport_top_group_tres.txt", ["user", "TopUsage", *HOUR, "Group", "-t", "minutes", "--tres=cpu,node"]),
        ("sreport_top_percent_p.txt", ["user", "TopUsage", *HOUR, "-t", "percent", "-p"]),
        ("sreport_au_secper_n.txt", ["cluster", "AccountUtilizationByUser", *HOUR, "-t", "secper", "-n"]),
        ("sreport_au_rounded.txt", ["cluster", "AccountUtilizationByUser", "start=2026-11-28T10:40:10",
                                    "end=2026-11-28T11:29:30", "-t", "seconds"]),
    ],
)  # fmt: skip
def test_prints_what_sreport_printed(live, name, words):
    out = live.ok("report", *words, at=AFTER_ROLLUP).stdout
    assert PERCENT.sub("P%", out) == PERCENT.sub("P%", (CAPTURE / name).read_text())
