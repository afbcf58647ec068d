"""The report's charts: matplotlib figures rendered to SVG text, inlined in the page (no file, no network).
Each area's part draws its own (``livecore_server/<area>/report.py``) with the tools here.

Each chart is drawn with matplotlib's object API (no pyplot state) and saved with a fixed hash salt per
chart and no date, so one report renders to the same bytes every time, and two charts of one page never
share an element id. Text stays text (``svg.fonttype = none``): the page's own fonts draw it.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable, Sequence
from typing import Any, cast

import matplotlib
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

# matplotlib logs at INFO when it builds its font cache; the CLI logs INFO.
logging.getLogger("matplotlib").setLevel(logging.WARNING)

#: The palette, colour-blind safe (Okabe and Ito), then greys.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
#: What sinks a resource is drawn hatched, in colours of its own.
SINKS = ("#7f7f7f", "#a1262b", "#3f3f3f", "#c49c94", "#8c564b", "#bcbd22")
#: The other configuration of a comparison is drawn dashed, in the same colours.
OTHER = "--"

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
    name: str, draw: Callable[[Figure], None], *, size: tuple[float, float] = (8.0, 3.0), legend_rows: int = 0
) -> str:
    """The SVG text of the figure ``draw`` fills, its ids salted with ``name`` (unique in a page).
    Margins are fixed (in inches, a layout engine measuring every label costs more than the data);
    ``legend_rows`` leaves room below the axes for a figure legend (:func:`legend_below`)."""
    style = {**_STYLE, "svg.hashsalt": f"livecore-{name}"}
    with matplotlib.rc_context(cast(Any, style)):
        width, height = size
        fig = Figure(figsize=size)
        fig.subplots_adjust(
            left=0.6 / width,
            right=1 - 0.2 / width,
            top=1 - 0.35 / height,
            bottom=(0.45 + 0.2 * legend_rows) / height,
            wspace=0.32,
        )
        draw(fig)
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    text = out.getvalue()
    # The page inlines the element: no XML prolog nor DOCTYPE, and a width the page may scale.
    text = text[text.index("<svg") :]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.S)
    text = re.sub(
        r'<svg([^>]*) width="[^"]*" height="[^"]*"', r'<svg\1 class="chart" role="img"', text, count=1
    )
    return text.replace("<svg", f'<svg aria-label="{name}" data-chart="{name}"', 1)


def legend_below(fig: Figure, *axes: Axes, columns: int = 4) -> None:
    """One legend for ``axes``, in the room :func:`svg` left below them."""
    handles: list[Any] = []
    labels: list[str] = []
    for ax in axes:
        h, labelled = ax.get_legend_handles_labels()
        handles += h
        labels += labelled
    if handles:
        fig.legend(handles, labels, loc="lower left", bbox_to_anchor=(0.05, 0.0), ncols=columns)


def whole(*axes: Axes) -> None:
    """Whole numbers on the x axis (days, windows)."""
    for ax in axes:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))


def days(rows: Sequence[dict[str, Any]]) -> list[int]:
    return [r["day"] for r in rows]


def overlay(
    ax: Axes, x: Sequence[Any], base: Sequence[float], other: Sequence[float], colour: str, label: str
) -> None:
    ax.plot(x, base, "-", color=colour, label=f"{label} (base)")
    ax.plot(x, other, OTHER, color=colour, label=f"{label} (other)")
