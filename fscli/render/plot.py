"""Charts (``fscli plot``) drawn with matplotlib from :class:`fscli.engine.chart.Chart` data.

matplotlib is an optional extra (``pip install 'fscli[plot]'``) and heavy to import, so it
is imported here only when a chart is drawn, never by ``fscli --help``. Figures are made
without pyplot (no global figure registry, no GUI backend): each one gets an Agg canvas,
which writes PNG and hands SVG to matplotlib's SVG writer. SVG text is drawn as paths
(``svg.fonttype: path``), so a file opens offline with no font to fetch.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from fscli.engine.chart import Chart
from fscli.errors import InvalidValue, NotFound

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FORMATS = {".svg": "svg", ".png": "png"}
EXTRA = "pip install 'fscli[plot]'"
INCHES_PER_LABEL = 0.3
MAX_INCHES = 60  # a PNG of 6,000 pixels at 100 dpi: beyond that, -P is the better view
RC = {"svg.fonttype": "path", "svg.hashsalt": "fscli"}  # offline, and the same ids each run


def file_format(path: str) -> str:
    """The picture format ``path``'s suffix names (``svg`` or ``png``)."""
    fmt = FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise InvalidValue(f"cannot tell the picture format of '{path}': name a .svg or .png file")
    return fmt


def require() -> None:
    """matplotlib is there, or one line that names the extra providing it."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InvalidValue(f"fscli plot needs matplotlib: {EXTRA}") from None


def save(chart: Chart, path: str) -> None:
    """Draw ``chart`` into ``path``, in the format its suffix names; a chart with no
    label or no series (a cluster with no account, a queue with no share holder, no
    weighted factor) is refused, not written as empty axes and a matplotlib warning."""
    fmt = file_format(path)
    if not chart.labels or not chart.series:
        raise NotFound(f"nothing to plot: {chart.title} has no data")
    require()
    import matplotlib

    with matplotlib.rc_context(RC):
        fig = figure(chart)
        try:
            fig.savefig(path, format=fmt, metadata={"Date": None} if fmt == "svg" else None)
        except OSError as exc:
            raise InvalidValue(f"cannot write {path}: {exc.strerror or exc}") from None


def figure(chart: Chart) -> Figure:
    """``chart`` as a matplotlib figure, sized to its number of labels."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    length = min(MAX_INCHES, max(6.0, 2 + INCHES_PER_LABEL * len(chart.labels)))
    across = chart.style == "pairs"  # names down the side, bars across: indents show
    fig = Figure(figsize=(9, length) if across else (length, 6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_title(chart.title)
    DRAW[chart.style](ax, chart)
    ax.grid(True, axis="x" if across else "y", alpha=0.3)
    return fig


def _lines(ax: Axes, chart: Chart) -> None:
    for series in chart.series:
        ax.plot(range(len(chart.labels)), series.values, marker="o", label=series.name)
    _ticks(ax, chart)
    ax.set_ylabel(chart.y_label)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize="small")


def _stacked(ax: Axes, chart: Chart) -> None:
    bottom = [0.0] * len(chart.labels)
    for series in chart.series:
        ax.bar(range(len(chart.labels)), series.values, bottom=bottom, label=series.name)
        bottom = [b + v for b, v in zip(bottom, series.values)]
    _ticks(ax, chart)
    ax.set_ylabel(chart.y_label)
    ax.legend(fontsize="small")


def _pairs(ax: Axes, chart: Chart) -> None:
    """Horizontal bars side by side per label, first label on top; a ``right`` series is
    measured on a second axis along the top."""
    height = 0.8 / len(chart.series)
    handles = []
    for i, series in enumerate(chart.series):
        target = ax.twiny() if series.right else ax
        offset = (i - (len(chart.series) - 1) / 2) * height
        places = [y + offset for y in range(len(chart.labels))]
        colour = f"C{i}"
        handles.append(target.barh(places, series.values, height, label=series.name, color=colour))
        target.set_xlabel(chart.y2_label if series.right else chart.y_label)
    ax.set_yticks(range(len(chart.labels)), chart.labels, fontsize="small")
    ax.set_ylim(len(chart.labels) - 0.5, -0.5)
    ax.legend(handles=handles, fontsize="small", loc="lower right")


def _ticks(ax: Axes, chart: Chart) -> None:
    ax.set_xticks(range(len(chart.labels)), chart.labels, rotation=45, ha="right")


DRAW = {"lines": _lines, "stacked": _stacked, "pairs": _pairs}
