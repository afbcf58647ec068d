"""The economy's part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): per
resource and day, what was minted and sunk by source kind and what the players held."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from livecore.economy.memory import EconomyTables
from livecore.economy.rules import Reason
from livecore.economy.season import SPENT, spent
from livecore.games import GameSettings
from livecore_server.simulate.section import (
    Gathering,
    Label,
    ReportPart,
    Row,
    Warning,
    keys,
    pct,
    percentiles,
    row,
    warning,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Where a ledger entry that is not a grant's came from, by its reason; any other reason (one an area adds,
#: ``gift_cost``) is its own source.
SINK_OR_SOURCE: dict[Reason, str] = {
    Reason.SERVER_CREDIT: "studio_credit",
    Reason.SERVER_GRANT: "studio_credit",
    Reason.SERVER_DEBIT: "spend",
    Reason.SERVER_REVOKE: "spend",
    Reason.CLIENT_DEBIT: "spend",
    Reason.CLIENT_CONSUME: "spend",
    Reason.ENTRY_COST: "entry_cost",
    Reason.MIGRATION: "migration",
    Reason.OPERATOR_EDIT: "operator_edit",
}

#: One source minting more than this share of a resource is named.
DOMINANT_SOURCE = 0.6
#: A resource sinking less than this share of what is minted inflates.
LOW_SINK = 0.1


def gather(at: Gathering) -> dict[str, Any]:
    """Per resource and day: minted and sunk by source kind, and the holdings' percentiles over every
    player at the day's end (a player holding none holds 0)."""
    settings, days = at.settings, at.days
    keys_ = list(settings.resources)
    players = at.season.players
    minted = {k: [dict[str, int]() for _ in range(days)] for k in keys_}
    sunk = {k: [dict[str, int]() for _ in range(days)] for k in keys_}
    holdings: dict[str, list[dict[str, float]]] = {k: [] for k in keys_}
    balances: dict[str, dict[str, int]] = {k: {} for k in keys_}
    sources = at.ledger_sources()
    day_end = at.start + timedelta(days=1)
    day = 0
    for entry in at.sim.store.tables_of(EconomyTables).entries:
        if entry.game_id != at.game_id or entry.resource_key not in minted:
            continue
        while entry.created_at >= day_end and day < days - 1:
            _snapshot(balances, holdings, players)
            day += 1
            day_end += timedelta(days=1)
        balances[entry.resource_key][entry.player_id] = entry.balance_after
        if entry.delta == 0:
            continue
        reason = entry.reason
        if reason is Reason.GRANT:
            source = sources.get(entry.source_ref_id or "", "grant")
        else:
            source = SINK_OR_SOURCE.get(reason, reason.value)
        into = minted if entry.delta > 0 else sunk
        bucket = into[entry.resource_key][day]
        bucket[source] = bucket.get(source, 0) + abs(entry.delta)
    while day < days:
        _snapshot(balances, holdings, players)
        day += 1
    spending = set(spent(at.season.population.table(SPENT), settings))  # looked up once per resource
    out: dict[str, Any] = {}
    for key in keys_:
        total_minted: dict[str, int] = {}
        total_sunk: dict[str, int] = {}
        for m in minted[key]:
            for s, v in m.items():
                total_minted[s] = total_minted.get(s, 0) + v
        for m in sunk[key]:
            for s, v in m.items():
                total_sunk[s] = total_sunk.get(s, 0) + v
        out[key] = {
            "type": settings.resources[key].type.value,
            "spent_by_players": key in spending,
            "minted": dict(sorted(total_minted.items())),
            "sunk": dict(sorted(total_sunk.items())),
            "days": [
                {
                    "day": d + 1,
                    "minted": dict(sorted(minted[key][d].items())),
                    "sunk": dict(sorted(sunk[key][d].items())),
                    "holdings": holdings[key][d],
                }
                for d in range(days)
            ],
        }
    return out


def _snapshot(
    balances: dict[str, dict[str, int]], holdings: dict[str, list[dict[str, float]]], players: int
) -> None:
    for key, held in balances.items():
        values = list(held.values())
        values += [0] * max(0, players - len(values))
        holdings[key].append(percentiles(values))


def warnings(section: dict[str, Any], settings: GameSettings, label: Label) -> list[Warning]:
    """A source minting most of a resource, or all of it; a resource players spend that hardly sinks."""
    out: list[Warning] = []
    for key, resource in section.items():
        minted = sum(resource["minted"].values())
        sunk = sum(resource["sunk"].values())
        if not minted:
            continue
        source, amount = max(resource["minted"].items(), key=lambda kv: (kv[1], kv[0]))
        if amount / minted > DOMINANT_SOURCE and len(resource["minted"]) > 1:
            out.append(
                warning(
                    "economy",
                    key,
                    f"{label(source).capitalize()} mint {pct(amount / minted)} of all {key} "
                    f"({amount:,} of {minted:,}): one reward source drives this resource.",
                )
            )
        elif len(resource["minted"]) == 1:
            out.append(
                warning("economy", key, f"All {key} ({minted:,}) comes from one source: {label(source)}.")
            )
        if resource["spent_by_players"] and sunk < LOW_SINK * minted:
            out.append(
                warning(
                    "economy",
                    key,
                    f"Only {pct(sunk / minted)} of the {key} minted is sunk ({sunk:,} of {minted:,}): "
                    "balances only grow.",
                )
            )
    return out


