"""What every report figure shares: its canvas and size, legends, and scales that stay readable.

Figures are read in a browser window about 1,200 px wide, in a column of
1,120 px. So every figure is drawn at most :data:`WIDTH` inches wide, which at
:data:`DPI` is 1,100 px: it shows at its own size, never shrunk, and a legend
in :data:`LEGEND_SIZE` points stays legible. A figure with more panels grows
taller (more rows of panels), never wider.

Two rules keep one value from flattening the rest:

- :func:`focus` sets a panel's limits from its estimates, and lets an
  interval that would stretch the axis far beyond them run off the edge
  (a hand seen twice has an interval as wide as the whole scale);
- :func:`far_apart` tells when one series' values dwarf the others' (random
  bidding loses a thousand units where a heuristic wins ten), so that the
  figure gives each series a panel and scale of its own, and says so.

Figures are drawn on the Agg canvas directly (``Figure`` + ``FigureCanvasAgg``)
rather than through ``pyplot``: no display is needed, and importing this module
does not switch the backend of a notebook or program that uses it.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

DPI = 110
WIDTH = 10.0
"""Inches: 1,100 px at :data:`DPI`, the width of the report's column less a margin."""
LEGEND_SIZE = 9
"""Points: 14 px at :data:`DPI`."""
CHARACTER_WIDTH = 0.075
"""Inches a tick label's character takes at matplotlib's default 10 points, with room."""
LINE_HEIGHT = 0.17
"""Inches a line of a tick label takes at 10 points."""
NAME_LINE = 24
"""Characters on a line of an entrant's name where a figure names it (:func:`wrapped`)."""
APART = 5.0
"""One series' largest value more than this many times every other's: scales of their own."""
OWN_SCALES = "each panel has its own scale"


