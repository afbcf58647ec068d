"""The grants' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): the
grants issued, those still pending at the end and those that expired, by source kind; and, for the
economy's section, the source kind of each grant a ledger entry pays out. The areas whose records are
grants add their counts to the section (the crates' pending crates), before ``pending_by_source``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from livecore.games import GameSettings
from livecore.grants.memory import GrantTables
from livecore.grants.offers import OFFERS, REASON, Offer
from livecore.grants.rules import Grant, GrantStatus
from livecore_server.simulate.section import (
    Column,
    Figures,
    Gathering,
    Label,
    ReportPart,
    Row,
    Table,
    Warning,
    pct,
    row,
    table,
    warning,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Grants left pending: more than this share of those issued is named.
PENDING_GRANTS = 0.25


def grants_of(at: Gathering) -> dict[str, Grant]:
    """The played game's grants by id, read once per report (several parts read them)."""

    def read() -> dict[str, Grant]:
        tables = at.sim.store.tables_of(GrantTables)
        return {g.id: g for (game, _), g in tables.grants.items() if game == at.game_id}

    return at.memo("grants", read)


def pending_at_end(grant: Grant, at: Gathering) -> bool:
    """Still pending when the season ends: not claimed, and not expired by then."""
    return grant.status is GrantStatus.PENDING and (grant.expires_at is None or grant.expires_at > at.end)


def gather(at: Gathering) -> dict[str, Any]:
    """Grants still pending at the end (not expired), by source kind; and those that expired."""
    grants = grants_of(at)
    pending: dict[str, int] = {}
    expired: dict[str, int] = {}
    for grant in grants.values():
        if pending_at_end(grant, at):
            pending[grant.source_kind] = pending.get(grant.source_kind, 0) + 1
        elif grant.status is GrantStatus.EXPIRED or grant.status is GrantStatus.PENDING:
            expired[grant.source_kind] = expired.get(grant.source_kind, 0) + 1
    return {
        "issued": len(grants),
        "pending_at_end": sum(pending.values()),
        "pending_by_source": dict(sorted(pending.items())),
        "expired_by_source": dict(sorted(expired.items())),
        "offers": offers(at, grants),
    }


def offers(at: Gathering, grants: dict[str, Grant]) -> dict[str, dict[str, Any]]:
    """Each of the population's offers (livecore/grants/offers.py): its price (real money's in major
    units), how many were bought (the grants made for it) and the currency they sank (a grant is made once
    its price is paid; None for an offer priced in real money, whose revenue the purchases' part says);
    and its purchases by day (``by_day``, the first day's first, every day of the season) and by segment
    (``by_segment``, every segment in the population's order)."""
    declared: dict[str, Offer] = at.season.population.table(OFFERS) or {}
    reasons = {offer.reason for offer in declared.values()}
    by_day = {reason: [0] * at.days for reason in reasons}
    by_segment = {reason: dict.fromkeys(at.segments, 0) for reason in reasons}
    for grant in grants.values():
        if grant.source_ref_id in reasons:
            by_day[grant.source_ref_id][at.day(grant.created_at) - 1] += 1
            segment = at.segment(grant.player_id)
            if segment is not None:
                by_segment[grant.source_ref_id][segment] += 1
    return {
        key: {
            "currency": offer.currency,
            "price": offer.shown_price,
            "purchases": sum(by_day[offer.reason]),
            "sunk": None if offer.money else sum(by_day[offer.reason]) * offer.price,
            "by_day": by_day[offer.reason],
            "by_segment": by_segment[offer.reason],
        }
        for key, offer in declared.items()
    }


def warnings(section: dict[str, Any], settings: GameSettings, label: Label) -> list[Warning]:
    if section["issued"] and section["pending_at_end"] / section["issued"] > PENDING_GRANTS:
        share = pct(section["pending_at_end"] / section["issued"])
        return [warning("grants", "pending", f"{share} of grants are still pending at the end.")]
    return []


def compare(base: dict[str, Any], other: dict[str, Any]) -> list[Row]:
    rows = [row("grants", "", "pending at the end", base["pending_at_end"], other["pending_at_end"])]
    a, b = base.get("offers", {}), other.get("offers", {})
    # What an offer sank is the economy's row of its sink (``sunk by offer:<key>``).
    for key in [*a, *(k for k in b if k not in a)]:
        rows.append(row("offers", key, "purchases", _bought(a.get(key)), _bought(b.get(key))))
    return rows


def _bought(offer: dict[str, Any] | None) -> Any:
    return None if offer is None else offer["purchases"]


