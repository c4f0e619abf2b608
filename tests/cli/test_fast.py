"""The TABs answered before click (``fscli.cli.fast``) are click's answers.

The grammar is the click tree's; every TAB the fast path answers, click answers the same
(a list that reaches every command, and word sequences hypothesis makes up), in the bash,
zsh and fish protocols; what it does not understand, and every other command line
(``--help``, ``--version``), it leaves to click.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fscli.cli.complete import skipped_while_completing
from fscli.cli.fast import answer, generate
from fscli.cli.fast.tab import complete
from fscli.cli.fast.words import GRAMMAR, nodes, read_json
from fscli.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
SHELLS = ("bash", "zsh", "fish")


def test_the_committed_grammar_is_the_click_trees():
    with open(GRAMMAR, encoding="utf-8") as file:
        assert file.read() == generate.source(), (
            f"fscli/cli/fast/grammar.json is stale: regenerate with {generate.REGENERATE}"
        )


def test_the_grammar_leaves_usual_values_out_and_reads_them_back():
    with open(GRAMMAR, encoding="utf-8") as file:
        text = file.read()
    assert '"multiple":false' not in text and '"secondary":[]' not in text
    db, _, _, quiet = nodes()[""]["options"][:4]
    assert (db["opts"], db["value"], db["envvar"], db["complete"]) == (
        ["--db"],
        True,
        "FSCLI_DB",
        ["none"],
    )
    assert (quiet["opts"], quiet["value"], quiet["multiple"], quiet["hidden"]) == (
        ["-Q", "--quiet"],
        False,
        False,
        False,
    )


@pytest.mark.parametrize(
    "text",
    [
        '{"": {"a": [1, -2.5, 3e2, "\\u00e9\\n\\"", true, false, null]}, "b c": {}}',
        "[]",
        '"x"',
    ],
)
def test_the_grammar_reads_as_json_reads(text):
    assert read_json(text) == json.loads(text)
    with open(GRAMMAR, encoding="utf-8") as file:
        whole = file.read()
    assert read_json(whole) == json.loads(whole)


def test_the_grammar_leaves_nothing_to_click():
    """sshare's -e prints its fields from a callback, which click skips while it
    completes (``skipped_while_completing``): its words complete without click too."""
    assert [p for p, n in nodes().items() if "fallback" in n] == []


def test_a_callback_that_runs_while_click_completes_leaves_the_command_to_click():
    def shout(ctx, param, value):
        return value

    command = click.Command("x", params=[click.Option(["-e"], is_flag=True, callback=shout)])
    ctx = command.make_context("x", [], resilient_parsing=True)
    assert generate._unsupported(command, ctx, command.get_params(ctx)) == (
        "e: a callback runs while click parses"
    )
    quiet = click.Option(["-e"], is_flag=True, callback=skipped_while_completing(shout))
    command = click.Command("x", params=[quiet])
    ctx = command.make_context("x", [], resilient_parsing=True)
    assert generate._unsupported(command, ctx, command.get_params(ctx)) is None


def test_a_node_the_grammar_leaves_to_click_is_left_to_click(science, db_path, monkeypatch):
    node = {**nodes()["sshare"], "fallback": "a callback runs while click parses"}
    monkeypatch.setitem(nodes(), "sshare", node)
    env = protocol("bash", ["--db", db_path, "sshare", "-"])
    assert complete(env["_FSCLI_COMPLETE"], env) is None
    assert answer(env) is None


def test_sshare_e_prints_its_fields_but_not_while_completing(fscli, db_path):
    assert fscli.ok("sshare", "-e").stdout.startswith("Account ")
    env = protocol("bash", ["--db", db_path, "sshare", "-e", "-"])
    result = CliRunner().invoke(cli, [], prog_name="fscli", env=env)
    assert result.exit_code == 0 and "Account" not in result.stdout
    assert "plain,--long" in result.stdout.splitlines()


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"_FSCLI_COMPLETE": ""},
        {"_FSCLI_COMPLETE": "bash_source"},  # the script, not a TAB
        {"_FSCLI_COMPLETE": "bash_complete"},  # no COMP_WORDS
        {"_FSCLI_COMPLETE": "tcsh_complete", "COMP_WORDS": "fscli ", "COMP_CWORD": "1"},
    ],
)
def test_what_is_not_a_tab_is_clicks(env):
    """``--help`` and ``--version`` too: click answers every command line."""
    assert answer(env) is None


def test_help_and_version_are_clicks(monkeypatch):
    """The installed program (console) prints what click prints for them, and exits 0."""
    monkeypatch.setenv("COLUMNS", "64")
    with cli.make_context("fscli", [], resilient_parsing=True) as ctx:
        help_text = ctx.get_help() + "\n"
    version = "fscli, version 0.1.0\n"
    for argv, expected in ((["--help"], help_text), (["-Q", "--version", "--help"], version)):
        out = subprocess.run(
            [sys.executable, "-m", "fscli", *argv], capture_output=True, text=True, cwd=ROOT
        )
        assert (out.returncode, out.stdout, out.stderr) == (0, expected, ""), argv


def test_the_fast_answers_import_no_click(science, db_path):
    tab = {
        "_FSCLI_COMPLETE": "bash_complete",
        "COMP_WORDS": f"fscli --db {db_path} user add bob account=ph",
        "COMP_CWORD": "6",
    }
    code = (
        "import sys\n"
        "from fscli.cli.fast import answer\n"
        f"code = answer({tab!r})\n"
        "sys.stdout.flush()\n"
        "print(code, 'click' in sys.modules, 'sqlalchemy' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.splitlines() == ["plain,account=physics", "0 False False"]


def protocol(shell: str, words: list[str]) -> dict[str, str]:
    """The environment a TAB after ``fscli WORDS`` gives fscli (the last word is being
    completed), as completions/fscli.<shell> sets it."""
    line = ["fscli", *words]
    if shell == "fish":
        return {
            "_FSCLI_COMPLETE": "fish_complete",
            "COMP_WORDS": " ".join(line),
            "COMP_CWORD": line[-1],
        }
    return {
        "_FSCLI_COMPLETE": f"{shell}_complete",
        "COMP_WORDS": "\n".join(line) if shell == "bash" else " ".join(line),
        "COMP_CWORD": str(len(line) - 1),
    }


def same_as_click(env: dict[str, str], monkeypatch) -> bool:
    """Asserts the fast answer is click's; False when the fast path left it to click."""
    result = CliRunner().invoke(cli, [], prog_name="fscli", env=env)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    fast = complete(env["_FSCLI_COMPLETE"], os.environ)
    if fast is None:
        return False
    assert (result.exit_code, f"{fast}\n".encode()) == (0, result.stdout_bytes), env
    return True


