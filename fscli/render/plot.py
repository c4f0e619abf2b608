"""Charts (``fscli plot``) drawn with matplotlib from :class:`fscli.engine.chart.Chart` data.

matplotlib is an optional extra (``pip install 'fscli[plot]'``) and heavy to import, so it
is imported here only when a chart is drawn, never by ``fscli --help``. Figures are made
without pyplot (no global figure registry, no GUI backend): each one gets an Agg canvas,
which writes PNG and hands SVG to matplotlib's SVG writer. SVG text is drawn as paths
(``svg.fonttype: path``), so a file opens offline with no font to fetch.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from fscli.engine.chart import Chart
from fscli.errors import InvalidValue, NotFound

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FORMATS = {".svg": "svg", ".png": "png"}
EXTRA = "pip install 'fscli[plot]'"
INCHES_PER_LABEL = 0.3
MAX_INCHES = 60  # a PNG of 6,000 pixels at 100 dpi: beyond that, -P is the better view
RC: dict[Any, Any] = {
    "svg.fonttype": "path",
    "svg.hashsalt": "fscli",
}  # offline, and the same ids each run


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
    for series, colour in zip(chart.series, palette(chart.series)):
        ax.plot(
            range(len(chart.labels)),
            _scaled(series, chart),
            marker="o",
            markersize=3,
            label=series.name,
            color=colour,
            linestyle="--" if series.other else "-",
        )
    _ticks(ax, chart)
    ax.set_ylabel(chart.y_label)
    ax.set_ylim(bottom=0)
    _human(ax.yaxis)
    _legend(ax, chart)


def _stacked(ax: Axes, chart: Chart) -> None:
    bottom = [0.0] * len(chart.labels)
    for series, colour in zip(chart.series, palette(chart.series)):
        values = _scaled(series, chart)
        ax.bar(range(len(chart.labels)), values, bottom=bottom, label=series.name, color=colour)
        bottom = [b + v for b, v in zip(bottom, values)]
    _ticks(ax, chart)
    ax.set_ylabel(chart.y_label)
    _human(ax.yaxis)
    _legend(ax, chart)


def _legend(ax: Axes, chart: Chart) -> None:
    """Inside the axes for a few series; beside them, in columns, for many."""
    if len(chart.series) <= 6:
        ax.legend(fontsize="small")
    else:
        ax.legend(
            fontsize="small",
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            ncols=1 + len(chart.series) // 25,
        )


OTHERS_GREY = "#9a9a9a"


def palette(series) -> list:
    """A colour per series, none twice: matplotlib's ten (tab10) up to 10 series, its
    twenty paired ones (tab20) up to 20, beyond that hues spread evenly around the colour
    wheel at two lightnesses; "others" in grey."""
    from matplotlib import colormaps
    from matplotlib.colors import hsv_to_rgb

    own = [s for s in series if not s.other]
    n = len(own)
    if n <= 10:
        colours = [colormaps["tab10"](i) for i in range(n)]
    elif n <= 20:
        colours = [colormaps["tab20"](i) for i in range(n)]
    else:
        colours = [
            tuple(hsv_to_rgb((i / n, 0.75, 0.95 if i % 2 else 0.6))) + (1.0,) for i in range(n)
        ]
    found = iter(colours)
    return [OTHERS_GREY if s.other else next(found) for s in series]


def human(value: float) -> str:
    """An axis number as people read it: 950, 1.5k, 12k, 3.4M, 2G (no ``1e8``)."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:.3g}"


def _human(axis) -> None:
    """Ticks of ``axis`` read as :func:`human` numbers."""
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda value, _: human(value)))


def _scaled(series, chart: Chart) -> list[float]:
    """A series' values in the axis' unit (``chart.scale``: seconds drawn as hours), so
    that the ticks fall on round numbers of that unit."""
    return [v / chart.scale for v in series.values]


def _pairs(ax: Axes, chart: Chart) -> None:
    """Horizontal bars side by side per label, first label on top; a ``right`` series is
    measured on a second axis along the top."""
    height = 0.8 / len(chart.series)
    colours = palette(chart.series)
    handles = []
    for i, series in enumerate(chart.series):
        target = ax.twiny() if series.right else ax
        offset = (i - (len(chart.series) - 1) / 2) * height
        places = [y + offset for y in range(len(chart.labels))]
        colour = colours[i]
        handles.append(
            target.barh(places, _scaled(series, chart), height, label=series.name, color=colour)
        )
        target.set_xlabel(chart.y2_label if series.right else chart.y_label)
        _human(target.xaxis)
    ax.set_yticks(range(len(chart.labels)), chart.labels, fontsize="small")
    ax.set_ylim(len(chart.labels) - 0.5, -0.5)
    ax.legend(handles=handles, fontsize="small", loc="lower right")


def _ticks(ax: Axes, chart: Chart) -> None:
    ax.set_xticks(range(len(chart.labels)), chart.labels, rotation=45, ha="right")


DRAW = {"lines": _lines, "stacked": _stacked, "pairs": _pairs}