def by_segment(at: Gathering) -> Figures:
    """The grants a player of each segment left pending at the end, on average."""
    pending: dict[str, float] = {}
    for grant in grants_of(at).values():
        segment = at.segment(grant.player_id)
        if segment is not None and pending_at_end(grant, at):
            pending[segment] = pending.get(segment, 0) + 1
    return {"grants pending at the end per player": at.per_player(pending)}


def tables(section: dict[str, Any]) -> dict[str, Table]:
    """The section's counts (``grants``: those issued, pending at the end, and the counts the parts
    within it add), the grants pending at the end by source kind (``grants.pending``) and, when the
    population has offers, each offer's sales (``grants.offers``), its purchases per day
    (``grants.offers.daily``, a column per offer) and by segment (``grants.offers.segments``, a column
    per segment)."""
    counts = {k: v for k, v in section.items() if isinstance(v, int)}
    found = {
        "grants": table(
            [_HEADINGS.get(k, k.replace("_", " ").capitalize()) for k in counts], [list(counts.values())]
        ),
        "grants.pending": table(
            [Column("Pending at the end, by source", "source"), "Grants"],
            section["pending_by_source"].items(),
        ),
    }
    offered = section.get("offers")
    if offered:
        found["grants.offers"] = table(
            ["Offer", "Currency", "Price", "Purchases", "Sunk"],
            [[k, o["currency"], o["price"], o["purchases"], o["sunk"]] for k, o in offered.items()],
        )
        days = len(next(iter(offered.values()))["by_day"])
        found["grants.offers.daily"] = table(
            ["Day", *offered],
            ([day + 1, *(o["by_day"][day] for o in offered.values())] for day in range(days)),
        )
        segments = list(next(iter(offered.values()))["by_segment"])
        found["grants.offers.segments"] = table(
            [Column("Offer", "text"), *segments],
            ([k, *o["by_segment"].values()] for k, o in offered.items()),
        )
    return found


def charts(section: dict[str, Any], label: Label) -> dict[str, str | None]:
    """The offers' purchases per day, a line each, and by segment, a bar each: each offer in the colour
    its sink (``offer:<key>``) takes on the page's economy charts. None where a table says it better: no
    purchase, or a season of one day and one segment."""
    from livecore_server.simulate import charts as c

    offered = section.get("offers")
    if not offered or not any(o["purchases"] for o in offered.values()):
        return {"offers": None} if offered else {}
    colours = c.colours()
    colours.assign(f"{REASON}{k}" for k in offered)
    segments = list(next(iter(offered.values()))["by_segment"])
    days = list(range(1, len(next(iter(offered.values()))["by_day"]) + 1))
    per_day = len(days) > 1
    per_segment = c.worth_bars([n for o in offered.values() for n in o["by_segment"].values()])
    if not per_day and not per_segment:
        return {"offers": None}

    def draw(fig: Figure) -> None:
        axes = list(fig.subplots(1, per_day + per_segment, squeeze=False).flat)
        if per_day:
            daily = axes.pop(0)
            for key, offer in offered.items():
                daily.plot(
                    days,
                    offer["by_day"],
                    "-",
                    marker=c.marker(len(days)),
                    color=colours(f"{REASON}{key}"),
                    label=key,
                )
            c.title(daily, "offers: purchases per day")
            daily.set_xlabel("day")
            c.whole(daily)
            c.from_zero(daily)
        if per_segment:
            bars = axes.pop(0)
            width = 0.8 / len(offered)
            for i, (key, offer) in enumerate(offered.items()):
                bars.bar(
                    [s + i * width for s in range(len(segments))],
                    list(offer["by_segment"].values()),
                    width=width,
                    color=colours(f"{REASON}{key}"),
                    label=None if per_day else key,
                )
            bars.set_xticks([s + 0.4 - width / 2 for s in range(len(segments))], segments)
            c.title(bars, "offers: purchases by segment")
        c.legend_below(fig, *fig.axes)

    legend = -(-len(offered) // 4)
    return {"offers": c.svg("grants-offers", draw, size=(8.0, 3.0 + 0.2 * legend), legend_rows=legend)}


_HEADINGS = {"issued": "Grants issued", "pending_at_end": "Pending at the end"}


def ledger_sources(at: Gathering) -> dict[str, str]:
    """A ledger entry paying a grant out names the grant: its source kind (``event_rank``, ``api``)."""
    return {grant_id: grant.source_kind for grant_id, grant in grants_of(at).items()}


REPORT = ReportPart(
    key="grants",
    page="livecore_server.grants:templates/report.html",
    place=80,
    gather=gather,
    warnings=warnings,
    compare=compare,
    tables=tables,
    charts=charts,
    by_segment=by_segment,
    labels={"api": "studio grants"},
    ledger_sources=ledger_sources,
    parts_before="pending_by_source",
)
