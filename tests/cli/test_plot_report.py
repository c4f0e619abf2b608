"""``fscli plot report``: the bars are the rows ``fscli report user TopUsage`` prints, in its
order and window (the jobs of tests/cli/test_report.py)."""

from __future__ import annotations

import pytest

from tests.cli.test_report import AT, build_jobs

pytest.importorskip("matplotlib")

from fscli.render import plot  # noqa: E402

# matplotlib draws each chart: about a second a test
pytestmark = pytest.mark.slow

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def jobs(fscli, template):
    return template(fscli, build_jobs)


@pytest.fixture
def drawn(monkeypatch):
    kept = []
    real = plot.figure

    def keep(chart):
        kept.append(chart)
        return real(chart)

    monkeypatch.setattr(plot, "figure", keep)
    return kept


def top_usage(jobs, *words: str) -> list[tuple[str, float]]:
    """(USER (ACCOUNT), CPU-seconds) of the report's rows, from its -P text in seconds."""
    out = jobs.ok("report", "user", "TopUsage", *words, "-P", "-n", "-t", "seconds", at=AT)
    fields = [line.split("|") for line in out.stdout.splitlines()]
    return [(f"{f[1]} ({f[3]})", float(f[4])) for f in fields]


@pytest.mark.parametrize(
    "plot_words, report_words",
    [
        ((), ()),
        (("--top", "1"), ("TopCount=1",)),
        (
            ("--from", "2026-11-27T04:00:00", "--to", "2026-11-27T06:00:00"),
            ("start=2026-11-27T04:00:00", "end=2026-11-27T06:00:00"),
        ),
    ],
)
def test_the_bars_are_the_reports_rows(jobs, drawn, tmp_path, plot_words, report_words):
    path = tmp_path / "top.png"
    jobs.ok("plot", "report", *plot_words, "-o", str(path), at=AT)
    assert path.read_bytes()[:8] == PNG
    [chart] = drawn
    rows = top_usage(jobs, *report_words)
    assert list(zip(chart.labels, chart.series[0].values)) == rows
    assert (chart.style, chart.y_label, chart.scale) == ("pairs", "CPU-hours", 3600)


def test_the_default_window_is_sreports_yesterday(jobs, drawn, tmp_path):
    jobs.ok("plot", "report", "-o", str(tmp_path / "top.svg"), at=AT)
    assert drawn[0].title == ("TopUsage on cluster c1, 2026-11-27T00:00:00Z - 2026-11-28T00:00:00Z")


def test_a_window_without_jobs_is_refused(jobs, tmp_path):
    out = str(tmp_path / "top.png")
    result = jobs.fails("plot", "report", "--from", "2026-11-20", "--to", "2026-11-21", "-o", out,
                        at=AT, code=1)  # fmt: skip
    assert result.stderr == (
        "fscli: error: nothing to plot: no job ran on cluster c1 from "
        "2026-11-20T00:00:00Z to 2026-11-21T00:00:00Z\n"
    )
    assert "--level applies to 'plot usage' only" in (
        jobs.fails("plot", "report", "--level", "2", "-o", out, code=2).stderr
    )
