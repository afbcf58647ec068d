"""The report's charts: matplotlib figures rendered to SVG text, inlined in the page (no file, no network).
Each area's part draws its own (``livecore_server/<area>/report.py``) with the tools here.

Each chart is drawn with matplotlib's object API (no pyplot state) and saved with a fixed hash salt per
chart and no date, so one report renders to the same bytes every time, and two charts of one page never
share an element id. Text stays text (``svg.fonttype = none``): the page's own fonts draw it, at the
size the chart was drawn for (the page shows a chart no wider than that, narrower on a narrow screen).

A chart says something at any size of season: a title is wrapped to its axes (:func:`title`), a bar chart
is drawn only when two or more of its bars have a value (:func:`worth_bars`; else the part says it in a
sentence or its table does), a line of a few points marks them (:func:`marker`), and many categories
along an axis are labelled every so many (:func:`categories`).

A named series (a source kind, an offer, a segment's holdings) has one colour on the whole page
(:class:`Colours`, :func:`page`): each name its own, however many there are, so that no two share one.
What the players held is drawn in greys, dashed (:data:`HELD`), apart from the flows' colours.
"""

from __future__ import annotations

import colorsys
import contextvars
import io
import logging
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

import matplotlib
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath
from matplotlib.ticker import MaxNLocator

# matplotlib logs at INFO when it builds its font cache; the CLI logs INFO.
logging.getLogger("matplotlib").setLevel(logging.WARNING)

#: The palette, colour-blind safe (Okabe and Ito); its black is a near-black, as a chart's SVG leaves out a
#: fill of black, the default, and a page's legend then names no colour for it.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#1A1A1A")
#: The colours of named series (:class:`Colours`): matplotlib's tab20, its strong half first and without its
#: greys (what the players held is drawn grey); past them :func:`distinct` makes more.
SERIES = (
    *("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf"),
    *("#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5"),
)
#: What the players held (a percentile, the mean): greys, dark to light, never a series' colour.
HELD = ("#1a1a1a", "#555555", "#8a8a8a", "#b0b0b0")
#: Held lines are dashed, so they read apart from the flows even in a grey print.
HELD_STYLES = ("--", (0, (5, 2, 1, 2)), ":", (0, (1, 1)))
#: The other configuration of a comparison is drawn dashed, in the same colours.
OTHER = "--"
#: Above zero and below it (a net flow).
GAIN, LOSS = "#009E73", "#D55E00"
#: Points a line marks each of (with fewer, a line of two or three points would hardly show).
FEW_POINTS = 12
#: Labels an axis of categories (periods) shows at most; the others are left out, evenly.
MOST_LABELS = 8
#: The room above the axes for a title of one line, and for each further line (inches).
_TITLE, _TITLE_LINE = 0.35, 0.17
#: The page's pixels per inch of a chart: a chart is drawn for this size on the page.
_PX_PER_INCH = 96

_STYLE: dict[str, Any] = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "axes.prop_cycle": cycler(color=PALETTE),
    "legend.frameon": False,
    "legend.fontsize": 8,
}


def svg(
    name: str,
    draw: Callable[[Figure], None],
    *,
    size: tuple[float, float] = (8.0, 3.0),
    legend_rows: int = 0,
    left: float = 0.6,
    hspace: float = 0.5,
) -> str:
    """The SVG text of the figure ``draw`` fills, its ids salted with ``name`` (unique in a page).
    Margins are fixed (in inches, a layout engine measuring every label costs more than the data):
    ``left`` for the y axis's labels, and ``legend_rows`` leaves room below the axes for a figure legend
    (:func:`legend_below`); ``hspace`` parts rows of axes (a share of their height)."""
    style = {**_STYLE, "svg.hashsalt": f"livecore-{name}"}
    with matplotlib.rc_context(cast(Any, style)):
        width, height = size
        fig = Figure(figsize=size)
        fig.subplots_adjust(
            left=left / width,
            right=1 - 0.2 / width,
            top=1 - _TITLE / height,
            bottom=(0.45 + 0.2 * legend_rows) / height,
            wspace=0.32,
            hspace=hspace,
        )
        draw(fig)
        y_from_zero(fig)
        lines = max((ax.get_title().count("\n") + 1 for ax in fig.axes), default=1)
        if lines > 1:  # a wrapped title (:func:`title`): room for its lines above the axes
            fig.subplots_adjust(top=1 - (_TITLE + _TITLE_LINE * (lines - 1)) / height)
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    text = out.getvalue()
    # The page inlines the element: no XML prolog nor DOCTYPE, and a width the page may scale.
    text = text[text.index("<svg") :]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.S)
    text = re.sub(
        r'<svg([^>]*) width="[^"]*" height="[^"]*"',
        rf'<svg\1 class="chart" role="img" style="max-width: {round(width * _PX_PER_INCH)}px"',
        text,
        count=1,
    )
    return text.replace("<svg", f'<svg aria-label="{name}" data-chart="{name}"', 1)


