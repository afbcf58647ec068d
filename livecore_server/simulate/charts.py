"""The report's charts: matplotlib figures rendered to SVG text, inlined in the page (no file, no network).

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

from livecore_server.simulate.labels import SOURCE_LABELS

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
    ``legend_rows`` leaves room below the axes for a figure legend (:func:`_legend_below`)."""
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


def _legend_below(fig: Figure, *axes: Axes, columns: int = 4) -> None:
    """One legend for ``axes``, in the room :func:`svg` left below them."""
    handles: list[Any] = []
    labels: list[str] = []
    for ax in axes:
        h, labelled = ax.get_legend_handles_labels()
        handles += h
        labels += labelled
    if handles:
        fig.legend(handles, labels, loc="lower left", bbox_to_anchor=(0.05, 0.0), ncols=columns)


def _whole(*axes: Axes) -> None:
    """Whole numbers on the x axis (days, windows)."""
    for ax in axes:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))


def _days(rows: Sequence[dict[str, Any]]) -> list[int]:
    return [r["day"] for r in rows]


def _label(source: str) -> str:
    return SOURCE_LABELS.get(source, source)


def economy(key: str, resource: dict[str, Any]) -> str:
    """Minted (up) and sunk (down) per day by source kind; the holdings' percentiles at each day's end."""

    def draw(fig: Figure) -> None:
        flows, held = fig.subplots(1, 2, width_ratios=(3, 2))
        rows = resource["days"]
        days = _days(rows)
        minted = sorted(resource["minted"], key=lambda s: -resource["minted"][s])
        sunk = sorted(resource["sunk"], key=lambda s: -resource["sunk"][s])
        base = [0.0] * len(days)
        for i, source in enumerate(minted):
            values = [r["minted"].get(source, 0) for r in rows]
            flows.bar(days, values, bottom=base, color=PALETTE[i % len(PALETTE)], label=f"+ {_label(source)}")
            base = [b + v for b, v in zip(base, values, strict=True)]
        base = [0.0] * len(days)
        for i, source in enumerate(sunk):
            values = [-r["sunk"].get(source, 0) for r in rows]
            colour = SINKS[i % len(SINKS)]
            flows.bar(days, values, bottom=base, color=colour, hatch="//", label=f"- {_label(source)}")
            base = [b + v for b, v in zip(base, values, strict=True)]
        flows.axhline(0, color="#555555", linewidth=0.8)
        flows.set_title(f"{key}: minted (+) and sunk (-) per day")
        flows.set_xlabel("day")
        for p, style in (("p50", "-"), ("p90", "--"), ("p99", ":")):
            held.plot(days, [r["holdings"][p] for r in rows], style, color=PALETTE[0], label=f"holdings {p}")
        held.plot(days, [r["holdings"]["mean"] for r in rows], "-", color=PALETTE[1], label="holdings mean")
        held.set_title(f"{key}: holdings at day's end")
        held.set_xlabel("day")
        _whole(flows, held)
        _legend_below(fig, flows, held)

    rows = -(-(len(resource["minted"]) + len(resource["sunk"]) + 4) // 4)
    return svg(f"economy-{key}", draw, size=(8.0, 3.0 + 0.2 * rows), legend_rows=rows)


def event(key: str, data: dict[str, Any]) -> str:
    """Per window: entrants; completion and milestone rates; the entrants' best scores (p10 to p90)."""

    def draw(fig: Figure) -> None:
        crowd, rates, scores = fig.subplots(1, 3)
        rows = data["windows"]
        x = list(range(1, len(rows) + 1))
        crowd.plot(x, [r["entrants"] for r in rows], color=PALETTE[0])
        crowd.set_title("entrants per window")
        crowd.set_xlabel("window")
        rates.plot(x, [r["completion_rate"] for r in rows], color=PALETTE[0], label="completed")
        for i, milestone in enumerate(data["milestones"]):
            rates.plot(
                x,
                [r["milestone_rates"][milestone] for r in rows],
                color=PALETTE[(i + 1) % len(PALETTE)],
                label=f"milestone {milestone}",
            )
        rates.set_ylim(0, 1.05)
        rates.set_title("share of entrants")
        rates.set_xlabel("window")
        low = [r["scores"]["p10"] for r in rows]
        high = [r["scores"]["p90"] for r in rows]
        scores.fill_between(x, low, high, color=PALETTE[5], alpha=0.4, label="p10 to p90")
        scores.plot(x, [r["scores"]["p50"] for r in rows], color=PALETTE[0], label="p50")
        for i, (milestone, threshold) in enumerate(data["milestones"].items()):
            scores.axhline(threshold, color=PALETTE[(i + 1) % len(PALETTE)], linestyle=":", label=milestone)
        if data["order"] == "asc":
            scores.invert_yaxis()
        scores.set_title(
            "best score" + (" (lower is better)" if data["order"] == "asc" else "") + ", p10-p90"
        )
        scores.set_xlabel("window")
        _whole(crowd, rates, scores)
        _legend_below(fig, rates, scores)

    rows = -(-(2 + 2 * len(data["milestones"]) + 2) // 4)
    return svg(f"event-{key}", draw, size=(9.0, 2.8 + 0.2 * rows), legend_rows=rows)


def leaderboard(key: str, data: dict[str, Any]) -> str:
    """Players per tier in each period (stacked), with the divisions' count above each bar."""

    def draw(fig: Figure) -> None:
        ax = fig.subplots()
        periods = data["periods"]
        x = [p["starts_at"][:10] if p["starts_at"] else "all time" for p in periods]
        tiers = data["tiers"] or [""]
        base = [0] * len(periods)
        for i, tier in enumerate(tiers):
            values = [sum(d["players"] for d in p["divisions"] if d["tier"] == tier) for p in periods]
            if not data["tiers"]:
                values = [p["entries"] for p in periods]
            ax.bar(x, values, bottom=base, color=PALETTE[i % len(PALETTE)], label=tier or "entries")
            base = [b + v for b, v in zip(base, values, strict=True)]
        for i, p in enumerate(periods):
            if p["divisions"]:
                ax.annotate(f"{len(p['divisions'])} div.", (i, base[i]), ha="center", va="bottom", fontsize=7)
        ax.set_title(f"{data['name']}: players per tier and period")
        _legend_below(fig, ax, columns=len(tiers))

    return svg(f"leaderboard-{key}", draw, size=(8.0, 3.0), legend_rows=1)


def lobby(key: str, data: dict[str, Any]) -> str:
    """Time to fill (histogram) and who took the seats."""

    def draw(fig: Figure) -> None:
        fill, seats = fig.subplots(1, 2, width_ratios=(3, 1))
        bins = data["fill_histogram"]
        fill.bar([f"{b['from']}s+" for b in bins], [b["count"] for b in bins], color=PALETTE[0])
        fill.set_title("time to fill (lobbies)")
        players = data["seats"] - data["bot_seats"]
        seats.bar(["players", "bots"], [players, data["bot_seats"]], color=[PALETTE[0], PALETTE[3]])
        seats.set_title("seats")

    return svg(f"lobby-{key}", draw, size=(8.0, 2.6))


def team(key: str, data: dict[str, Any]) -> str:
    """Teams by size (seated members)."""

    def draw(fig: Figure) -> None:
        ax = fig.subplots()
        sizes = data["sizes"]
        ax.bar([str(s) for s in sizes], list(sizes.values()), color=PALETTE[2])
        ax.set_title(f"{data['name']}: teams by members")
        ax.set_xlabel("members")

    return svg(f"team-{key}", draw, size=(4.0, 2.4))


def guilds(data: dict[str, Any]) -> str:
    """Guilds by size."""

    def draw(fig: Figure) -> None:
        ax = fig.subplots()
        bins = data["size_histogram"]
        ax.bar([f"{b['from']}+" for b in bins], [b["count"] for b in bins], color=PALETTE[2])
        ax.set_title("guilds by members")
        ax.set_xlabel("members")

    return svg("guilds", draw, size=(4.0, 2.4))


def gifts(data: dict[str, Any]) -> str:
    """Gifts sent and claimed per day."""

    def draw(fig: Figure) -> None:
        ax = fig.subplots()
        rows = data["days"]
        ax.plot(_days(rows), [r["sent"] for r in rows], color=PALETTE[0], label="sent")
        ax.plot(_days(rows), [r["claimed"] for r in rows], color=PALETTE[2], label="claimed")
        ax.set_title("gifts per day")
        ax.set_xlabel("day")
        _whole(ax)
        _legend_below(fig, ax)

    return svg("gifts", draw, size=(4.0, 2.6), legend_rows=1)


# --- comparisons -----------------------------------------------------------------------------------


def _overlay(
    ax: Axes, x: Sequence[Any], base: Sequence[float], other: Sequence[float], colour: str, label: str
) -> None:
    ax.plot(x, base, "-", color=colour, label=f"{label} (base)")
    ax.plot(x, other, OTHER, color=colour, label=f"{label} (other)")


def compare_economy(key: str, base: dict[str, Any], other: dict[str, Any]) -> str:
    """One resource in both configurations: minted and sunk per day, median and p90 holdings."""

    def draw(fig: Figure) -> None:
        flows, held = fig.subplots(1, 2)
        rows_a, rows_b = base["days"], other["days"]
        days = _days(rows_a)
        _overlay(
            flows,
            days,
            [sum(r["minted"].values()) for r in rows_a],
            [sum(r["minted"].values()) for r in rows_b],
            PALETTE[0],
            "minted",
        )
        _overlay(
            flows,
            days,
            [sum(r["sunk"].values()) for r in rows_a],
            [sum(r["sunk"].values()) for r in rows_b],
            PALETTE[3],
            "sunk",
        )
        flows.set_title(f"{key}: minted and sunk per day")
        flows.set_xlabel("day")
        for p, colour in (("p50", PALETTE[0]), ("p90", PALETTE[1])):
            _overlay(
                held, days, [r["holdings"][p] for r in rows_a], [r["holdings"][p] for r in rows_b], colour, p
            )
        held.set_title(f"{key}: holdings")
        held.set_xlabel("day")
        _whole(flows, held)
        _legend_below(fig, flows, held)

    return svg(f"compare-economy-{key}", draw, size=(8.0, 3.4), legend_rows=2)


def compare_event(key: str, base: dict[str, Any], other: dict[str, Any]) -> str:
    """One event in both configurations: entrants and completion rate per window."""

    def draw(fig: Figure) -> None:
        crowd, rates = fig.subplots(1, 2)
        a, b = base["windows"], other["windows"]
        n = min(len(a), len(b))
        x = list(range(1, n + 1))
        _overlay(
            crowd, x, [r["entrants"] for r in a[:n]], [r["entrants"] for r in b[:n]], PALETTE[0], "entrants"
        )
        crowd.set_title(f"{base['name']}: entrants per window")
        _overlay(
            rates,
            x,
            [r["completion_rate"] for r in a[:n]],
            [r["completion_rate"] for r in b[:n]],
            PALETTE[0],
            "completed",
        )
        for i, milestone in enumerate(m for m in base["milestones"] if m in other["milestones"]):
            _overlay(
                rates,
                x,
                [r["milestone_rates"][milestone] for r in a[:n]],
                [r["milestone_rates"][milestone] for r in b[:n]],
                PALETTE[(i + 1) % len(PALETTE)],
                milestone,
            )
        rates.set_ylim(0, 1.05)
        rates.set_title("share of entrants")
        _whole(crowd, rates)
        _legend_below(fig, crowd, rates)

    rows = -(-(4 + 2 * len(base["milestones"])) // 4)
    return svg(f"compare-event-{key}", draw, size=(8.0, 2.8 + 0.2 * rows), legend_rows=rows)
