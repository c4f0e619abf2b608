"""``fscli usage add|set|import``: charges, sacct jobs charged pass by pass, sshare RawUsage."""

from __future__ import annotations

import pytest

SACCT = """\
JobID|User|Account|Partition|QOS|AllocCPUS|ElapsedRaw|Start|End|State
1|u1|a|low|normal|16|60|2026-05-01T10:00:00|2026-05-01T10:01:00|COMPLETED
1.batch|u1|a|low|normal|16|60|2026-05-01T10:00:00|2026-05-01T10:01:00|COMPLETED
2|u2|b|low|normal|8|330|2026-05-01T10:00:00|Unknown|RUNNING
3|u2|b|low|normal|4|0|Unknown|Unknown|PENDING
"""
SSHARE = """\
Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare
root|||0.000000|300|1.000000|
 a||1|0.500000|100|0.333333|
  a|u1|1|1.000000|100|1.000000|0.500000
 b||1|0.500000|200|0.666667|
  b|u2|1|1.000000|200|1.000000|0.500000
"""
AT = "2026-05-01T10:05:30"


def build_two(fscli) -> None:
    """Accounts a and b with users u1 and u2; no decay, 1-minute passes."""
    fscli.ok("-Q", "cluster", "add", "c")
    fscli.ok("-Q", "account", "add", "a,b")
    fscli.ok("-Q", "user", "add", "u1", "account=a")
    fscli.ok("-Q", "user", "add", "u2", "account=b")
    fscli.ok("-Q", "config", "set", "PriorityDecayHalfLife=0", "PriorityCalcPeriod=1")


@pytest.fixture
def two(fscli, template):
    """The store :func:`build_two` leaves, copied from its template."""
    return template(fscli, build_two)


def raw_usage(fscli, at: str = AT) -> list[str]:
    return fscli.ok(
        "sshare", "-a", "-P", "-n", "-o", "Account,User,RawUsage", at=at
    ).stdout.splitlines()


def test_add_and_set(two):
    two.ok("usage", "add", "user=u1", "account=a", "raw=100", "at=2026-05-01T09:00:00")
    two.ok("usage", "add", "user=u1", "account=a", "raw=50", "at=2026-05-01T09:30:00")
    two.ok("usage", "add", "account=b", "raw=7", "at=2026-05-01T09:00:00")
    assert raw_usage(two) == ["root||157", " a||150", "  a|u1|150", " b||7", "  b|u2|0"]
    result = two.ok("usage", "set", "User=u1", "Account=a", "raw=10", "at=2026-05-01T09:45:00")
    assert result.stderr == "set RawUsage of u1/a@c to 10 as of 2026-05-01T09:45:00Z\n"
    assert raw_usage(two)[2] == "  a|u1|10"
    assert "set usage|u1/a@c|raw=10 at=2026-05-01T09:45:00Z\n" in two.ok("history", "-P").stdout
    two.ok("usage", "add", "user=u1", "account=a", "raw=5", "--dry-run")
    assert raw_usage(two)[2] == "  a|u1|10"


def test_import_sacct_charges_jobs_pass_by_pass(two, tmp_path):
    path = tmp_path / "sacct.txt"
    path.write_text(SACCT)
    result = two.ok("usage", "import", str(path), "--format", "sacct")
    assert result.stderr.splitlines() == [
        "imported 2 job(s) on c (1 completed, 1 running)",
        "ignored 2 job step(s) or never-started job(s)",
    ]
    # job 1: 16 cpus x 60 s; job 2: 8 cpus, running, charged up to the pass at 10:05:00
    assert raw_usage(two) == ["root||3360", " a||960", "  a|u1|960", " b||2400", "  b|u2|2400"]
    assert raw_usage(two, "2026-05-01T10:10:00")[-1] == "  b|u2|4800"
    again = two.fails("usage", "import", str(path), code=1)
    assert "already in the store" in again.stderr


