"""A chart as plain data (``fscli plot``): the API fills it from its views, the renderer
draws it; both sides import it from here, the layer below them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Series:
    """One named line or set of bars, one value per label of its chart; ``right`` draws
    it against a second y axis (another unit than the first)."""

    name: str
    values: tuple[float, ...]
    right: bool = False
    other: bool = False  # the sum of the series left out ("others"): drawn in grey


@dataclass(frozen=True)
class Chart:
    """A chart as data. ``style``: ``lines`` (one line per series over ``labels``),
    ``pairs`` (the series' bars side by side per label) or ``stacked`` (the series' bars
    on top of each other per label). Values are drawn divided by ``scale`` (RawUsage in
    TRES-seconds is drawn in hours: 3600), the axis numbered with k/M/G suffixes."""

    kind: str
    style: str
    title: str
    labels: tuple[str, ...]
    series: tuple[Series, ...]
    y_label: str
    y2_label: str = ""
    scale: float = 1.0

    def values(self, name: str) -> dict[str, float]:
        """``{label: value}`` of the series ``name``."""
        series = next(s for s in self.series if s.name == name)
        return dict(zip(self.labels, series.values))