def distinct(count: int) -> list[str]:
    """``count`` colours: :data:`SERIES`, then hues spread by the golden angle, their lightness and
    saturation stepping so that two near hues differ in both; no two the same, and none a grey."""
    found = list(SERIES[:count])
    taken = set(found)
    i = 0
    while len(found) < count:
        hue = (i * 0.381966) % 1.0
        light = (0.38, 0.55, 0.7)[i % 3]
        saturation = (0.75, 0.55)[(i // 3) % 2]
        red, green, blue = colorsys.hls_to_rgb(hue, light, saturation)
        colour = f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"
        if colour not in taken:
            taken.add(colour)
            found.append(colour)
        i += 1
    return found


def nth(i: int) -> str:
    """The ``i``-th colour of a chart's own series (a board's tiers, an event's milestones): the palette's,
    then :func:`distinct`'s past its end, never round again."""
    if i < len(PALETTE):
        return PALETTE[i]
    return distinct(i - len(PALETTE) + 1)[-1]


class Colours:
    """A page's colours of named series: each name, the first time it is asked, the next colour of
    :func:`distinct`, so that no two names share one; :meth:`assign` gives names theirs in their sorted
    order, so that the same names on a page always take the same colours."""

    def __init__(self) -> None:
        self._of: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        if name not in self._of:
            self._of[name] = distinct(len(self._of) + 1)[-1]
        return self._of[name]

    def assign(self, names: Iterable[str]) -> None:
        for name in sorted(set(names)):
            self(name)


_PAGE: contextvars.ContextVar[Colours | None] = contextvars.ContextVar("livecore_page_colours", default=None)


@contextmanager
def page() -> Iterator[Colours]:
    """The colours of one page's charts: every chart drawn within asks :func:`colours` for these."""
    found = Colours()
    token = _PAGE.set(found)
    try:
        yield found
    finally:
        _PAGE.reset(token)


def colours() -> Colours:
    """The page's colours (:func:`page`); a chart drawn outside a page, its own."""
    return _PAGE.get() or Colours()


def legend_below(fig: Figure, *axes: Axes, columns: int = 4, at: float = 0.05) -> None:
    """One legend for ``axes``, in the room :func:`svg` left below them, from ``at`` (a share of the
    figure's width) rightwards."""
    handles: list[Any] = []
    labels: list[str] = []
    for ax in axes:
        h, labelled = ax.get_legend_handles_labels()
        handles += h
        labels += labelled
    if handles:
        fig.legend(handles, labels, loc="lower left", bbox_to_anchor=(at, 0.0), ncols=columns)


def title(ax: Axes, text: str) -> None:
    """``text`` as ``ax``'s title, wrapped between words to the axes' width (a title wider than its axes
    runs into its neighbour's or off the figure); :func:`svg` leaves room above the axes for its lines."""
    fig = ax.get_figure()
    assert isinstance(fig, Figure)
    font = FontProperties(size=matplotlib.rcParams["axes.titlesize"])
    points = ax.get_position().width * fig.get_figwidth() * 72
    words = text.split(" ")
    lines = [words[0]]
    for word in words[1:]:
        longer = f"{lines[-1]} {word}"
        if _TEXT.get_text_width_height_descent(longer, font, ismath=False)[0] <= points:
            lines[-1] = longer
        else:
            lines.append(word)
    ax.set_title("\n".join(lines))


#: Measures a text as the page draws it (the same font, DejaVu Sans), in points.
_TEXT = TextToPath()


def worth_bars(values: Sequence[float]) -> bool:
    """Whether bars of ``values`` say more than a sentence: two or more of them have a value."""
    return sum(1 for v in values if v) >= 2


def marker(points: int) -> str:
    """The marker of a line of ``points`` points: each marked when there are few."""
    return "o" if points <= FEW_POINTS else ""


def categories(ax: Axes, labels: Sequence[str]) -> list[int]:
    """Positions 0, 1, ... of ``labels`` along ``ax``'s x axis, labelled every so many (at most
    :data:`MOST_LABELS` labels, the first always)."""
    every = max(1, math.ceil(len(labels) / MOST_LABELS))
    ax.set_xticks(range(0, len(labels), every), [labels[i] for i in range(0, len(labels), every)])
    return list(range(len(labels)))


#: The axes a chart marks as not starting at 0 (:func:`free_y`).
_FREE_Y = "_livecore_free_y"


def free_y(*axes: Axes) -> None:
    """Mark ``axes`` as read from where their values are, not from 0 (:func:`y_from_zero` leaves them)."""
    for ax in axes:
        setattr(ax, _FREE_Y, True)


def y_from_zero(fig: Figure) -> None:
    """Every y axis of ``fig`` from 0 (a reader compares heights, and an axis from 40 makes 41 look twice
    42's fall), unless marked (:func:`free_y`) or it already holds 0; an inverted axis (lower is better)
    stays inverted."""
    for ax in fig.axes:
        if getattr(ax, _FREE_Y, False):
            continue
        bottom, top = ax.get_ylim()
        if min(bottom, top) > 0:
            ax.set_ylim((0, top) if bottom < top else (bottom, 0))
        elif max(bottom, top) < 0:
            ax.set_ylim((bottom, 0) if bottom < top else (0, top))


def from_zero(*axes: Axes) -> None:
    """The y axis from 0 (counts), with room above the highest value for its marker."""
    for ax in axes:
        top = ax.dataLim.y1
        ax.set_ylim(0, top * 1.08 if top > 0 else 1)


def whole(*axes: Axes) -> None:
    """Whole numbers on the x axis (days, windows)."""
    for ax in axes:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))


def days(rows: Sequence[dict[str, Any]]) -> list[int]:
    return [r["day"] for r in rows]


def overlay(
    ax: Axes, x: Sequence[Any], base: Sequence[float], other: Sequence[float], colour: str, label: str
) -> None:
    mark = marker(len(x))
    ax.plot(x, base, "-", marker=mark, color=colour, label=f"{label} (base)")
    ax.plot(x, other, OTHER, marker=mark, markerfacecolor="none", color=colour, label=f"{label} (other)")