def test_import_sshare_sets_raw_usage(two, tmp_path):
    path = tmp_path / "sshare.txt"
    path.write_text(SSHARE)
    two.ok("usage", "import", str(path), "--format", "sshare", at=AT)
    assert raw_usage(two) == ["root||300", " a||100", "  a|u1|100", " b||200", "  b|u2|200"]


def test_unknown_pairs_reported_at_once_or_skipped(two, tmp_path):
    path = tmp_path / "sacct.txt"
    path.write_text(
        SACCT + "4|zed|a|low|normal|1|10|2026-05-01T10:00:00|2026-05-01T10:00:10|"
        "COMPLETED\n5|u1|zz|low|normal|1|10|2026-05-01T10:00:00|"
        "2026-05-01T10:00:10|COMPLETED\n"
    )
    result = two.fails("usage", "import", str(path), code=1)
    assert result.stderr == (
        "fscli: error: 2 user/account pair(s) not in cluster c: zed/a, "
        "u1/zz (add them, or use --skip-unknown)\n"
    )
    assert raw_usage(two)[0] == "root||0"
    result = two.ok("usage", "import", str(path), "--skip-unknown")
    assert result.stderr.splitlines()[-1] == "skipped 2 unknown user/account pair(s): zed/a, u1/zz"
    assert raw_usage(two)[0] == "root||3360"


@pytest.mark.parametrize(
    "fmt,text,message",
    [
        ("sacct", "JobID|User|Account|AllocCPUS\n1|u1|a|4\n", "lacks column(s): Start"),
        ("sacct", SACCT.replace("|16|60|", "|sixteen|60|", 1), "line 2: invalid AllocCPUS"),
        (
            "sacct",
            SACCT.replace("2026-05-01T10:01:00|COMPLETED", "yesterday|COMPLETED", 1),
            "line 2",
        ),
        ("sshare", "Account|RawUsage\na|5\n", "lacks column(s): User"),
        (
            "sshare",
            SSHARE.replace("|100|1.000000|0.500000", "|-100|1.000000|0.500000"),
            "line 4: RawUsage '-100' must be a finite number >= 0",
        ),
        (
            "sshare",
            SSHARE.replace("|200|1.000000|0.500000", "|lots|1.000000|0.500000"),
            "line 6: invalid RawUsage 'lots'",
        ),
        ("csv", SSHARE, "unknown --format 'csv'"),
    ],
)
def test_bad_files_import_nothing(two, tmp_path, fmt, text, message):
    path = tmp_path / "in.txt"
    path.write_text(text)
    result = two.fails("usage", "import", str(path), "--format", fmt)
    assert message in result.stderr
    assert raw_usage(two)[0] == "root||0"


def test_a_file_that_is_not_usage_opens_no_store(tmp_path):
    """The file is read and checked before the store is opened: a bad file on a store that
    does not exist yet leaves none behind."""
    from tests.conftest import Fscli

    path, store = tmp_path / "in.txt", tmp_path / "new.db"
    path.write_text("Account|RawUsage\na|5\n")
    result = Fscli(str(store)).fails("usage", "import", str(path), "--format", "sshare")
    assert "lacks column(s): User" in result.stderr
    assert not store.exists()


@pytest.mark.parametrize(
    "words,code,message",
    [
        (("user=u1", "account=a", "raw=-5"), 1, "must be a finite number >= 0"),
        (("user=u1", "account=a", "raw=abc"), 1, "invalid usage 'abc'"),
        (
            ("user=u1", "account=a", "raw=1e308"),
            1,
            "usage '1e308' is out of range (at most 9223372036854775807)",
        ),
        (("user=u1", "account=b", "raw=5"), 1, "user 'u1' has no association with account 'b'"),
        (("account=nope", "raw=5"), 1, "account 'nope' does not exist"),
        (("user=u1", "raw=5"), 2, "needs account=A and raw=N"),
        (("user=u1", "account=a", "raw=5", "at=someday"), 1, "invalid time 'someday'"),
        (("user=u1", "account=a", "rwa=5"), 2, "unknown key 'rwa'"),
    ],
)
def test_bad_charges(two, words, code, message):
    result = two.fails("usage", "add", *words, code=code)
    assert message in result.stderr
