"""``fscli plot`` on a 40-account site (``benchmarks/chart_site.py``): charts that read
well past 30 accounts (issue 35) — a window fitted to the data, one level of the tree,
the top N and "others", no colour twice, hours with k/M on the axis, jobs by priority
with their users, a partition association named as such."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from benchmarks.chart_site import AT, DIVISIONS, build  # noqa: E402
from fscli.render import plot  # noqa: E402
from tests.conftest import Fscli  # noqa: E402
from tests.render.test_plot import bars  # noqa: E402

# matplotlib draws each chart: about a second a test
pytestmark = pytest.mark.slow

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("site") / "site.db")
    build(path)
    return Fscli(path)


@pytest.fixture
def drawn(monkeypatch):
    """The figure and chart the command draws."""
    kept = []
    real = plot.figure

    def keep(chart):
        kept.append((real(chart), chart))
        return kept[-1][0]

    monkeypatch.setattr(plot, "figure", keep)
    return kept


def draw(site, drawn, tmp_path, *words):
    path = tmp_path / "chart.png"
    site.ok("plot", *words, "-o", str(path), at=AT)
    assert path.read_bytes()[:8] == PNG
    return drawn[-1]


def test_usage_window_starts_at_the_data_and_draws_one_level(site, drawn, tmp_path):
    fig, chart = draw(site, drawn, tmp_path, "usage")
    # the 14 days of usage, not a 28-day window half empty
    assert (chart.labels[0], chart.labels[-1]) == ("2026-04-17 00:00", "2026-05-01 00:00")
    # level 1: the four divisions, not the divisions and their departments on one axis
    assert sorted(s.name for s in chart.series) == sorted(DIVISIONS)
    peaks = [max(s.values) for s in chart.series]
    assert peaks == sorted(peaks, reverse=True)  # the largest first
    ax = fig.axes[0]
    assert ax.get_ylabel() == "RawUsage (billing TRES-hours, decayed)"
    line = ax.get_lines()[0]
    assert list(line.get_ydata()) == [v / 3600 for v in chart.series[0].values]  # hours


def test_the_top_ten_departments_and_the_others_summed(site, drawn, tmp_path):
    _, every = draw(site, drawn, tmp_path, "usage", "--level", "2", "--top", "0")
    assert len(every.series) == 40
    fig, chart = draw(site, drawn, tmp_path, "usage", "--level", "2")
    names = [s.name for s in chart.series]
    assert names[:10] == [s.name for s in every.series[:10]]
    assert names[10] == "others (30)"
    rest = every.series[10:]
    others = chart.series[10]
    assert others.other
    assert others.values == pytest.approx(
        [sum(values) for values in zip(*(s.values for s in rest))]
    )
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert any(t.endswith("k") for t in ticks) and not any("e" in t for t in ticks), ticks


def test_forty_lines_forty_colours(site, drawn, tmp_path):
    fig, _ = draw(site, drawn, tmp_path, "usage", "--level", "2", "--top", "0")
    colours = [tuple(line.get_color()) for line in fig.axes[0].get_lines()]
    assert len(colours) == 40 and len(set(colours)) == 40
    fig, _ = draw(site, drawn, tmp_path, "usage", "--level", "2")
    others = fig.axes[0].get_lines()[-1]
    assert (others.get_label(), others.get_color(), others.get_linestyle()) == (
        "others (30)",
        plot.OTHERS_GREY,
        "--",
    )


def test_human_numbers():
    assert [plot.human(v) for v in (0, 950, 1500, 12_000, 3.4e6, 2e9, 0.25)] == [
        "0",
        "950",
        "1.5k",
        "12k",
        "3.4M",
        "2G",
        "0.25",
    ]


def test_sprio_by_priority_with_users(site, drawn, tmp_path):
    fig, chart = draw(site, drawn, tmp_path, "sprio", "--top", "12")
    printed = site.ok("sprio", "-h", "-o", "%i|%u|%r|%Y", at=AT).stdout.splitlines()
    ranked = sorted((line.split("|") for line in printed), key=lambda f: (-int(f[3]), int(f[0])))
    assert chart.labels == tuple(f"{i} {u} ({p})" for i, u, p, _ in ranked[:12])
    assert chart.title.endswith(f"(top 12 of {len(printed)})")
    stacks = bars(fig)
    totals = [sum(stacks[name][i] for name in stacks) for i in range(12)]
    assert totals == sorted(totals, reverse=True)


def test_shares_name_a_partition_association(site, drawn, tmp_path):
    _, chart = draw(site, drawn, tmp_path, "shares", "-a")
    assert "· · aero0 (gpu)" in chart.labels and "· · aero0" in chart.labels
    assert len(set(chart.labels)) == len(chart.labels)


def test_plot_flags_are_checked(site, tmp_path):
    out = str(tmp_path / "x.png")
    assert (
        "--top applies to 'plot usage/sprio/report' only"
        in site.fails("plot", "shares", "--top", "3", "-o", out, code=2).stderr
    )
    assert (
        "no such association at level 9"
        in site.fails("plot", "usage", "--level", "9", "-o", out, at=AT, code=1).stderr
    )
