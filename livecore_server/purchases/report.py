"""The purchases' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): the
revenue, read from the purchases the season's players made (the store's purchases, each normalised to US
cents as the service tracks it; a simulated player buys for real money an offer priced in it,
docs/simulation.md#offers). The section holds cents; the page, the comparison's rows and the figures by
segment show dollars. A season in which nobody paid has no section: a comparison counts its revenue, its
payers and every rate 0.

- ``revenue_cents``: the sum of the purchases' normalised amounts; ``purchases``; ``payers``: the players
  who made one or more;
- ``players``: those who played (a session or more); ``payer_conversion``: payers over them;
- ``arpdau_cents``: revenue over the player-days (for each day, the players who played that day, summed);
- ``arppu_cents``: revenue over the payers;
- ``ltv_cents``: revenue over the season's players (every player installed, played or not);
- ``by_product``: each product's purchases and revenue (an offer's product is its key), the most revenue
  first; ``by_day``: each day's revenue, the first day's first;
- ``cohorts``: by install cohort (a player's install day, by week on a season longer than
  :data:`COHORT_DAYS` days, else by day): its players, payers, conversion, revenue and LTV."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from livecore.purchases.memory import PurchaseTables
from livecore.purchases.rules import Purchase
from livecore_server.simulate.section import (
    Column,
    Figures,
    Gathering,
    ReportPart,
    Row,
    Table,
    number,
    row,
    share,
    table,
)


def purchases_of(at: Gathering) -> list[Purchase]:
    """The purchases the season's players made in the played game, read once per report."""

    def read() -> list[Purchase]:
        tables = at.sim.store.tables_of(PurchaseTables)
        env = at.env.value
        return [
            p
            for (game, in_env, _), p in tables.purchases.items()
            if game == at.game_id and in_env == env and at.season.member_of(p.player_id) is not None
        ]

    return at.memo("purchases", read)


@attrs.frozen
class _Player:
    """A player of the season, as its revenue is told: its id, segment, install day (0 the season's
    first) and whether it played."""

    id: str
    segment: str
    installed: int
    played: bool


def players_of(at: Gathering) -> list[_Player]:
    return [
        _Player(m.handle.id, m.segment.name, m.installed, m.sessions > 0)
        for m in at.season.members
        if m.handle is not None  # installed: a season played in steps may not have reached them
    ]


def _dollars(cents: float | None) -> float | None:
    return None if cents is None else number(cents / 100)


def _tally(players: Iterable[_Player], paid: dict[str, int]) -> dict[str, Any]:
    """Revenue over ``players``: how many, those who played, payers, revenue and the rates of them."""
    count = played = payers = revenue = 0
    for player in players:
        count += 1
        played += player.played
        cents = paid.get(player.id)
        if cents is not None:
            payers += 1
            revenue += cents
    return {
        "players": count,
        "played": played,
        "payers": payers,
        "revenue_cents": revenue,
        "payer_conversion": share(payers, played),
        "ltv_cents": share(revenue, count),
    }


def _paid(purchases: Iterable[Purchase]) -> dict[str, int]:
    """Each payer's revenue in US cents, by player id."""
    paid: dict[str, int] = {}
    for p in purchases:
        paid[p.player_id] = paid.get(p.player_id, 0) + p.normalized_amount_minor
    return paid


def gather(at: Gathering) -> dict[str, Any] | None:
    """The season's revenue (the module's docstring), None where nobody paid."""
    purchases = purchases_of(at)
    if not purchases:
        return None
    paid = _paid(purchases)
    players = players_of(at)
    everyone = _tally(players, paid)
    revenue = everyone["revenue_cents"]
    player_days = sum(at.season.players_by_day)
    return {
        "revenue_cents": revenue,
        "purchases": len(purchases),
        "payers": everyone["payers"],
        "players": everyone["played"],
        "payer_conversion": everyone["payer_conversion"],
        "player_days": player_days,
        "arpdau_cents": share(revenue, player_days),
        "arppu_cents": share(revenue, everyone["payers"]),
        "ltv_cents": everyone["ltv_cents"],
        "by_product": _by_product(purchases),
        "by_day": _by_day(at, purchases),
        "cohorts": _cohorts(at, players, paid),
    }


def _by_product(purchases: Iterable[Purchase]) -> dict[str, dict[str, int]]:
    found: dict[str, dict[str, int]] = {}
    for p in purchases:
        into = found.setdefault(p.product_id, {"purchases": 0, "revenue_cents": 0})
        into["purchases"] += 1
        into["revenue_cents"] += p.normalized_amount_minor
    return dict(sorted(found.items(), key=lambda kv: (-kv[1]["revenue_cents"], kv[0])))


