"""docs/cli.md is current, and every command's help carries an example."""

from __future__ import annotations

from pathlib import Path

import pytest

from fscli.cli.reference import cli_reference, commands

ROOT = Path(__file__).resolve().parents[2]


def test_docs_cli_md_is_current():
    assert (ROOT / "docs" / "cli.md").read_text() == cli_reference(), (
        "docs/cli.md is stale: run `python -m fscli.cli.reference > docs/cli.md`"
    )


@pytest.mark.parametrize(
    "path,command,ctx", commands(), ids=lambda v: " ".join(v) if isinstance(v, list) else ""
)
def test_every_command_has_an_example(path, command, ctx):
    assert "Example" in command.get_help(ctx), f"{' '.join(path)} --help has no example"
