"""The grants' part of a simulated season (docs/simulation.md#playing-a-season): a segment's ``claims``
chance, the pending grants the players are told of (``grant.created`` webhooks), their claims, and the
expiry sweep; and the studio's offers (:mod:`livecore.grants.offers`), which a session may buy after its
events. By its ``claims`` chance a session claims what the player holds: first what the areas'
drivers claim of theirs (:meth:`~livecore.simulation.part.Driver.claim`: its gifts), then its pending
grants, but those claimed otherwise (a part's :attr:`~livecore.simulation.part.SeasonPart.claimed`
source kinds: a gift's grant as the gift, a crate's contents as the crate opens) and those an area's
driver keeps (:meth:`~livecore.simulation.part.Driver.granted`: a crate, opened rather than claimed).

The expiry sweep, a minute sweep on a server, runs at each hour of the season at which a grant has come
due, rather than every minute."""

from __future__ import annotations

import heapq
from typing import Any

from livecore.grants.offers import OFFERS, PRICE_RESPONSE, WEALTH_RESPONSE, Shop
from livecore.grants.rules import GrantKind
from livecore.simulation.part import Driver, Fit, FitPeriod, Member, Play, Rate, SeasonPart, Tallies

#: The grants' expiry sweep, a scheduled job (every minute).
EXPIRY_JOB = "grant_expiry_sweep"
#: A session's chance to claim what the player holds: its gifts and its pending grants.
CLAIMS = Rate("claims", 0.9, {"engaged": 0.98, "regular": 0.9, "casual": 0.7})


class _Grants(Driver):
    """The pending grants each player was told of, and when the grants told of expire."""

    reads = frozenset({"grant.created"})

    def __init__(self, play: Play) -> None:
        self.play = play
        self.claimed = frozenset(kind for part in play.parts for kind in part.claimed)
        self.pending: dict[int, list[str]] = {}  # member index -> its pending reward grant ids
        self.expiries: list[int] = []  # when the grants expire (seconds since the start), a heap
        self.shop = Shop(play)

    def webhook(self, kind: str, payload: Any) -> None:
        play = self.play
        if payload.expires_at is not None:
            heapq.heappush(self.expiries, int((payload.expires_at - play.start).total_seconds()))
        member = play.member_of(payload.player_id)
        if member is None or payload.status != "pending" or payload.source_kind in self.claimed:
            return
        if not any(driver.granted(member, payload) for driver in play.drivers("granted")):
            self.pending.setdefault(member.index, []).append(payload.grant_id)

    def collect(self, member: Member) -> None:
        play = self.play
        if play.rng.random() < member.segment.rate(CLAIMS):
            for driver in play.drivers("claim"):
                driver.claim(member)
            for grant_id in self.pending.pop(member.index, ()):
                if play.act("grants.claim", member.handle.grants.claim, grant_id) is not None:
                    play.rewarded(member)

    def session(self, member: Member) -> None:
        if self.shop.offers:
            self.shop.visit(member)

    def hour(self) -> None:
        expiries, now = self.expiries, self.play.elapsed
        if not expiries or expiries[0] > now:
            return
        while expiries and expiries[0] <= now:
            heapq.heappop(expiries)
        self.play.run(EXPIRY_JOB)


# --- fitting ------------------------------------------------------------------------------------------


def _read(tx: Any, period: FitPeriod) -> dict[str, dict[str, float]]:
    """Each player's reward grants of the period (gifts' grants among them) that waited for a session:
    a grant claimed at the instant it was made (a crate's contents) never waited."""
    waits = tx.grants.waits(period.game_id, GrantKind.REWARD.value, period.since, period.until)
    return {p: {"claimed": w.taken - w.at_once, "waited": w.waited_days} for p, w in waits.items()}


def _rates(tallies: Tallies, period: FitPeriod) -> dict[str, float]:
    """``claims``: a session claims what waits for it by its chance, so a pending grant is claimed at
    ``claims`` times the sessions a day: the chance is the grants claimed over the days they waited, over
    the sessions a day."""
    waited, per_day = tallies.sum("waited"), tallies.sessions / tallies.days if tallies.days else 0.0
    if waited <= 0 or per_day <= 0:
        return {}
    return {CLAIMS.name: tallies.sum("claimed") / waited / per_day}


SEASON = SeasonPart(
    rates=(CLAIMS, PRICE_RESPONSE, WEALTH_RESPONSE),
    tables=(OFFERS,),
    driver=_Grants,
    runs=(EXPIRY_JOB,),
    fit=Fit(read=_read, rates=_rates),
)
