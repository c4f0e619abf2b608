"""``fscli plot KIND -o FILE`` end to end: the file is written and valid, and the numbers
drawn are the ones sshare, sprio and bqueues print for the same store and moment."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from tests.conftest import build_science

pytest.importorskip("matplotlib")

from fscli.render import plot  # noqa: E402
from tests.render.test_plot import bars  # noqa: E402 - the same reading of a figure

# matplotlib draws each chart: about a second a test
pytestmark = pytest.mark.slow

AT = "2026-05-01T00:00:00"


@pytest.fixture
def drawn(monkeypatch):
    """The figures the command draws, kept for the test to read."""
    figures = []
    real = plot.figure

    def keep(chart):
        figures.append(real(chart))
        return figures[-1]

    monkeypatch.setattr(plot, "figure", keep)
    return figures


def build_site(fscli) -> None:
    """The science tree with usage, priority weights, two pending jobs and an LSF queue."""
    build_science(fscli)
    fscli.ok("usage", "add", "user=alice", "account=physics", "raw=36000", "at=2026-04-20")
    fscli.ok("usage", "add", "user=bob", "account=chem", "raw=7200", "at=2026-04-27")
    fscli.ok("config", "set", "PriorityWeightFairshare=10000", "PriorityWeightAge=1000")
    fscli.ok("config", "set", "PriorityWeightQOS=500", "PriorityMaxAge=1-0")
    fscli.ok("partition", "add", "p1", "nodes=4", "cpus=64")
    for user, account, submit in (("alice", "physics", "2026-04-30T12:00:00"),) + (
        ("carol", "chem", "2026-04-30T18:00:00"),
    ):
        fscli.ok(
            "job",
            "submit",
            f"user={user}",
            f"account={account}",
            "partition=p1",
            f"submit={submit}",
            at=AT,
        )
    fscli.ok(
        "lsf", "queue", "add", "normal", "fairshare=USER_SHARES[[carol, 3000] [default, 1000]]"
    )


@pytest.fixture
def site(fscli, template):
    """The store :func:`build_site` leaves, copied from its template."""
    return template(fscli, build_site)


def ticks(ax, axis="x") -> list[str]:
    return [t.get_text() for t in getattr(ax, f"get_{axis}ticklabels")()]


def parsable(text: str) -> list[dict[str, str]]:
    header, *lines = text.splitlines()
    return [dict(zip(header.split("|"), line.split("|"))) for line in lines]


def test_plot_shares_draws_what_sshare_prints(site, drawn, tmp_path):
    path = tmp_path / "shares.svg"
    site.ok("plot", "shares", "-a", "-o", str(path), at=AT)
    ET.parse(path)  # valid XML
    rows = parsable(site.ok("sshare", "-a", "-P", at=AT).stdout)[1:]  # root is not drawn
    (fig,) = drawn
    drawn_bars = bars(fig)
    assert ticks(fig.axes[0], "y") == [
        "science",
        "· chem",
        "· · bob",
        "· · carol",
        "· physics",
        "· · alice",
    ]
    assert [f"{v:f}" for v in drawn_bars["NormShares"]] == [r["NormShares"] for r in rows]
    assert [f"{v:f}" for v in drawn_bars["EffectvUsage"]] == [r["EffectvUsage"] for r in rows]


def test_plot_usage_draws_sshare_rawusage_at_each_moment(site, drawn, tmp_path):
    path = tmp_path / "usage.png"
    site.ok(
        "plot",
        "usage",
        "-A",
        "physics,chem",
        "--from",
        "now-14days",
        "--points",
        "3",
        "-o",
        str(path),
        at=AT,
    )
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    (fig,) = drawn
    ax = fig.axes[0]
    assert ticks(ax) == ["2026-04-17 00:00", "2026-04-24 00:00", "2026-05-01 00:00"]
    lines = {line.get_label(): list(line.get_ydata()) for line in ax.get_lines()}
    assert list(lines) == ["physics", "chem"]  # the largest first
    for i, when in enumerate(("2026-04-17T00:00:00", "2026-04-24T00:00:00", AT)):
        printed = {
            r["Account"].strip(): int(r["RawUsage"])
            for r in parsable(site.ok("sshare", "-P", at=when).stdout)
        }
        assert {name: int(values[i] * 3600) for name, values in lines.items()} == {
            "chem": printed["chem"],
            "physics": printed["physics"],
        }
    # the half-life at work: alice's 36000 s of 2026-04-20 after 4 and 11 days of a 7-day
    # half-life: 36000 * 0.5 ** (4 / 7) and 36000 * 0.5 ** (11 / 7)
    assert [int(v * 3600) for v in lines["physics"]] == [0, 24228, 12115]  # drawn in hours


def test_plot_usage_of_users(site, drawn, tmp_path):
    site.ok("plot", "usage", "-u", "bob", "-o", str(tmp_path / "u.svg"), at=AT)
    assert [line.get_label() for line in drawn[0].axes[0].get_lines()] == ["bob/chem"]


def test_plot_sprio_stacks_what_sprio_prints_by_priority_with_users(site, drawn, tmp_path):
    site.ok("job", "modify", "1", "nice=5000", at=AT)  # alice's job 1 now below carol's 2
    path = tmp_path / "sprio.svg"
    site.ok("plot", "sprio", "-o", str(path), at=AT)
    ET.parse(path)
    printed = site.ok("sprio", "-h", "-o", "%Y|%i|%u|%r|%A|%F|%Q", at=AT).stdout.splitlines()
    by_priority = sorted(printed, key=lambda line: -int(line.split("|")[0]))
    (fig,) = drawn
    ax = fig.axes[0]
    stacks = bars(fig)
    assert list(stacks) == ["AGE", "FAIRSHARE", "QOS"]
    assert ticks(ax) == ["2 carol (p1)", "1 alice (p1)"]
    drawn_lines = [
        "|".join(
            [
                *label.replace("(", "").replace(")", "").split(),
                *(f"{stacks[n][i]:.0f}" for n in stacks),
            ]
        )
        for i, label in enumerate(ticks(ax))
    ]
    assert drawn_lines == [" ".join(line.split("|", 1)[1].split()) for line in by_priority]
    assert len(printed) == 2


def test_plot_lsf_draws_what_bqueues_prints(site, drawn, tmp_path):
    site.ok("usage", "add", "user=bob", "account=chem", "raw=7200", "at=2026-04-30T23:00:00")
    site.ok("plot", "lsf", "-o", str(tmp_path / "lsf.svg"), at=AT)
    text = site.ok("bqueues", "-l", "normal", at=AT).stdout
    block = text.split("SHARE_INFO_FOR: normal/\n")[1].splitlines()[1:]
    printed = [line.split()[:3] for line in block if line.strip()]
    (fig,) = drawn
    stacks = bars(fig)
    names = ticks(fig.axes[0], "y")
    assert [
        [n, f"{s:.0f}", f"{p:.3f}"] for n, s, p in zip(names, stacks["SHARES"], stacks["PRIORITY"])
    ] == printed
    assert names[0] == "carol"


def test_plot_bad_input_is_one_line(site, tmp_path, monkeypatch):
    out = str(tmp_path / "x.svg")
    assert "unknown chart 'pie'" in site.fails("plot", "pie", "-o", out, code=2).stderr
    assert "needs -o FILE" in site.fails("plot", "usage", code=2).stderr
    assert "name a .svg or .png" in site.fails("plot", "usage", "-o", "x.pdf", code=1).stderr
    assert (
        "applies to 'plot lsf' only"
        in site.fails("plot", "sprio", "--queue", "normal", "-o", out, code=2).stderr
    )
    assert "LSF queue 'nosuch'" in site.fails("plot", "lsf", "--queue", "nosuch", "-o", out).stderr
    assert (
        "--from before --to"
        in site.fails("plot", "usage", "--from", "now", "--to", "now-1day", "-o", out, at=AT).stderr
    )
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    result = site.fails("plot", "shares", "-o", out, code=1)
    assert result.stderr == "fscli: error: fscli plot needs matplotlib: pip install 'fscli[plot]'\n"
    assert not (tmp_path / "x.svg").exists()


def test_plot_of_a_cluster_with_nothing_to_draw_fails_and_writes_nothing(fscli, tmp_path):
    """A cluster with only its root (shares), an LSF queue with no user to hold its
    default share (lsf), a pending job and no priority weight (sprio): one line and
    exit 1, no empty picture said to be written."""
    fscli.ok("cluster", "add", "c1")
    out = tmp_path / "x.svg"
    result = fscli.fails("plot", "shares", "-o", str(out), code=1)
    assert result.stderr == (
        "fscli: error: nothing to plot: Shares vs usage on cluster c1 (fair_tree) has no data\n"
    )
    fscli.ok("lsf", "queue", "add", "normal", "fairshare=USER_SHARES[[default, 1]]")
    result = fscli.fails("plot", "lsf", "-o", str(out), code=1)
    assert result.stderr.startswith("fscli: error: nothing to plot: ")
    fscli.ok("partition", "add", "p1", "nodes=1", "cpus=4")
    fscli.ok("account", "add", "a")
    fscli.ok("user", "add", "u", "account=a")
    fscli.ok("job", "submit", "user=u", "partition=p1")
    result = fscli.fails("plot", "sprio", "-o", str(out), code=1)
    assert result.stderr.startswith("fscli: error: nothing to plot: ")
    assert not out.exists()
