"""The gifts' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): gifts
sent, claimed and expired, in all and per day; what the gifts minted that the population does not say its
players gift; per segment, the gifts a player sent and claimed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from livecore.games import GameSettings
from livecore.gifts.memory import GiftTables
from livecore.gifts.rules import Gift, GiftStatus
from livecore.gifts.season import GIFT
from livecore_server.simulate.section import (
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

#: Gifts expiring unclaimed: more than this share of those sent is named.
EXPIRED_GIFTS = 0.2


def _gifts(at: Gathering) -> list[Gift]:
    return [g for g in at.sim.store.tables_of(GiftTables).gifts.values() if g.game_id == at.game_id]


def gather(at: Gathering) -> dict[str, Any]:
    """Gifts sent, claimed and expired (unclaimed past their expiry), in all and per day sent; and what
    they minted unstated (:func:`_unstated`)."""
    gifts = _gifts(at)
    per_day = [{"day": d + 1, "sent": 0, "claimed": 0} for d in range(at.days)]
    by_resource: dict[str, dict[str, int]] = {}
    claimed = expired = 0
    for gift in gifts:
        per_day[at.day(gift.sent_at) - 1]["sent"] += 1
        row_ = by_resource.setdefault(gift.resource_key, {"gifts": 0, "amount": 0})
        row_["gifts"] += 1
        row_["amount"] += gift.amount
        if gift.status is GiftStatus.CLAIMED:
            claimed += 1
            assert gift.claimed_at is not None
            per_day[at.day(gift.claimed_at) - 1]["claimed"] += 1
        elif gift.expires_at is not None and gift.expires_at <= at.end:
            expired += 1
    return {
        "sent": len(gifts),
        "claimed": claimed,
        "expired": expired,
        "pending": len(gifts) - claimed - expired,
        "by_resource": dict(sorted(by_resource.items())),
        "unstated": _unstated(at, gifts),
        "days": per_day,
    }


def _unstated(at: Gathering, gifts: list[Gift]) -> dict[str, Any]:
    """The gifts of a resource their sender's segment does not say it gifts (its ``gift``; a segment
    without one gifts any giftable resource, at random): the amount of each resource they minted, and the
    segments that sent them, in the population's order."""
    resources: dict[str, int] = {}
    segments: set[str] = set()
    for gift in gifts:
        member = at.season.member_of(gift.sender_id)
        if member is None:
            continue
        stated = member.segment.table(GIFT)
        if stated is None or gift.resource_key not in stated:
            resources[gift.resource_key] = resources.get(gift.resource_key, 0) + gift.amount
            segments.add(member.segment.name)
    return {
        "resources": dict(sorted(resources.items())),
        "segments": [s for s in at.segments if s in segments],
    }


def warnings(section: dict[str, Any], settings: GameSettings, label: Label) -> list[Warning]:
    """Gifts expiring unclaimed; gifts minting what the population does not say its players gift."""
    out: list[Warning] = []
    if section["sent"] and section["expired"] / section["sent"] > EXPIRED_GIFTS:
        share = pct(section["expired"] / section["sent"])
        out.append(warning("gifts", "expired", f"{share} of gifts expire unclaimed."))
    unstated = section["unstated"]
    if unstated["resources"]:
        minted = _listed([f"{amount:,} {key}" for key, amount in unstated["resources"].items()])
        segments = unstated["segments"]
        which = f"segment{'s' if len(segments) > 1 else ''} {_listed(segments)}"
        out.append(
            warning(
                "gifts",
                "gift",
                f"Gifts minted {minted} that the population does not say its players gift: {which} set no"
                " `gift`, so their gifts were of any giftable resource, in random amounts (the model's"
                " guess, not the game's). Set each segment's `gift` to what its players gift"
                " (`gift = { coins = 5 }`), or fit the population from the game's history.",
            )
        )
    return out


def _listed(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def compare(base: dict[str, Any], other: dict[str, Any]) -> list[Row]:
    return [
        row("gifts", "", metric, base[metric], other[metric]) for metric in ("sent", "claimed", "expired")
    ]


def by_segment(at: Gathering) -> Figures:
    """The gifts a player of each segment sent, and those it claimed, on average."""
    sent: dict[str, float] = {}
    claimed: dict[str, float] = {}
    for gift in _gifts(at):
        sender = at.segment(gift.sender_id)
        if sender is not None:
            sent[sender] = sent.get(sender, 0) + 1
        recipient = at.segment(gift.recipient_id)
        if recipient is not None and gift.status is GiftStatus.CLAIMED:
            claimed[recipient] = claimed.get(recipient, 0) + 1
    return {"gifts sent per player": at.per_player(sent), "gifts claimed per player": at.per_player(claimed)}


def chart(section: dict[str, Any], label: Label) -> str | None:
    """Gifts sent and claimed per day; None over one day (its table says it)."""
    from livecore_server.simulate import charts as c

    rows = section["days"]
    if len(rows) < 2:
        return None

    def draw(fig: Figure) -> None:
        ax = fig.subplots()
        mark = c.marker(len(rows))
        ax.plot(c.days(rows), [r["sent"] for r in rows], marker=mark, color=c.PALETTE[0], label="sent")
        ax.plot(c.days(rows), [r["claimed"] for r in rows], marker=mark, color=c.PALETTE[2], label="claimed")
        c.from_zero(ax)
        c.title(ax, "gifts per day")
        ax.set_xlabel("day")
        c.whole(ax)
        c.legend_below(fig, ax)

    return c.svg("gifts", draw, size=(4.0, 2.6), legend_rows=1)


def tables(section: dict[str, Any]) -> dict[str, Table]:
    """The gifts in all (``gifts``) and per day (``gifts.daily``)."""
    return {
        "gifts": table(
            ["Gifts sent", "Claimed", "Expired", "Pending"],
            [[section["sent"], section["claimed"], section["expired"], section["pending"]]],
        ),
        "gifts.daily": table(
            ["Day", "Sent", "Claimed"], ([d["day"], d["sent"], d["claimed"]] for d in section["days"])
        ),
    }


REPORT = ReportPart(
    key="gifts",
    page="livecore_server.gifts:templates/report.html",
    place=70,
    gather=gather,
    warnings=warnings,
    compare=compare,
    charts=chart,
    tables=tables,
    by_segment=by_segment,
    labels={"gift": "gifts", "gift_cost": "gift costs"},
)