_METRICS: tuple[tuple[str, Callable[[dict[str, Any]], float]], ...] = (
    ("minted", lambda r: sum(r["minted"].values())),
    ("sunk", lambda r: sum(r["sunk"].values())),
    ("holdings p50 at the end", lambda r: r["days"][-1]["holdings"]["p50"]),
    ("holdings p90 at the end", lambda r: r["days"][-1]["holdings"]["p90"]),
)


def compare(base: dict[str, Any], other: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    for key in keys(base, other):
        a, b = base.get(key), other.get(key)
        for metric, pick in _METRICS:
            rows.append(row("economy", key, metric, pick(a) if a else None, pick(b) if b else None))
    return rows


def moved(resource: dict[str, Any]) -> bool:
    """Whether anything of a resource was minted, sunk or held: the page draws a chart of those only, and
    names the others in one line (a manifest may declare thousands no player touches, and a chart costs a
    fifth of a second)."""
    return bool(resource["minted"] or resource["sunk"]) or any(d["holdings"]["max"] for d in resource["days"])


def charts(section: dict[str, Any], label: Label) -> dict[str, str]:
    return {k: _chart(k, r, label) for k, r in section.items() if moved(r)}


def compare_charts(base: dict[str, Any], other: dict[str, Any], label: Label) -> dict[str, str]:
    return {
        k: _compare_chart(k, base[k], other[k])
        for k in base
        if k in other and (moved(base[k]) or moved(other[k]))
    }


def _chart(key: str, resource: dict[str, Any], label: Label) -> str:
    """Minted (up) and sunk (down) per day by source kind; the holdings' percentiles at each day's end."""
    from livecore_server.simulate import charts as c

    def draw(fig: Figure) -> None:
        flows, held = fig.subplots(1, 2, width_ratios=(3, 2))
        rows = resource["days"]
        days = c.days(rows)
        minted = sorted(resource["minted"], key=lambda s: -resource["minted"][s])
        sunk = sorted(resource["sunk"], key=lambda s: -resource["sunk"][s])
        base = [0.0] * len(days)
        for i, source in enumerate(minted):
            values = [r["minted"].get(source, 0) for r in rows]
            flows.bar(
                days, values, bottom=base, color=c.PALETTE[i % len(c.PALETTE)], label=f"+ {label(source)}"
            )
            base = [b + v for b, v in zip(base, values, strict=True)]
        base = [0.0] * len(days)
        for i, source in enumerate(sunk):
            values = [-r["sunk"].get(source, 0) for r in rows]
            colour = c.SINKS[i % len(c.SINKS)]
            flows.bar(days, values, bottom=base, color=colour, hatch="//", label=f"- {label(source)}")
            base = [b + v for b, v in zip(base, values, strict=True)]
        flows.axhline(0, color="#555555", linewidth=0.8)
        flows.set_title(f"{key}: minted (+) and sunk (-) per day")
        flows.set_xlabel("day")
        for p, style in (("p50", "-"), ("p90", "--"), ("p99", ":")):
            held.plot(
                days, [r["holdings"][p] for r in rows], style, color=c.PALETTE[0], label=f"holdings {p}"
            )
        held.plot(days, [r["holdings"]["mean"] for r in rows], "-", color=c.PALETTE[1], label="holdings mean")
        held.set_title(f"{key}: holdings at day's end")
        held.set_xlabel("day")
        c.whole(flows, held)
        c.legend_below(fig, flows, held)

    rows = -(-(len(resource["minted"]) + len(resource["sunk"]) + 4) // 4)
    return c.svg(f"economy-{key}", draw, size=(8.0, 3.0 + 0.2 * rows), legend_rows=rows)


def _compare_chart(key: str, base: dict[str, Any], other: dict[str, Any]) -> str:
    """One resource in both configurations: minted and sunk per day, median and p90 holdings."""
    from livecore_server.simulate import charts as c

    def draw(fig: Figure) -> None:
        flows, held = fig.subplots(1, 2)
        rows_a, rows_b = base["days"], other["days"]
        days = c.days(rows_a)
        c.overlay(
            flows,
            days,
            [sum(r["minted"].values()) for r in rows_a],
            [sum(r["minted"].values()) for r in rows_b],
            c.PALETTE[0],
            "minted",
        )
        c.overlay(
            flows,
            days,
            [sum(r["sunk"].values()) for r in rows_a],
            [sum(r["sunk"].values()) for r in rows_b],
            c.PALETTE[3],
            "sunk",
        )
        flows.set_title(f"{key}: minted and sunk per day")
        flows.set_xlabel("day")
        for p, colour in (("p50", c.PALETTE[0]), ("p90", c.PALETTE[1])):
            c.overlay(
                held, days, [r["holdings"][p] for r in rows_a], [r["holdings"][p] for r in rows_b], colour, p
            )
        held.set_title(f"{key}: holdings")
        held.set_xlabel("day")
        c.whole(flows, held)
        c.legend_below(fig, flows, held)

    return c.svg(f"compare-economy-{key}", draw, size=(8.0, 3.4), legend_rows=2)


REPORT = ReportPart(
    key="economy",
    place=10,
    page="livecore_server.economy:templates/report.html",
    compare_page="livecore_server.economy:templates/compare.html",
    gather=gather,
    warnings=warnings,
    compare=compare,
    charts=charts,
    compare_charts=compare_charts,
    labels={"studio_credit": "studio credits", "spend": "spending"},
)
