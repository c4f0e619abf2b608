"""``sshare --over`` and ``--sort`` on the demo store (fscli demo at 2026-05-01)."""

from __future__ import annotations

import json

import pytest

AT = "2026-05-01T00:00:00"
COLUMNS = ["-o", "Account,User,RawShares,RawUsage,LevelFS"]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from tests.conftest import Fscli

    fscli = Fscli(str(tmp_path_factory.mktemp("over") / "store.db"))
    fscli.ok("demo", at=AT)
    return fscli


def test_over_keeps_levelfs_below_one_sorted(demo):
    out = demo.ok("sshare", "-a", "--over", "--sort", "-RawUsage", "-P", *COLUMNS, at=AT)
    assert out.stdout.splitlines() == [
        "Account|User|RawShares|RawUsage|LevelFS",
        " accounta||40|1556546|0.657407",
        "  accountc||10|864748|0.450000",
        "   accountc|user2|1|864748|0.500000",
        "  accounte||25|864748|0.416667",
        " labs||20|648561|0.788889",
        "  lab2||50|432374|0.750000",
    ]


def test_over_means_the_same_under_classic(demo):
    """Classic has no LevelFS: the same ratio from RawShares and RawUsage among siblings
    (accountc: 10/(30+10) shares over 864748/1556546 usage = 0.45)."""
    fair_tree = demo.ok("sshare", "-a", "--over", "-P", "-o", "Account,User", at=AT).stdout
    classic = demo.ok(
        "sshare", "-a", "--over", "-P", "-o", "Account,User", "--algorithm", "classic", at=AT
    ).stdout
    assert classic == fair_tree


def test_sort_ascending_json_and_blanks_last(demo):
    doc = json.loads(demo.ok("sshare", "-a", "--sort", "levelfs", "--json", at=AT).stdout)
    fs = [row["LevelFS"] for row in doc["shares"]]
    assert fs[:3] == pytest.approx([0.416667, 0.45, 0.5], abs=1e-6)
    assert fs[-1] is None  # root and FairShare=parent users: no LevelFS, last


def test_sort_refuses_an_unknown_field(demo):
    err = demo.fails("sshare", "--sort", "bogus", code=2, at=AT).stderr
    assert err == (
        "fscli: error: --sort: unknown field 'bogus': expected one of Account, User, "
        "RawShares, NormShares, RawUsage, NormUsage, EffectvUsage, FairShare, LevelFS\n"
    )
