"""docs/json.md documents the --json output of every command that has it, with the keys
the commands really print."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fscli.cli.reference import JSON_EXAMPLES, commands, json_keys, json_store

DOC = (Path(__file__).resolve().parents[2] / "docs" / "json.md").read_text()
REGENERATE = "regenerate with `python -m fscli.cli.reference json > docs/json.md`"


def documented() -> dict[str, set[str]]:
    """Heading (``fscli sshare -a``) -> the key paths its table lists."""
    sections = re.split(r"^## ", DOC, flags=re.MULTILINE)[1:]
    key = re.compile(r"^\| `([^`]+)` \|", flags=re.MULTILINE)
    return {section.split("\n", 1)[0]: set(key.findall(section)) for section in sections}


def test_every_command_with_json_is_documented():
    headings = list(documented())
    with_json = [
        " ".join(path)
        for path, command, _ in commands()
        if any("--json" in getattr(p, "opts", ()) for p in command.params)
    ]
    assert len(with_json) >= 19
    for name in with_json:
        assert any(h == name or h.startswith(name + " ") for h in headings), (
            f"{name} --json is not in docs/json.md: {REGENERATE}"
        )
    assert headings == ["fscli " + " ".join(words) for words in JSON_EXAMPLES], REGENERATE


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return json_store(str(tmp_path_factory.mktemp("json") / "json.db"))


@pytest.mark.parametrize("words", JSON_EXAMPLES, ids=" ".join)
def test_documented_keys_are_the_real_keys(run, words):
    real = set(json_keys(json.loads(run([*words, "--json"]))))
    assert real == documented()["fscli " + " ".join(words)], REGENERATE


def test_main_shapes():
    keys = documented()
    assert {"meta.algorithm", "shares[].Account", "shares[].FairShare", "shares[].LevelFS"} <= keys[
        "fscli sshare -a"
    ]
    assert {
        "weights.fairshare",
        "jobs[].job_id",
        "jobs[].priority",
        "jobs[].factors.fairshare",
    } <= keys["fscli sprio"]
    assert {"associations[].Account", "associations[].GrpTRES"} <= keys["fscli assoc list"]
    assert {"verdict", "reason", "limit", "others"} <= keys[
        "fscli limits check user=user1 cpus=512"
    ]
