"""Issue 31, item 7: a QOS's numbers are checked by one rule whatever the front end; read
commands never create a store; an import with a row given twice is refused."""

from __future__ import annotations

import math

import pytest

import fscli
from fscli.engine.treespec import ClusterSpec, QosSpec, TreeSpec
from fscli.errors import InvalidValue

MESSAGE = "invalid UsageFactor '{}': must be from 0.0 to 4294967294.0"


def build_site(fscli) -> None:
    fscli.ok("cluster", "add", "c1")
    fscli.ok("account", "add", "a1")
    fscli.ok("user", "add", "u1", "account=a1")
    fscli.ok("partition", "add", "p1", "nodes=1", "cpus=8")


@pytest.fixture
def site(fscli, template):
    """The store :func:`build_site` leaves, copied from its template."""
    return template(fscli, build_site)


@pytest.mark.parametrize("value", ["inf", "1e308", "nan", "-2", "4294967295"])
def test_usage_factor_out_of_range_is_refused_by_every_command(site, value):
    expected = MESSAGE.format(value)
    for words in (
        ("qos", "add", "q1", f"usagefactor={value}"),
        ("qos", "modify", "normal", "set", f"usagefactor={value}"),
        ("limits", "set", "qos=normal", f"UsageFactor={value}"),
    ):
        assert site.fails(*words, code=1).stderr == f"fscli: error: {expected}\n"
    if value == "-2":  # sacctmgr reads a negative number as "clear" (UsageFactor = NONE)
        site.ok("sacctmgr", "-i", "add", "qos", "q1", f"usagefactor={value}")
        site.ok("sacctmgr", "-i", "delete", "qos", "q1")
    else:
        result = site.fails("sacctmgr", "-i", "add", "qos", "q1", f"usagefactor={value}", code=1)
        assert result.stderr == f" {expected}\n"
    listed = site.ok("qos", "list", "-P", "-n").stdout
    assert listed.startswith("normal|0|00:00:00|||1.000000|") and listed.count("\n") == 1


def test_usage_factor_out_of_range_is_refused_by_yaml_and_python(site, tmp_path):
    path = tmp_path / "tree.yaml"
    path.write_text("cluster: {name: c1}\nqos:\n  q1: {usage_factor: .inf}\n")
    result = site.fails("apply", str(path), code=1)
    assert result.stderr.endswith(
        "qos.q1.usage_factor: expected a number >= 0 at most 4294967294\n"
    )
    with fscli.open_store(site.db) as store:
        with pytest.raises(InvalidValue, match="invalid UsageFactor 'inf'"):
            with store.transaction() as tx:
                tx.add_qos("q1", usage_factor=math.inf)
        spec = TreeSpec(cluster=ClusterSpec(name="c1"), qos={"q1": QosSpec(name="q1")})
        spec.qos["q1"].usage_factor = 1e308
        with pytest.raises(InvalidValue, match="QOS 'q1': invalid UsageFactor '1e\\+308'"):
            store.apply_tree(spec)
        spec.qos["q1"].usage_factor, spec.qos["q1"].usage_threshold = 2.0, 1.5
        with pytest.raises(InvalidValue, match="invalid UsageThreshold '1.5'"):
            store.apply_tree(spec)


def test_the_largest_factor_still_gives_numbers(site):
    site.ok("qos", "add", "q1", "usagefactor=4294967294")
    site.ok("user", "modify", "u1", "set", "qos=normal,q1")
    site.ok(
        "--at=2026-05-01T12:00:00",
        "job",
        "submit",
        "user=u1",
        "qos=q1",
        "partition=p1",
        "state=running",
        "time=1:00:00",
    )
    rows = site.ok("--at=2026-05-01T14:00:00", "sshare", "-a", "-P").stdout.splitlines()
    assert rows[-1] == "  a1|u1|1|1.000000|15363877102362|1.000000|1.000000"
    site.ok("--at=2026-05-01T14:00:00", "tree")


def test_db_current_creates_no_store(fscli, db_path):
    """A mistyped --db: ``db current`` reads, so it says there is no store there."""
    import os

    result = fscli.fails("db", "current", code=1)
    assert result.stderr.startswith(f"fscli: error: no store at {db_path}: a command that only")
    assert not os.path.exists(db_path)
    fscli.ok("db", "upgrade")
    assert fscli.ok("db", "current").stdout.strip().isdigit()


SSHARE = """\
Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare
root|||0.000000|300||1.000000
 a1||1|1.000000|300|1.000000|
  a1|u1|1|1.000000|100|0.333333|0.500000
  a1|U1|1|1.000000|200|0.666667|0.500000
"""


def test_an_sshare_row_given_twice_is_refused_with_its_lines(site, tmp_path):
    path = tmp_path / "shares.txt"
    path.write_text(SSHARE)
    before = site.ok("sshare", "-a", "-P").stdout
    result = site.fails("usage", "import", str(path), "--format", "sshare", code=1)
    assert result.stderr == (
        "fscli: error: 1 bad line(s) in sshare input: "
        "line 5: user 'u1' of account 'a1' is on line 4 too\n"
    )
    assert site.ok("sshare", "-a", "-P").stdout == before
    path.write_text(SSHARE.replace("  a1|U1|1", "  a1|u2|1"))
    site.ok("user", "add", "u2", "account=a1")
    site.ok("usage", "import", str(path), "--format", "sshare")
    # with sshare -m's Partition column, a user's partition associations are rows apart
    with_partition = "Account|User|Partition|RawUsage\n a1||| 300\n  a1|u1||100\n  a1|u1|p1|200\n"
    from fscli.io.usage_import import parse_sshare

    assert [r.line for r in parse_sshare(with_partition)] == [2, 3, 4]
