"""``fscli tree``: the account tree with shares, usage, fair-share and usage-vs-share bars."""

from __future__ import annotations

import re

import pytest

from fscli.render.tree import usage_bar

AT = "2026-05-01T12:00:00"


def test_bar_marks_share_and_fills_usage():
    assert usage_bar(0.5, 0.3, 10) == "███░░|░░░░"
    assert usage_bar(0.2, 1.0, 10) == "██|███████"
    assert usage_bar(1.0, 0.0, 4) == "░░░|"


def test_tree_whole_and_subtree(science):
    science.ok("-Q", "usage", "add", "user=alice", "account=physics", "raw=300", f"at={AT}")
    science.ok("-Q", "usage", "add", "user=bob", "account=chem", "raw=100", f"at={AT}")
    out = science.ok("tree", at=AT).stdout.splitlines()
    # chem and physics tie (LevelFS 1.0): alice starts tied with bob, as in Slurm's Fair Tree
    assert out == [
        "cluster c1, fair_tree, bar: usage █ vs share |",
        "root  shares - (0.0000)  usage 400 (1.0000)",
        "└── science  shares 40 (1.0000)  usage 400 (1.0000)  levelfs 1.0000           "
        "███████████████████|",
        "    ├── chem  shares 10 (0.2500)  usage 100 (0.2500)  levelfs 1.0000          "
        "█████|░░░░░░░░░░░░░░",
        "    │   ├── bob  shares 1 (0.5000)  usage 100 (1.0000)  fairshare 0.666667    "
        "██████████|█████████",
        "    │   └── carol  shares 1 (0.5000)  usage 0 (0.0000)  fairshare 1.000000    "
        "░░░░░░░░░░|░░░░░░░░░",
        "    └── physics  shares 30 (0.7500)  usage 300 (0.7500)  levelfs 1.0000       "
        "███████████████|░░░░",
        "        └── alice  shares 1 (1.0000)  usage 300 (1.0000)  fairshare 0.666667  "
        "███████████████████|",
    ]
    sub = science.ok("tree", "chem", "--algorithm", "classic", at=AT).stdout.splitlines()
    assert sub[0] == "cluster c1, classic, bar: usage █ vs share |"
    assert sub[1].startswith("chem  shares 10 (0.2500)  usage 100 (0.2500)  fairshare 0.")
    assert len(sub) == 4


def test_tree_errors(science):
    assert science.fails("tree", "nope", code=1).stderr == (
        "fscli: error: account 'nope' does not exist on cluster c1\n"
    )
    # an empty name is no account either (it drew the whole tree)
    assert science.fails("tree", "", code=1).stderr == (
        "fscli: error: account '' does not exist on cluster c1\n"
    )
    assert "unknown algorithm" in science.fails("tree", "--algorithm", "x", code=2).stderr


def bar_columns(lines: list[str]) -> set[tuple[int, int]]:
    """(start, width) of the bar on every line that has one."""
    out = set()
    for line in (re.sub(r"\x1b\[[0-9;]*m", "", line) for line in lines):
        start = min((line.find(c) for c in "█░" if c in line), default=-1)
        if start >= 0:
            out.add((start, len(line) - start))
    return out


def test_bars_fill_the_terminal_in_one_column(science, monkeypatch):
    """On a terminal 120 columns wide the bars start in one column and end at 119."""
    from fscli.render import tables

    science.ok("-Q", "usage", "add", "user=alice", "account=physics", "raw=300", f"at={AT}")
    monkeypatch.setattr(tables, "is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    out = science.ok("tree", at=AT).stdout.splitlines()
    # alice's line is the widest: "        └── alice  shares 1 (1.0000)  usage 300 (1.0000)
    # fairshare 0.666667" (76 cells), two spaces, then a bar to the 119th cell
    assert bar_columns(out[2:]) == {(78, 41)}
    assert len(out) == 8


def test_piped_bars_are_fixed_and_long_names_do_not_wrap(science, monkeypatch):
    """Into a pipe: bars 20 wide in one column, and a line wider than $COLUMNS whole."""
    long_name = "a" * 60
    science.ok("-Q", "account", "add", long_name, "parent=chem", "fairshare=5")
    monkeypatch.setenv("COLUMNS", "80")
    out = science.ok("tree", at=AT).stdout.splitlines()
    assert len(out) == 9  # the header and one line a node, none wrapped
    ((start, width),) = bar_columns(out[2:])
    assert width == 20 and start == max(len(line) for line in out) - 20
    assert any(long_name in line for line in out)


def test_styles_mark_guides_names_and_bars_and_only_when_shown(science):
    """On a terminal each node's guide is dim, its name bold (users) or cyan (accounts)
    and its bar green (usage under share) or red (over); into a pipe the same lines come
    without styles."""
    import fscli
    from fscli.engine.timestr import parse_when
    from fscli.render.tree import share_tree

    science.ok("-Q", "usage", "add", "user=alice", "account=physics", "raw=300", f"at={AT}")
    answer = fscli.open_store(science.db).shares(at=parse_when(AT, 0))
    assert answer.algorithm == "fair_tree"  # bars compare EffectvUsage with NormShares
    styled, _ = share_tree(answer.rows, answer.algorithm, 100)
    plain, _ = share_tree(answer.rows, answer.algorithm, 100, styled=False)
    assert plain.plain == styled.plain and plain.styles == []
    expected = []
    for row, line in zip(answer.rows, styled.plain.split("\n")):
        name = row.user or row.account
        guide = line[: line.index(name)]
        if guide:
            expected.append((guide, "dim"))
        expected.append((name, "bold" if row.user else "cyan"))
        if row.raw_shares is not None:
            bar = re.search("[█░|]+$", line)[0]
            expected.append((bar, "red" if row.effective_usage > row.norm_shares else "green"))
    text = styled.plain
    assert [(text[a:b], style) for a, b, style in styled.styles] == expected
    assert {style for _, style in expected} >= {"dim", "bold", "cyan", "green", "red"}


@pytest.mark.parametrize(
    "env",
    [{"NO_COLOR": "1"}, {"TERM": "dumb"}, {"TERM": "dumb", "FORCE_COLOR": "1", "LINES": "5"}],
)
def test_no_colour_and_a_dumb_terminal_keep_the_width(science, monkeypatch, env):
    """NO_COLOR, or a dumb terminal (Emacs' shell: TERM=dumb with COLUMNS), prints no
    colour (NO_COLOR leaves bold and dim: no-color.org), and the bars still end in the
    terminal's last column."""
    from fscli.render import tables

    science.ok("-Q", "usage", "add", "user=alice", "account=physics", "raw=300", f"at={AT}")
    monkeypatch.setattr(tables, "is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "120")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    out = science.ok("tree", at=AT).stdout
    codes = {int(c) for sgr in re.findall(r"\x1b\[([0-9;]*)m", out) for c in sgr.split(";") if c}
    assert [c for c in codes if 30 <= c <= 49 or 90 <= c <= 107] == []
    if env.get("TERM") == "dumb":
        assert "\x1b[" not in out
    out = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert bar_columns(out.splitlines()[2:]) == {(78, 41)}