def cases() -> list[list[str]]:
    """TABs at every command of the grammar: its subcommands, options, option values,
    arguments, and the ``key=value`` words of the commands that take them."""
    out: list[list[str]] = [[""], ["--cluster", ""], ["--db=x", "-"], ["nosuch", ""]]
    for path, node in nodes().items():
        words = path.split()
        out += [[*words, ""], [*words, "-"], [*words, "--"], [*words, "a"]]
        for option in node["options"]:
            out.append([*words, option["opts"][-1], "" if option["value"] else "-"])
        spec = node["arguments"][-1]["complete"] if node["arguments"] else None
        if spec and spec[0] == "words":
            for key in sorted(set(spec[2].values()))[:6]:
                out += [[*words, "x", f"{key}="], [*words, "x", key, "=", ""]]
            out += [
                [*words, "account=ph"],
                [*words, "x", "account=chem,ph"],
                [*words, "x", "parent", "=", "sc"],
                [*words, "x", "user=a"],
                [*words, "c"],
            ]
    return out


@pytest.mark.slow  # every command of the tree
def test_every_command_completes_as_click_does(science, db_path, monkeypatch):
    fell = []
    for words in cases():
        for shell in SHELLS:
            if not same_as_click(protocol(shell, ["--db", db_path, *words]), monkeypatch):
                fell.append(words)
    assert fell == []


