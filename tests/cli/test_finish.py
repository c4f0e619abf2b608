"""The finish: SVG export, the demo at 100 columns, Ctrl-C, --debug, stdout vs stderr and
one decorator for every view's output options."""

from __future__ import annotations

import html
import re
import shlex
import subprocess
import sys

import click
import pytest

from fscli.cli.main import cli, main
from fscli.cli.output import output_options
from fscli.cli.reference import commands
from fscli.store.db import display_url
from tests.backends import BACKEND

AT = "2026-05-01T00:00:00"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


# --svg ---------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["sshare", "-a"], ["tree"], ["tree", "science"]])
def test_svg_saves_what_is_printed(science, tmp_path, args):
    plain = science.ok(*args, at=AT).stdout
    path = tmp_path / "out.svg"
    result = science.ok(*args, "--svg", str(path), at=AT)
    assert result.stdout == plain
    svg = path.read_text()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "physics" in svg and "alice" in svg
    shown = html.escape(shlex.quote(display_url(science.db)))
    title = f"fscli&#160;--db&#160;{shown}&#160;--at&#160;{AT}&#160;" + "&#160;".join(args)
    assert f">{title}</text>" in svg
    # it opens offline: no font (nor anything else) is fetched from the network
    assert "@font-face" not in svg and not re.search(r"url\(\s*[\"']?https?:", svg)
    assert "font-family: Fira Code, monospace" in svg


def test_svg_is_for_the_table_only(science, tmp_path):
    err = science.fails("sshare", "-P", "--svg", str(tmp_path / "x.svg"), code=2).stderr
    assert err == "fscli: error: --svg saves the table: leave out -p, -P, --json and --explain\n"
    assert not (tmp_path / "x.svg").exists()


def test_svg_unwritable_file_is_one_line(science, tmp_path):
    err = science.fails("tree", "--svg", str(tmp_path / "no" / "x.svg"), code=1).stderr
    assert err.startswith(f"fscli: error: cannot write the SVG file {tmp_path / 'no' / 'x.svg'}: ")
    # an empty file name is not "no --svg": it was silently ignored
    for command in ("tree", "sshare"):
        err = science.fails(command, "--svg", "", code=1).stderr
        assert err == "fscli: error: cannot write the SVG file : No such file or directory\n"
    err = science.fails("sshare", "--svg", "", "-P", code=2).stderr
    assert err == "fscli: error: --svg saves the table: leave out -p, -P, --json and --explain\n"


# the demo on a 100-column terminal -----------------------------------------------------


@pytest.mark.skipif(
    BACKEND != "sqlite", reason="the demo's hints carry the store's --db, a long server URL"
)
def test_demo_fits_a_100_column_terminal(fscli, monkeypatch):
    monkeypatch.setattr("fscli.render.tables.is_terminal", lambda stream: True)
    result = fscli.runner.invoke(
        cli,
        ["--db", fscli.db, "--at", AT, "demo"],
        env={"COLUMNS": "100", "NO_COLOR": None},
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.stderr
    text = ANSI.sub("", result.stdout)
    assert "\x1b[" in result.stdout  # a terminal gets colour
    lines = text.splitlines() + result.stderr.splitlines()
    # the closing hints name the store: a path as long as the user made it
    assert max(len(line) for line in lines if fscli.db not in line) <= 100
    assert "…" not in text
    for word in ("accountb", "user5", "LevelFS", "EffectvUsage", "FAIRSHARE", "JOBSIZE"):
        assert word in text
    assert [line.split()[2] for line in text.splitlines() if re.match(r"\s+\d+\s+batch", line)] == [
        "user1",
        "user2",
        "user3",
        "user4",
        "user5",
        "ana",
    ]


def test_sshare_long_parsable_keeps_every_column(fscli):
    fscli.ok("-Q", "demo", at=AT)
    header = fscli.ok("--cluster", "demo", "sshare", "-a", "-l", "-P", at=AT).stdout.split("\n")[0]
    assert header == (
        "Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|"
        "FairShare|LevelFS|GrpTRESMins|TRESRunMins"
    )


# Ctrl-C and --debug --------------------------------------------------------------------


def _raise(exc):
    def fail(*args, **kwargs):
        raise exc

    return fail


def test_ctrl_c_in_a_command_exits_130_with_one_line(db_path, monkeypatch, capsys):
    monkeypatch.setattr("fscli.api.shares.shares", _raise(KeyboardInterrupt()))
    with pytest.raises(SystemExit) as stop:
        main(["--db", db_path, "sshare"])
    assert stop.value.code == 130
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "Interrupted\n")


def test_ctrl_c_outside_a_command_exits_130(monkeypatch, capsys):
    monkeypatch.setattr(cli, "main", _raise(KeyboardInterrupt()))
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 130
    assert capsys.readouterr().err == "Interrupted\n"


def test_internal_error_is_one_line_and_debug_shows_it(science, monkeypatch):
    monkeypatch.setattr("fscli.api.shares.shares", _raise(RuntimeError("boom")))
    err = science.fails("sshare", code=70).stderr
    assert err == (
        "fscli: error: internal error: RuntimeError: boom (run with --debug for the traceback)\n"
    )
    with pytest.raises(RuntimeError, match="boom"):
        science("--debug", "sshare")


def test_debug_shows_the_traceback_of_a_user_error(science):
    err = science.fails("account", "modify", "nosuch", "set", "fairshare=1", code=1).stderr
    assert err.startswith("fscli: error: ") and "Traceback" not in err
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "fscli",
            "--db",
            science.db,
            "--debug",
            "account",
            "modify",
            "nosuch",
            "set",
            "fairshare=1",
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert run.stdout == ""
    assert "Traceback (most recent call last)" in run.stderr
    assert "fscli.errors.NotFound" in run.stderr


# stdout is data, stderr is messages ----------------------------------------------------


def test_changes_speak_on_stderr_only(science):
    result = science.ok("account", "add", "bio", "parent=science")
    assert result.stdout == ""
    assert "bio" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["account", "list", "-P"],
        ["user", "list", "-P"],
        ["assoc", "list", "-P"],
        ["cluster", "list", "-P"],
        ["qos", "list", "-P"],
        ["history", "-P"],
        ["sshare", "-a", "-P"],
        ["limits", "show", "account=chem", "-P"],
        ["config", "show", "-P"],
        ["tree"],
    ],
)
def test_views_write_data_to_stdout_only(science, args):
    result = science.ok(*args, at=AT)
    assert result.stdout and result.stderr == ""


# one decorator for every view's output options -----------------------------------------

OWN_GRAMMAR = {"fscli sprio"}  # sprio's -n (normalized) and -h (no header) are Slurm's


def _options(params) -> set[tuple]:
    return {(tuple(p.opts), p.help) for p in params if isinstance(p, click.Option)}


def test_every_view_takes_the_output_options_of_the_one_decorator():
    decorator = _options(output_options(lambda **kw: None).__click_params__)
    views = [
        (" ".join(path), command)
        for path, command, _ in commands()
        if any("--json" in getattr(p, "opts", ()) for p in command.params)
        or path[-1] in ("list", "show")
    ]
    assert len(views) >= 18
    for name, command in views:
        if name in OWN_GRAMMAR:
            continue
        assert decorator <= _options(command.params), f"{name}: options not from output_options"
