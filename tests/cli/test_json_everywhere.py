"""--json everywhere: every command either prints JSON with it (in every mode: --explain
too) or refuses it with a one-line error; none prints something else and exits 0.

``fscli sacctmgr`` is left out: it answers as the real sacctmgr does, byte for byte.
"""

from __future__ import annotations

import json

import click
import pytest

from fscli.cli.main import cli
from fscli.cli.reference import JSON_EXAMPLES, json_store

NOT_FSCLI = {("sacctmgr",)}


def _leaves(group: click.Group, path: tuple[str, ...] = ()):
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            yield from _leaves(command, (*path, name))
        else:
            yield (*path, name), command


def _has_json(command: click.Command) -> bool:
    return any("--json" in p.opts for p in command.params if isinstance(p, click.Option))


COMMANDS = [(path, _has_json(cmd)) for path, cmd in _leaves(cli) if path not in NOT_FSCLI]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """``fscli WORDS`` on the docs' JSON store: (exit code, stdout, stderr)."""
    from click.testing import CliRunner

    db = str(tmp_path_factory.mktemp("json") / "store.db")
    json_store(db)
    runner = CliRunner()

    def call(words: list[str]):
        result = runner.invoke(
            cli, ["--db", db, "--at", "2026-05-01T00:00:00", "--cluster", "demo", *words]
        )
        return result.exit_code, result.stdout, result.stderr

    return call


def test_the_commands_are_found():
    paths = {" ".join(path) for path, _ in COMMANDS}
    assert {"job why", "tree", "sshare", "account delete", "db current"} <= paths
    assert len(COMMANDS) > 50


@pytest.mark.parametrize("path", [p for p, has in COMMANDS if not has], ids=lambda p: " ".join(p))
def test_a_command_without_json_refuses_it(run, path):
    code, stdout, stderr = run([*path, "--json"])
    assert code != 0
    assert stdout == ""
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert stderr.startswith("fscli: error: ")


def test_every_command_with_json_has_a_documented_example():
    documented = {tuple(words[: len(path)]) for words in JSON_EXAMPLES for path, _ in COMMANDS}
    missing = [" ".join(p) for p, has in COMMANDS if has and p not in documented]
    assert missing == []


@pytest.mark.parametrize("words", JSON_EXAMPLES, ids=" ".join)
def test_each_example_prints_json(run, words):
    code, stdout, _ = run([*words, "--json"])
    assert code == 0
    assert isinstance(json.loads(stdout), dict)


def test_explain_in_json_carries_the_lines_of_the_text(run):
    _, text, _ = run(["sprio", "--explain", "3"])
    doc = json.loads(run(["sprio", "--explain", "3", "--json"])[1])
    assert [job["explain"] for job in doc["jobs"]] == [text.splitlines()]
    assert doc["jobs"][0]["job_id"] == 3
    _, text, _ = run(["sshare", "--explain", "user1/accountb"])
    doc = json.loads(run(["sshare", "--explain", "user1/accountb", "--json"])[1])
    assert doc["explain"] == text.splitlines()
    assert [(r["Account"], r["User"]) for r in doc["shares"]] == [("accountb", "user1")]


def test_explain_refuses_parsable(run):
    code, stdout, stderr = run(["sshare", "--explain", "user1/accountb", "-P"])
    assert (code, stdout) == (2, "")
    assert stderr == (
        "fscli: error: --explain prints a derivation: leave out -p and -P (or use --json)\n"
    )


def test_tree_json_nests_the_sshare_rows(run):
    doc = json.loads(run(["tree", "--json"])[1])
    flat = json.loads(run(["sshare", "-a", "--json"])[1])["shares"]

    def walk(nodes):
        for node in nodes:
            children = node.pop("children")
            yield node
            yield from walk(children)

    assert list(walk(doc["tree"])) == flat
    assert [n["Account"] for n in doc["tree"]] == ["root"]
    sub = json.loads(run(["tree", "accountb", "--json"])[1])["tree"]
    assert [(n["Account"], [c["User"] for c in n["children"]]) for n in sub] == [
        ("accountb", ["user1"])
    ]
    code, _, stderr = run(["tree", "-P"])
    assert code == 2
    assert stderr == "fscli: error: tree draws the tree: -p, -P and -n do not apply (use --json)\n"
    code, _, stderr = run(["tree", "--json", "--svg", "x.svg"])
    assert code == 2 and stderr == "fscli: error: --svg saves the drawing: leave out --json\n"
    code, out, stderr = run(["tree", "--json", "--with", "account=accountb fairshare=+5"])
    assert (code, out) == (2, "")
    assert stderr == (
        "fscli: error: tree --json leaves out --with: sshare --with --json compares the rows\n"
    )