def new_figure(height: float, width: float = WIDTH) -> Figure:
    """A figure at most :data:`WIDTH` wide, laid out by matplotlib's constrained layout (which
    keeps titles, labels and an outside legend from overlapping)."""
    fig = Figure(figsize=(min(width, WIDTH), height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def save(fig: Figure, path: Path | str) -> Path:
    """Write ``fig``. A label with characters the plot font lacks (Chinese, emoji) is drawn
    with boxes there, and matplotlib's warning for each missing glyph, about 25 lines with
    its source paths per report, is not passed on: the report's tables and text keep
    every label whole."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font",
                                category=UserWarning)
        fig.savefig(path, dpi=DPI)
    return path


_PIECE = re.compile(r".*?(?:[ ,(/=_]|$)")
"""A name's pieces, each ending after a place a line may break: a space, a comma, an
opening bracket, a slash, ``=`` or ``_``."""


def wrapped(name: str, width: int = NAME_LINE) -> str:
    """``name`` on lines of at most ``width`` characters, for a figure's tick label.

    Why: an entrant without a label is named after its parameters
    (``policy(weights='runs/ppo/final_weights.npz')``); printed on one line it took the
    head-to-head heat map's room and ran into its neighbours under a bar chart. A line
    breaks after a space, a comma, a bracket, a slash, ``=`` or ``_`` where it can, and
    within a word only where the word is longer than a line; the space a line breaks at
    is dropped. The tables print the name whole, on one line."""
    lines: list[str] = []
    line = ""
    for piece in _PIECE.findall(name):
        if line.strip() and len(line + piece.rstrip(" ")) > width:
            lines.append(line.rstrip(" "))
            line = piece.lstrip(" ")
        else:
            line += piece
        while len(line.rstrip(" ")) > width:
            lines.append(line[:width])
            line = line[width:]
    if line or not lines:
        lines.append(line.rstrip(" "))
    return "\n".join(lines)


def names_side_by_side(names: Sequence[str], width: float) -> list[str]:
    """``names`` :func:`wrapped` to each fit its share of ``width`` inches, as tick labels
    set side by side under a figure's bars (about nine tenths of a figure is its axes)."""
    room = 0.9 * width / max(len(names), 1)
    characters = max(6, min(NAME_LINE, int(room / CHARACTER_WIDTH) - 1))
    return [wrapped(name, characters) for name in names]


def panel_title(ax: Axes, text: str, share: float, points: float = 12.0) -> None:
    """Title ``ax`` with ``text`` wrapped to the panel's width: ``share`` of the figure's,
    at ``points`` size. A title naming entrants (``heuristic(aggression=0.75, ...): net
    points of the side``) ran into its neighbour's and off the figure."""
    room = 0.9 * share * ax.get_figure().get_figwidth()
    ax.set_title(wrapped(text, max(12, int(room / (CHARACTER_WIDTH * points / 10)))),
                 fontsize=points)


def name_extent(labels: Sequence[str]) -> tuple[float, int]:
    """The widest line of ``labels`` in inches (at :data:`CHARACTER_WIDTH`), and the most
    lines one of them has: what a figure leaves beside or under its axes for them."""
    lines = [label.split("\n") for label in labels] or [[""]]
    widest = max(len(line) for parts in lines for line in parts)
    return widest * CHARACTER_WIDTH, max(len(parts) for parts in lines)


def errors(df: pl.DataFrame, name: str) -> np.ndarray:
    """Error-bar lengths below and above ``name`` from ``name_lo``/``name_hi`` (0 if unknown)."""
    mid = df[name].to_numpy().astype(float)
    lo = df[f"{name}_lo"].fill_null(np.nan).to_numpy().astype(float)
    hi = df[f"{name}_hi"].fill_null(np.nan).to_numpy().astype(float)
    # clipped at 0: a bound equal to the estimate can land a rounding error past it
    return np.maximum(np.nan_to_num(np.vstack([mid - lo, hi - mid]), nan=0.0), 0.0)


def grid(fig: Figure, count: int, columns: int, **shared: bool) -> list[Axes]:
    """``count`` panels in rows of at most ``columns``; unused cells of the last row hidden."""
    columns = max(1, min(columns, count))
    rows = max(1, math.ceil(count / columns))
    axes = list(np.atleast_1d(fig.subplots(rows, columns, squeeze=False, **shared)).ravel())
    for ax in axes[count:]:
        ax.set_visible(False)
    return axes[:count]


def shared_legend(fig: Figure, axes: Iterable[Axes], title: str, columns: int = 6,
                  order: Sequence[str] | None = None) -> None:
    """One legend for the whole figure, above its panels, under the figure's ``title``: every
    label once, in ``order`` if given, else in the order first drawn. Panels are too small
    to carry a legend each that can be read. The title is the legend's own (a ``suptitle``
    would sit on top of it)."""
    handles: dict[str, Artist] = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    if order is not None:  # the figure's order of names, not the order first drawn
        handles = {label: handles[label] for label in order if label in handles} | handles
    if handles:
        labels = [wrapped(label) for label in handles]
        fig.legend(list(handles.values()), labels, loc="outside upper center",
                   ncols=min(columns, len(handles), legend_columns(labels, fig.get_figwidth())),
                   fontsize=LEGEND_SIZE, frameon=False,
                   title=title, title_fontproperties={"size": "large"})
    else:
        fig.suptitle(title)


LEGEND_ENTRY = 0.8
"""Inches a legend entry takes beside its text: the line or patch, and the gaps."""


def legend_columns(labels: Sequence[str], width: float) -> int:
    """How many of ``labels`` side by side fit a legend ``width`` inches wide: a legend of
    long names set in one row ran off both sides of the figure, and the entries beyond
    its edges, the names of curves, were lost."""
    extent, _ = name_extent(labels)
    return max(1, int(0.95 * width / (extent * LEGEND_SIZE / 10 + LEGEND_ENTRY)))


def footnote(fig: Figure, text: str) -> None:
    """A line of small print under the panels (what a reader must know to read the scale)."""
    fig.supxlabel(text, fontsize=LEGEND_SIZE, color="#444", style="italic")


FLAT = 1e-9
"""A panel whose estimates and intervals all lie within this of one value is flat:
:func:`focus` leaves its scale to matplotlib."""


def focus(ax: Axes, estimates: Sequence[float] | np.ndarray, lows: Sequence[float] | np.ndarray,
          highs: Sequence[float] | np.ndarray, axis: str = "y", keep: float | None = 0.0,
          ) -> bool:
    """Limits that show every estimate, and every interval only as far as it does not stretch
    the axis more than the estimates' own spread on either side; True if one was cut.

    ``keep``: a reference value (0) kept in view when it lies within that reach.
    """
    points = np.asarray(estimates, dtype=float)
    points = points[np.isfinite(points)]
    if points.size == 0:
        return False
    low, high = float(points.min()), float(points.max())
    spread = max(high - low, 0.1 * max(abs(low), abs(high)), 1e-6)
    reach = (low - spread, high + spread)
    bounds = np.concatenate([np.asarray(lows, dtype=float), np.asarray(highs, dtype=float)])
    bounds = bounds[np.isfinite(bounds)]
    if keep is not None and reach[0] <= keep <= reach[1]:
        bounds = np.append(bounds, keep)
    widest_low = min(low, float(bounds.min())) if bounds.size else low
    widest_high = max(high, float(bounds.max())) if bounds.size else high
    shown_low, shown_high = max(reach[0], widest_low), min(reach[1], widest_high)
    if shown_high - shown_low < FLAT:  # one value, no interval: a scale of ±6e-8 read
        ax.autoscale(axis=axis)        # as a scale for dust; matplotlib's own is readable
        return False
    margin = 0.06 * (shown_high - shown_low)
    (ax.set_ylim if axis == "y" else ax.set_xlim)(shown_low - margin, shown_high + margin)
    return widest_low < reach[0] or widest_high > reach[1]


def far_apart(sizes: Sequence[float]) -> bool:
    """Whether the largest of ``sizes`` (each series' largest absolute value, or its spread)
    is more than :data:`APART` times every other one, so that on a shared scale the other
    series would be flat lines."""
    finite = sorted((abs(s) for s in sizes if s is not None and math.isfinite(s)), reverse=True)
    if len(finite) < 2:
        return False
    return finite[0] > APART * max(finite[1], 1e-9)


def set_apart(sizes: dict[str, float]) -> tuple[list[str], list[str]]:
    """Names split into those drawn together and those whose size dwarfs theirs: sorted by
    size, the first step down by more than :data:`APART` times separates the two groups
    (none when there is no such step). Order within each group is kept from ``sizes``."""
    finite = {name: abs(size) for name, size in sizes.items()
              if size is not None and math.isfinite(size)}
    ranked = sorted(finite.values(), reverse=True)
    for i in range(len(ranked) - 1):
        if ranked[i] > APART * max(ranked[i + 1], 1e-9):
            cut = ranked[i]
            apart = [name for name in sizes if finite.get(name, 0.0) >= cut]
            return [name for name in sizes if name not in apart], apart
    return list(sizes), []


def colours(names: Sequence[str]) -> dict[str, str]:
    """One colour per strategy, the same in every panel of a figure."""
    return {name: f"C{i % 10}" for i, name in enumerate(names)}


CUT_NOTE = "intervals that run off a panel are cut at its edge"
