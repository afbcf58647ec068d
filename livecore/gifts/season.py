"""The gifts' part of a simulated season (docs/simulation.md#playing-a-season): a segment's ``gifts``
chance of sending a friend a gift in a session (a friend the player knows of, from the friends' driver;
a giftable resource, an amount up to its ``max_per_gift``), and the claim of the gifts a player
received, as it claims its grants. A gift's grant is claimed as the gift, not as a pending grant."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from livecore.friends.season import FriendsDriver
from livecore.gifts.rules import GIFT_SOURCE_KIND
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS
from livecore.simulation.part import Driver, Fit, FitPeriod, Member, Play, Rate, SeasonPart, Tallies

#: A session's chance to send a gift to a friend.
GIFTS = Rate("gifts", 0.3, {"engaged": 0.5, "regular": 0.3, "casual": 0.1})

_DAY = 86_400.0


class _Gifts(Driver):
    """The gifts each player was sent and has not claimed yet."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.friends = play.driver(FriendsDriver)
        self.giftable = [r for r in play.settings.resources.values() if r.of(GIFT_RESOURCE).giftable]
        self.received: dict[int, list[str]] = {}  # member index -> gift ids sent to it, not yet claimed

    def claim(self, member: Member) -> None:
        for gift_id in self.received.pop(member.index, ()):
            if self.play.act("gifts.claim", member.handle.gifts.claim, gift_id) is not None:
                self.play.rewarded(member)

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
    """Each player with a friend in the period: the gifts it sent, the days it was observed, the days its
    sessions could gift (``giftable``) and whether a session of its opened them (``opened``).

    A session gifts only with a friend, so those days run from the player's first friendship (or the
    period's start) to the period's end; a player who never had one tells nothing of its chance and is
    left out. A friendship the player answered began at a session of its, which could gift (a session
    answers before it gifts) and which the sessions a day over those days leave out (they are drawn at
    random, the opening one is not); one begun at the player's first session (within a session's gap of
    its first sighting) is not added, as a segment's sessions count that one already. Each gift holds its
    friend on cooldown, and a session that picks that friend (one of its friends, at random) is refused:
    so the days that could gift are less the cooldown over the player's friends for each gift. A player
    who sent gifts with no friendship left on record (ended since) is taken to have had a friend from
    the period's start."""
    sent = tx.gifts.sent_counts(period.game_id, period.since, period.until)
    befriended = tx.friends.first_friends(period.game_id, period.env, period.until)
    cooldown = period.settings.of(GIFTING_SETTINGS).cooldown_seconds / _DAY
    gap = next((p.sessions.gap for p in period.parts if p.sessions is not None), timedelta())
    out: dict[str, dict[str, float]] = {}
    for player_id, found in befriended.items():
        gifts = sent.get(player_id, 0)
        friended = _days(period.until - max(found.since, period.since))
        held = min(friended, cooldown * gifts / found.friends)
        opened = found.answered and found.since >= max(period.since, found.seen + gap)
        out[player_id] = {
            "sent": gifts,
            "giftable": friended - held,
            "opened": float(opened),
            "observed": _days(period.until - max(found.seen, period.since)),
        }
    days = _days(period.until - period.since)
    for player_id, gifts in sent.items():
        if player_id not in out:
            out[player_id] = {"sent": gifts, "giftable": days, "opened": 0.0, "observed": days}
    return out


def _days(span: timedelta) -> float:
    return max(0.0, span.total_seconds() / _DAY)


def _rates(tallies: Tallies, period: FitPeriod) -> dict[str, float]:
    """``gifts``: the gifts sent over the sessions that could gift (a session sends at most one): the
    segment's sessions a day over the days its players could gift, and the sessions that opened them;
    left out where none could."""
    if tallies.days <= 0:
        return {}
    sessions = tallies.sessions / tallies.days * tallies.sum("giftable") + tallies.sum("opened")
    return {GIFTS.name: tallies.sum("sent") / sessions} if sessions > 0 else {}


def _features(tallies: Mapping[str, float], sessions: float) -> dict[str, tuple[float, float]]:
    """The gifts sent over the player's sessions that could gift: its sessions, by the share of its days
    observed that could gift, and the session that opened them."""
    observed = tallies.get("observed", 0.0)
    share = tallies.get("giftable", 0.0) / observed if observed > 0 else 0.0
    return {"sent": (tallies.get("sent", 0.0), sessions * share + tallies.get("opened", 0.0))}


SEASON = SeasonPart(
    rates=(GIFTS,),
    driver=_Gifts,
    claimed=(GIFT_SOURCE_KIND,),
    fit=Fit(read=_read, rates=_rates, features=_features),
)
