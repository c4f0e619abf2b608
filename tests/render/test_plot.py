"""``render.plot``: charts drawn from plain data, no store — the artists carry the data's
numbers, and the files are valid SVG/PNG that fetch nothing."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from fscli.engine.chart import Chart, Series
from fscli.errors import InvalidValue, NotFound

pytest.importorskip("matplotlib")

from fscli.render import plot  # noqa: E402

# matplotlib draws each chart: about a second a test
pytestmark = pytest.mark.slow

PAIRS = Chart(
    "lsf",
    "pairs",
    "queue normal",
    ("alice", "bob", "grp/carol"),
    (Series("SHARES", (3.0, 1.0, 2.0)), Series("PRIORITY", (10.5, 20.25, 5.0), right=True)),
    "shares",
    "dynamic priority",
)
STACKED = Chart(
    "sprio",
    "stacked",
    "factors",
    ("101/p1", "102/p1"),
    (Series("AGE", (100.0, 50.0)), Series("FAIRSHARE", (400.0, 300.5))),
    "weighted priority",
)
LINES = Chart(
    "usage",
    "lines",
    "usage",
    ("2026-04-01 00:00", "2026-04-08 00:00", "2026-04-15 00:00"),
    (Series("physics", (0.0, 3600.0, 1800.0)), Series("chem", (10.0, 5.0, 2.5))),
    "RawUsage",
)


def bars(fig) -> dict[str, list[float]]:
    """{series: bar lengths} of every axis of ``fig`` (horizontal bars: widths)."""
    out = {}
    for ax in fig.axes:
        for container in ax.containers:
            out[container.get_label()] = [
                p.get_width() if container.orientation == "horizontal" else p.get_height()
                for p in container.patches
            ]
    return out


def test_pairs_draw_each_series_on_its_own_axis():
    fig = plot.figure(PAIRS)
    assert bars(fig) == {"SHARES": [3.0, 1.0, 2.0], "PRIORITY": [10.5, 20.25, 5.0]}
    main, right = fig.axes
    assert [t.get_text() for t in main.get_yticklabels()] == ["alice", "bob", "grp/carol"]
    assert (main.get_xlabel(), right.get_xlabel()) == ("shares", "dynamic priority")


def test_stacked_bars_start_where_the_previous_factor_ends():
    ax = plot.figure(STACKED).axes[0]
    age, fairshare = ax.containers
    assert [p.get_height() for p in fairshare.patches] == [400.0, 300.5]
    assert [p.get_y() for p in fairshare.patches] == [100.0, 50.0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["101/p1", "102/p1"]


def test_lines_carry_the_values():
    ax = plot.figure(LINES).axes[0]
    assert {line.get_label(): list(line.get_ydata()) for line in ax.get_lines()} == {
        "physics": [0.0, 3600.0, 1800.0],
        "chem": [10.0, 5.0, 2.5],
    }


def test_svg_parses_and_fetches_nothing(tmp_path):
    path = tmp_path / "c.svg"
    plot.save(PAIRS, str(path))
    text = path.read_text()
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # nothing to fetch: fonts are paths (no @font-face/@import), links point inside the file
    assert "@import" not in text and "font-face" not in text and "<text" not in text
    assert "url(http" not in text
    links = [v for e in root.iter() for k, v in e.attrib.items() if k.endswith("href")]
    assert links and all(link.startswith("#") for link in links)
    plot.save(PAIRS, str(tmp_path / "again.svg"))
    assert (tmp_path / "again.svg").read_text() == text  # no date, fixed ids


def test_png_has_the_png_signature(tmp_path):
    path = tmp_path / "c.PNG"
    plot.save(STACKED, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name", ["c.pdf", "c", "c.svg.txt"])
def test_other_suffixes_are_refused(tmp_path, name):
    with pytest.raises(InvalidValue, match="name a .svg or .png file"):
        plot.save(LINES, str(tmp_path / name))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "chart",
    [
        Chart("shares", "pairs", "Shares on c1", (), (Series("NormShares", ()),), "fraction"),
        Chart("sprio", "stacked", "Factors on c1", ("1/p1",), (), "weighted priority"),
    ],
)
def test_a_chart_with_nothing_in_it_is_refused_and_not_written(tmp_path, chart):
    """No label (no account, no share holder) or no series (no weighted factor): one
    error, no file of empty axes (nor matplotlib's warning about them)."""
    with pytest.raises(NotFound) as caught:
        plot.save(chart, str(tmp_path / "c.svg"))
    assert caught.value.message == f"nothing to plot: {chart.title} has no data"
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_file_is_one_error(tmp_path):
    with pytest.raises(InvalidValue, match="cannot write"):
        plot.save(LINES, str(tmp_path / "no" / "c.svg"))


def test_without_matplotlib_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    with pytest.raises(InvalidValue) as caught:
        plot.require()
    assert caught.value.message == "fscli plot needs matplotlib: pip install 'fscli[plot]'"
