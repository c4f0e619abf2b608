"""Hostile words and files through the real commands (CliRunner on a temporary store).

Every run must exit 0, 1 or 2 (70 is fscli's "internal error"), never print a traceback,
say what went wrong in one stderr line, and leave the store exactly as it was when it
fails. The store is the ``science`` tree; each example compares every row of every table
before and after.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fscli.cli import account, change_words, user
from fscli.engine import config
from tests.conftest import build_science
from tests.property.strategies import hostile, mutated, near, values, word
from tests.rows import store_rows

# each property runs tens to hundreds of examples, many of them commands on a store
pytestmark = pytest.mark.slow

CLI = settings(
    deadline=None, max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
AT = "2026-11-22T00:00:00"

# Valid files for the ``science`` tree (plus partition ``batch``), so that their mutations
# reach the store: they import, or fail where a half-done import would show. (With users
# and accounts the tree lacks, every import failed before writing anything.)
SACCT = """\
JobID|User|Account|Partition|QOS|AllocCPUS|AllocTRES|ElapsedRaw|Elapsed|Start|End|State
1|alice|physics|batch|normal|16|cpu=16,mem=4G|60|00:01:00|2026-11-21T15:18:00|2026-11-21T15:19:00|COMPLETED
1.batch|||||16||60|00:01:00|2026-11-21T15:18:00|2026-11-21T15:19:00|COMPLETED
2|bob|chem|batch|normal|4|cpu=4|600|00:10:00|2026-11-21T15:00:00|2026-11-21T15:10:00|COMPLETED
4|carol|chem|batch|normal|4||0|00:00:00|Unknown|Unknown|PENDING
"""
SSHARE = """\
Account|User|RawShares|NormShares|RawUsage
root|||1.000000|3360
 science||40|1.000000|3360
  physics||30|0.750000|960
   physics|alice|1|0.750000|960
  chem||10|0.250000|2400
   chem|bob|1|0.125000|1200
   chem|carol|1|0.125000|1200
