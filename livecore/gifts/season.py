"""The gifts' part of a simulated season (docs/simulation.md#playing-a-season): a segment's ``gifts``
chance of sending a friend a gift in a session (a friend the player knows of, from the friends' driver;
a giftable resource, an amount up to its ``max_per_gift``), and the claim of the gifts a player
received, as it claims its grants. A gift's grant is claimed as the gift, not as a pending grant."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from livecore.friends.season import FriendsDriver
from livecore.gifts.rules import GIFT_SOURCE_KIND
from livecore.gifts.settings import GIFT_RESOURCE
from livecore.simulation.part import Driver, Fit, FitPeriod, Member, Play, Rate, SeasonPart, Tallies

#: A session's chance to send a gift to a friend.
GIFTS = Rate("gifts", 0.3, {"engaged": 0.5, "regular": 0.3, "casual": 0.1})


class _Gifts(Driver):
    """The gifts each player was sent and has not claimed yet."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.friends = play.driver(FriendsDriver)
        self.giftable = [r for r in play.settings.resources.values() if r.of(GIFT_RESOURCE).giftable]
        self.received: dict[int, list[str]] = {}  # member index -> gift ids sent to it, not yet claimed

    def claim(self, member: Member) -> None:
        for gift_id in self.received.pop(member.index, ()):
            self.play.act("gifts.claim", member.handle.gifts.claim, gift_id)

    def session(self, member: Member) -> None:
        play, rng = self.play, self.play.rng
        friends = self.friends.friends_of(member)
        if not (friends and self.giftable and rng.random() < member.segment.rate(GIFTS)):
            return
        friend = play.member(rng.choice(list(friends)))
        resource = rng.choice(self.giftable)
        amount = rng.randint(1, resource.of(GIFT_RESOURCE).max_per_gift or 10)
        sent = play.act(
            "gifts.send",
            member.handle.gifts.send,
            type=resource.type,
            resource_key=resource.key,
            amount=amount,
            external_player_id=friend.handle,
        )
        if sent is not None:
            self.received.setdefault(friend.index, []).append(sent.gift.gift_id)


def _read(tx: Any, period: FitPeriod) -> dict[str, dict[str, float]]:
    return {
        p: {"sent": n} for p, n in tx.gifts.sent_counts(period.game_id, period.since, period.until).items()
    }


def _rates(tallies: Tallies, period: FitPeriod) -> dict[str, float]:
    """``gifts``: the gifts sent a session (a session sends at most one)."""
    return {GIFTS.name: tallies.sum("sent") / tallies.sessions} if tallies.sessions > 0 else {}


def _features(tallies: Mapping[str, float], sessions: float) -> dict[str, tuple[float, float]]:
    return {"sent": (tallies.get("sent", 0.0), sessions)}


SEASON = SeasonPart(
    rates=(GIFTS,),
    driver=_Gifts,
    claimed=(GIFT_SOURCE_KIND,),
    fit=Fit(read=_read, rates=_rates, features=_features),
)
