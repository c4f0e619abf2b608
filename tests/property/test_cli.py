"""Hostile words and files through the real commands (CliRunner on a temporary store).

Every run must exit 0, 1 or 2 (70 is fscli's "internal error"), never print a traceback,
say what went wrong in one stderr line, and leave the store exactly as it was when it
fails. The store is the ``science`` tree; each example compares every row of every table
before and after.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fscli.cli import account, limits, user
from fscli.engine import config
from tests.property.strategies import hostile, mutated, near, word
from tests.property.test_imports import SACCT, SQUEUE, SSHARE

CLI = settings(deadline=None, max_examples=25,
               suppress_health_check=[HealthCheck.function_scoped_fixture])
AT = "2026-11-22T00:00:00"


def snapshot(fscli) -> list[str]:
    """Every row of every table of the (SQLite) store."""
    with closing(sqlite3.connect(fscli.db)) as conn:
        return list(conn.iterdump())


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


def words(keys: dict[str, str]) -> st.SearchStrategy[list[str]]:
    return st.lists(word(sorted(keys)), max_size=5)


@CLI
@given(st.one_of(words(account.KEYS), st.lists(hostile, max_size=3)))
def test_account_add(science, args):
    check(science, "account", "add", *args)


@CLI
@given(words(user.KEYS))
def test_user_add(science, args):
    check(science, "user", "add", *args)


@CLI
@given(st.sampled_from(("account=physics", "user=alice", "cluster=c1", "qos=normal")),
       words(limits.KEYS))
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


@CLI
@given(st.sampled_from(("sacct", "sshare")), st.data())
def test_usage_import(science, tmp_path, fmt, data):
    content = data.draw(file_text(SACCT if fmt == "sacct" else SSHARE))
    run_file(science, tmp_path / "usage.txt", content, "usage", "import", "--format", fmt)


@CLI
@given(st.data())
def test_job_import(science, tmp_path, data):
    run_file(science, tmp_path / "jobs.txt", data.draw(file_text(SQUEUE)), "job", "import")


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
    content = data.draw(st.one_of(file_text(own_dump), mutated(st.sampled_from(lines)).map(
        lambda line: own_dump + line)))
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