"""
SQUEUE = (
    "7|alice|physics|batch|normal|PENDING|2026-11-21T15:38:05|2027-11-21T15:38:00|UNLIMITED"
    "|1|8|4G|N/A|0\n12|bob|chem|batch|normal|PD|2026-11-21T15:38:05|N/A|1-00:00:00|2|32"
    "|2000M|gres/gpu:a100:2|-10\n3|carol|chem|batch|normal|RUNNING|2026-11-21T15:38:00"
    "|2026-11-21T15:38:00|30:00|1|64|0|gres:gpu:1,gres:nic|100\n"
)


def snapshot(fscli) -> dict[str, list[str]]:
    """Every row of every table of the store, on any backend."""
    return store_rows(fscli.db)


def check(fscli, *args: str) -> None:
    """Run one command; on failure the store must be unchanged."""
    before = snapshot(fscli)
    result = fscli(*args, at=AT)
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    if result.exit_code:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 or lines[-1].startswith("Error: "), (args, result.stderr)
        assert snapshot(fscli) == before, args


def test_snapshot_sees_every_write(science):
    before = snapshot(science)
    assert len(before["association"]) == 7  # root, science, physics, chem and three users
    science.ok("account", "modify", "chem", "set", "fairshare=11")
    after = snapshot(science)
    changed = [name for name in before if after[name] != before[name]]
    assert changed == ["association", "transaction_log"]


def words(keys: dict[str, str]) -> st.SearchStrategy[list[str]]:
    return st.lists(word(sorted(keys), values), max_size=5)


@CLI
@given(st.one_of(words(account.KEYS), st.lists(hostile, max_size=3)))
def test_account_add(science, args):
    check(science, "account", "add", *args)


@CLI
@given(words(user.KEYS))
def test_user_add(science, args):
    check(science, "user", "add", *args)


@CLI
@given(
    st.sampled_from(("account=physics", "user=alice", "cluster=c1", "qos=normal")),
    words(change_words.keys()),
)
def test_limits_set(science, target, args):
    check(science, "limits", "set", target, *args)


@CLI
@given(words({k.lower(): k for k in config.KEYS}))
def test_config_set(science, args):
    check(science, "config", "set", *args)


def file_text(base: str) -> st.SearchStrategy[str | bytes]:
    """Random text, random bytes (maybe not UTF-8), or the valid base with one mutation."""
    return st.one_of(hostile, st.binary(max_size=40), near(base))


def run_file(fscli, path: Path, content: str | bytes, *args: str) -> None:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    check(fscli, *args, str(path))


def build_batch(fscli) -> None:
    """The science tree with the partition the import files name."""
    build_science(fscli)
    fscli.ok("partition", "add", "batch", "nodes=10", "cpus=640")


@pytest.fixture
def batch(fscli, template):
    """The store :func:`build_batch` leaves, copied from its template."""
    return template(fscli, build_batch)


@pytest.mark.parametrize(
    "args, content, imported",
    [
        (("usage", "import", "--format", "sacct"), SACCT, "imported 2 job(s) on c1"),
        (
            ("usage", "import", "--format", "sshare"),
            SSHARE,
            "set RawUsage of 3 user association(s)",
        ),
        (("job", "import"), SQUEUE, "imported 3 jobs (2 pending, 1 running)"),
    ],
)
def test_the_import_files_are_valid(batch, tmp_path, args, content, imported):
    # Mutations of a file that the store refuses anyway would all fail before any write.
    path = tmp_path / "input.txt"
    path.write_text(content)
    assert imported in batch.ok(*args, str(path), at=AT).stderr


@CLI
@given(st.sampled_from(("sacct", "sshare")), st.data())
def test_usage_import(batch, tmp_path, fmt, data):
    content = data.draw(file_text(SACCT if fmt == "sacct" else SSHARE))
    run_file(batch, tmp_path / "usage.txt", content, "usage", "import", "--format", fmt)


@CLI
@given(st.data())
def test_job_import(batch, tmp_path, data):
    run_file(batch, tmp_path / "jobs.txt", data.draw(file_text(SQUEUE)), "job", "import")


@pytest.fixture
def own_dump(science) -> str:
    return science.ok("export", "--format", "dump").stdout


@pytest.fixture
def own_yaml(science) -> str:
    return science.ok("export", "--format", "yaml").stdout


@CLI
@given(st.data())
def test_load(science, own_dump, tmp_path, data):
    lines = own_dump.splitlines(keepends=True)
    content = data.draw(
        st.one_of(
            file_text(own_dump), mutated(st.sampled_from(lines)).map(lambda line: own_dump + line)
        )
    )
    run_file(science, tmp_path / "dump.cfg", content, "load")


@CLI
@given(st.data(), st.booleans())
def test_apply(science, own_yaml, tmp_path, data, prune):
    content = data.draw(file_text(own_yaml))
    run_file(science, tmp_path / "tree.yaml", content, "apply", *(["--prune"] if prune else []))


def test_apply_of_a_file_that_is_not_utf8(science, tmp_path):
    # Regression: a file that is not UTF-8 ended in "internal error: UnicodeDecodeError".
    path = tmp_path / "tree.yaml"
    path.write_bytes(b"cluster: {name: c1}\n\xff\n")
    assert "cannot read" in science.fails("apply", str(path), code=1).stderr
    assert "cannot read" in science.fails("load", str(path), code=1).stderr


SACCTMGR_KEYS = {
    k.lower(): k
    for k in (
        "Name",
        "Names",
        "Account",
        "Accounts",
        "Parent",
        "Cluster",
        "User",
        "Users",
        "Partition",
        "DefaultAccount",
        "AdminLevel",
        "Description",
        "Organization",
        "FairShare",
        "GrpTRES",
        "GrpJobs",
        "MaxJobs",
        "MaxWall",
        "MaxTRES",
        "QOS",
        "DefaultQOS",
        "Priority",
        "Format",
        "GrpCPUs",
        "MaxSubmit",
        "GrpTRESMins",
        "WithSubAccounts",
        "Tree",
    )
}


@CLI
@given(
    st.sampled_from(("add", "modify", "delete", "show")),
    st.sampled_from(("account", "user", "qos", "coordinator", "assoc", "cluster")),
    words(SACCTMGR_KEYS),
)
def test_sacctmgr(science, verb, entity, args):
    """sacctmgr's messages may take several lines; the rest of ``check`` holds."""
    before = snapshot(science)
    result = science("sacctmgr", "-i", verb, entity, *args, at=AT)
    assert result.exit_code in (0, 1), (args, result.exit_code, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    if result.exit_code:
        assert snapshot(science) == before, args
