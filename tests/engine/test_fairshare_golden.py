"""Fair-share engine against real Slurm 22.05 sshare captures and the documented examples.

Each capture's tree is read from its ``sacctmgr show assoc -P`` file, user RawUsage from
its ``sshare -a -l -P`` file (account usage is recomputed, as slurmctld does); every
row's NormShares, NormUsage, EffectvUsage, FairShare and LevelFS must match to 1e-6.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from fscli.engine.model import SHARES_PARENT, Assoc
from fscli.io.usage_import import parse_sshare
from tests.engine.adapt import compute

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
CAPTURES = [
    ("slurm-22.05/classic_doc/classic", "classic"),
    ("slurm-22.05/classic_doc/fairtree", "fair_tree"),
    ("slurm-22.05/classic_doc/depth_oblivious", "depth_oblivious"),
    ("slurm-22.05/sprio/fairtree", "fair_tree"),
]
TOL = 1e-6


def load_capture(folder: Path) -> tuple[list[Assoc], dict[int, float], list[dict[str, str]]]:
    lines = (folder / "sacctmgr_show_assoc_P.txt").read_text().splitlines()
    head = lines[0].split("|")
    assocs, by_name = [], {}
    records = [dict(zip(head, line.split("|"))) for line in lines[1:]]
    for rec in records:
        if rec["Cluster"] != records[0]["Cluster"]:  # the harness's scratch cluster
            continue
        parent = int(rec["ParentID"]) or None
        shares = SHARES_PARENT if rec["Share"] == "parent" else int(rec["Share"])
        a = Assoc(int(rec["ID"]), parent, rec["Account"], rec["User"] or None, shares=shares)
        assocs.append(a)
        by_name[(a.account, a.user)] = a.id
    sshare_text = (folder / "sshare_a_l_P.txt").read_text()
    usage = {
        by_name[(u.account, u.user)]: u.raw_usage
        for u in parse_sshare(sshare_text)
        if u.user is not None
    }
    rows_text = sshare_text.splitlines()
    cols = rows_text[0].split("|")
    expected = [dict(zip(cols, line.split("|"))) for line in rows_text[1:]]
    return assocs, usage, expected


def _close(got: float | None, text: str) -> bool:
    if text == "":
        return got is None
    if text == "inf":
        return got == math.inf
    return got is not None and abs(got - float(text)) <= TOL


@pytest.mark.parametrize("folder,algorithm", CAPTURES, ids=[c[0] for c in CAPTURES])
def test_real_slurm_capture(folder: str, algorithm: str) -> None:
    assocs, usage, expected = load_capture(GOLDEN / folder)
    result = compute(assocs, usage, algorithm)
    assert len(result.rows) == len(expected)
    for row, exp in zip(result.rows, expected):
        # same hierarchical order and indentation as sshare
        assert " " * row.depth + row.account == exp["Account"]
        assert (row.user or "") == exp["User"]
        assert int(row.raw_usage) == int(exp["RawUsage"])
        for field, value in (
            ("NormShares", row.norm_shares),
            ("NormUsage", row.norm_usage),
            ("EffectvUsage", row.effective_usage),
            ("FairShare", row.fairshare),
        ):
            assert _close(value, exp[field]), (row.account, row.user, field, value, exp[field])
        if "LevelFS" in exp:
            assert _close(row.level_fs, exp["LevelFS"]), (row.account, row.user, row.level_fs)


def _doc_example() -> tuple[list[Assoc], dict[int, float], dict]:
    """The classic documentation tree; usage fractions of a machine total of 1.0."""
    doc = yaml.safe_load((GOLDEN / "slurm-docs" / "classic_fair_share_example.yaml").read_text())
    assocs = [Assoc(1, None, "root", shares=1)]
    ids = {"root": 1}
    usage: dict[int, float] = {}
    for rec in doc["associations"]:
        new_id = len(assocs) + 1
        if rec.get("user"):
            assocs.append(
                Assoc(
                    new_id, ids[rec["account"]], rec["account"], rec["user"], shares=rec["shares"]
                )
            )
            ids[rec["user"]] = new_id
            usage[new_id] = rec["norm_usage"]
        else:
            assocs.append(Assoc(new_id, ids[rec["parent"]], rec["account"], shares=rec["shares"]))
            ids[rec["account"]] = new_id
    # The doc's usages are fractions of all machine time: the rest is charged to root.
    usage[1] = 1.0 - sum(usage.values())
    return assocs, usage, {"ids": ids, **doc["expected"]}


def test_classic_documentation_example_seed_000() -> None:
    assocs, usage, exp = _doc_example()
    result = compute(assocs, usage, "classic")
    ids = exp["ids"]
    for name, value in exp["norm_shares"].items():
        assert result.row(ids[name]).norm_shares == pytest.approx(value, abs=1e-9)
    for name, value in exp["effective_usage"].items():
        assert result.row(ids[name]).effective_usage == pytest.approx(value, abs=1e-4)
    for name, value in exp["fairshare_factor"].items():
        assert result.fs_factor[ids[name]] == pytest.approx(value, abs=1e-6)
    # seed 000's numbers, in order user1..user5
    got = [round(result.fs_factor[ids[f"user{k}"]], 6) for k in range(1, 6)]
    assert got == [0.408479, 0.022097, 0.125000, 0.500000, 0.749154]


def test_linear_seed_004() -> None:
    assocs, usage, exp = _doc_example()
    result = compute(assocs, usage, "linear")
    got = [result.fs_factor[exp["ids"][f"user{k}"]] for k in range(1, 6)]
    assert got == pytest.approx([0.45625, 0.3875, 0.45, 0.5, 0.602083], abs=1e-6)
    root = result.rows[0]
    assert (root.norm_shares, root.effective_usage, root.fairshare) == (1.0, 1.0, 0.5)


def test_depth_oblivious_top_level_equals_classic() -> None:
    """Seed 001: for accounts under root R = U/S, the same as the classic formula."""
    assocs, usage, exp = _doc_example()
    classic = compute(assocs, usage, "classic")
    oblivious = compute(assocs, usage, "depth_oblivious")
    for name in ("A", "D"):
        i = exp["ids"][name]
        assert oblivious.row(i).fairshare == classic.row(i).fairshare
    # deeper rows differ: user2 overused inside an overused account
    u2 = exp["ids"]["user2"]
    assert oblivious.row(u2).fairshare != pytest.approx(classic.row(u2).fairshare, abs=1e-3)