def _by_day(at: Gathering, purchases: Iterable[Purchase]) -> list[int]:
    days = [0] * at.days
    for p in purchases:
        days[at.day(p.purchased_at) - 1] += p.normalized_amount_minor
    return days


def _cohorts(at: Gathering, players: Iterable[_Player], paid: dict[str, int]) -> dict[str, Any]:
    grouped: dict[str, list[_Player]] = {}
    for player in sorted(players, key=lambda p: p.installed):
        grouped.setdefault(at.cohort(player.installed), []).append(player)
    return {
        "by": "week" if at.by_week else "day",
        "cohorts": [{"cohort": name, **_tally(group, paid)} for name, group in grouped.items()],
    }


#: The comparison's rows: each metric, and how it is read of a section (in dollars where it is money).
_ROWS: tuple[tuple[str, Callable[[dict[str, Any]], float | None]], ...] = (
    ("revenue ($)", lambda s: _dollars(s["revenue_cents"])),
    ("payers", lambda s: s["payers"]),
    ("payer conversion", lambda s: s["payer_conversion"]),
    ("ARPDAU ($)", lambda s: _dollars(s["arpdau_cents"])),
    ("LTV ($)", lambda s: _dollars(s["ltv_cents"])),
)


def compare(base: dict[str, Any] | None, other: dict[str, Any] | None) -> list[Row]:
    """The headline numbers; a configuration with no section (nobody paid) has each at 0."""
    return [
        row("revenue", "", metric, _or_none(base, read), _or_none(other, read), absent=0)
        for metric, read in _ROWS
    ]


def _or_none(section: dict[str, Any] | None, read: Callable[[dict[str, Any]], float | None]) -> float | None:
    return 0 if section is None else read(section)


def by_segment(at: Gathering) -> Figures:
    """The revenue a player of each segment brought, in dollars, and the share of those who played who
    paid; none where nobody paid."""
    purchases = purchases_of(at)
    if not purchases:
        return {}
    paid = _paid(purchases)
    grouped: dict[str, list[_Player]] = {name: [] for name in at.segments}
    for player in players_of(at):
        grouped[player.segment].append(player)
    tallies = {name: _tally(players, paid) for name, players in grouped.items()}
    return {
        "revenue per player ($)": {
            name: _dollars(t["ltv_cents"]) if t["players"] else None for name, t in tallies.items()
        },
        "payer conversion": {
            name: t["payer_conversion"] if t["played"] else None for name, t in tallies.items()
        },
    }


def tables(section: dict[str, Any]) -> dict[str, Table]:
    """The headline numbers (``revenue``), the revenue by product (``revenue.products``), by install
    cohort (``revenue.cohorts``) and by day (``revenue.daily``), in dollars."""
    unit = section["cohorts"]["by"]
    return {
        "revenue": table(
            [
                Column("Revenue ($)", "money"),
                "Purchases",
                "Payers",
                "Players who played",
                Column("Payer conversion", "share"),
                Column("ARPDAU ($)", "money"),
                Column("ARPPU ($)", "money"),
                Column("LTV ($)", "money"),
            ],
            [
                [
                    _dollars(section["revenue_cents"]),
                    section["purchases"],
                    section["payers"],
                    section["players"],
                    section["payer_conversion"],
                    _dollars(section["arpdau_cents"]),
                    _dollars(section["arppu_cents"]),
                    _dollars(section["ltv_cents"]),
                ]
            ],
        ),
        "revenue.products": table(
            [Column("Product", "text"), "Purchases", Column("Revenue ($)", "money")],
            [[k, p["purchases"], _dollars(p["revenue_cents"])] for k, p in section["by_product"].items()],
        ),
        "revenue.cohorts": table(
            [
                Column(f"Installed (by {unit})", "text"),
                "Players",
                "Payers",
                Column("Payer conversion", "share"),
                Column("Revenue ($)", "money"),
                Column("LTV ($)", "money"),
            ],
            [
                [
                    c["cohort"],
                    c["players"],
                    c["payers"],
                    c["payer_conversion"],
                    _dollars(c["revenue_cents"]),
                    _dollars(c["ltv_cents"]),
                ]
                for c in section["cohorts"]["cohorts"]
            ],
        ),
        "revenue.daily": table(
            ["Day", Column("Revenue ($)", "money")],
            ([day + 1, _dollars(cents)] for day, cents in enumerate(section["by_day"])),
        ),
    }


REPORT = ReportPart(
    key="revenue",
    page="livecore_server.purchases:templates/report.html",
    place=85,
    gather=gather,
    compare=compare,
    tables=tables,
    by_segment=by_segment,
)
