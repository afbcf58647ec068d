"""The grants' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): the
grants issued, those still pending at the end and those that expired, by source kind; and, for the
economy's section, the source kind of each grant a ledger entry pays out. The areas whose records are
grants add their counts to the section (the crates' pending crates), before ``pending_by_source``."""

from __future__ import annotations

from collections import Counter
from typing import Any

from livecore.games import GameSettings
from livecore.grants.memory import GrantTables
from livecore.grants.offers import OFFERS, Offer
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
    """Each of the population's offers (livecore/grants/offers.py): its price, how many were bought (the
    grants made for it) and the currency they sank (a grant is made once its price is paid)."""
    declared: dict[str, Offer] = at.season.population.table(OFFERS) or {}
    bought = Counter(g.source_ref_id for g in grants.values() if g.source_ref_id is not None)
    return {
        key: {
            "currency": offer.currency,
            "price": offer.price,
            "purchases": bought[offer.reason],
            "sunk": bought[offer.reason] * offer.price,
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
    population has offers, each offer's sales (``grants.offers``)."""
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
    if section.get("offers"):
        found["grants.offers"] = table(
            ["Offer", "Currency", "Price", "Purchases", "Sunk"],
            [[k, o["currency"], o["price"], o["purchases"], o["sunk"]] for k, o in section["offers"].items()],
        )
    return found


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
    by_segment=by_segment,
    labels={"api": "studio grants"},
    ledger_sources=ledger_sources,
    parts_before="pending_by_source",
)