def test_db_from_the_environment_and_the_cluster_option(science, db_path, monkeypatch):
    monkeypatch.setenv("FSCLI_DB", db_path)
    for words in (["user", "add", "bob", "account=ph"], ["--cluster", "c"], ["-Q", "qos", ""]):
        assert same_as_click({**protocol("bash", words), "FSCLI_DB": db_path}, monkeypatch)


@pytest.mark.parametrize(
    "words",
    [
        ["user", "add", "'bob", "account=ph"],  # quotes: shlex's reading
        ["user", "add", "--", "account=ph"],
        ["-Qd", "user", ""],  # bundled short options
        ["user", "add", "bob", "--cluster", ""],  # not an option of user add
        ["--db", "--cluster", ""],  # a value that looks like an option
        ["user", "add", "-", ""],
    ],
)
def test_what_the_fast_path_does_not_understand_click_answers(words, science, db_path):
    env = protocol("bash", ["--db", db_path, *words])
    assert complete(env["_FSCLI_COMPLETE"], env) is None
    assert answer(env) is None


WORDS = st.sampled_from(
    sorted({name for path in nodes() for name in path.split()})
    + ["", "-", "--", "=", "-Q", "--quiet", "--db", "--cluster", "--at", "now", "--help"]
    + ["-a", "-e", "--format", "-o", "--version", "--debug=1", "-x", "x", "a:b", "'q"]
    + ["account=", "account=ph", "parent", "user=a", "qos=normal,", "ph", "c1", "41"]
)


@settings(
    deadline=None, max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(words=st.lists(WORDS, min_size=1, max_size=6), shell=st.sampled_from(SHELLS))
def test_made_up_word_sequences_complete_as_click_does(words, shell, science, db_path):
    with pytest.MonkeyPatch.context() as monkeypatch:
        same_as_click(protocol(shell, ["--db", db_path, *words]), monkeypatch)


def test_the_shell_script_gets_the_fast_answer(science, db_path):
    """completions/fscli.bash's protocol end to end, through ``python -m fscli``."""
    env = {**os.environ, **protocol("bash", ["--db", db_path, "account", "modify", "ch"])}
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "fscli"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    assert out.stdout == "plain,chem\n"
    assert "click" not in [line.rpartition("|")[2].strip() for line in out.stderr.splitlines()]


def test_every_listed_command_is_a_click_command_of_that_name():
    """``COMMANDS`` is the group's list (no module is looked for first): each entry must
    import, and name a click command of its own name."""
    import importlib

    import click

    from fscli.cli.program import COMMANDS

    for name, (module, attr, _) in COMMANDS.items():
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command) and command.name == name, name


ISSUE_35_TABS = [
    "limits set qos=h",
    "limits show ",
    "tree ph",
    "usage add user=ch",
    "plot u",
    "config set PriorityW",
    "config set PriorityType=priority/m",
    "sshare --explain ch",
    "sshare -A chem,ph",
    "sprio --explain ",
    "sprio -u a",
    "sacctmgr show a",
    "sacctmgr show account ph",
    "sacctmgr add user dana account = ph",
    "sacctmgr modify user where name=alice set qos+=n",
]


@pytest.mark.parametrize("line", ISSUE_35_TABS)
@pytest.mark.parametrize("shell", SHELLS)
def test_names_and_fixed_values_complete_without_click(line, shell, science, db_path, monkeypatch):
    """The TABs issue 35 found empty answer on the fast path, as click answers them."""
    words = line.split(" ")
    assert same_as_click(protocol(shell, ["--db", db_path, *words]), monkeypatch), line
