"""The friends' part of a simulated season (docs/simulation.md#playing-a-season): the presence heartbeat
a client sends as each session opens (which counts the player's sessions), a segment's ``friends``,
the friend requests a player sends at its first session (to as many players drawn at random among
those installed by then, but itself and its friends), and its answers, at each session, to the requests
waiting for it. What the players know of their friends is kept here: the areas that build on the friends
read it through :meth:`FriendsDriver.friends_of` (a gift goes to a friend, a partner invite too)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from livecore.simulation.part import Driver, Fit, FitPeriod, Member, Play, Rate, SeasonPart, Tallies

#: The friend requests a player sends at its first session.
FRIENDS = Rate("friends", 5, {"engaged": 12, "regular": 6, "casual": 2}, bounds=(0, 500), whole=True)

_NONE: Mapping[int, None] = MappingProxyType({})


class FriendsDriver(Driver):
    """Each player's friends, as it knows them, and the friend requests waiting for it."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.friends: dict[int, dict[int, None]] = {}  # member index -> its friends' in the order made
        self.asks: dict[int, list[tuple[str, int]]] = {}  # member index -> (request id, from) waiting

    def friends_of(self, member: Member) -> Mapping[int, None]:
        """The indexes of the member's friends, in the order they became friends."""
        return self.friends.get(member.index, _NONE)

    def _befriended(self, one: int, other: int) -> None:
        self.friends.setdefault(one, {})[other] = None
        self.friends.setdefault(other, {})[one] = None

    def launch(self, member: Member) -> None:
        # A client heartbeats as it launches: the session is counted as a server counts it.
        self.play.act("presence.heartbeat", member.handle.presence.heartbeat)

    def first_session(self, member: Member) -> None:
        play, rng = self.play, self.play.rng
        installed = play.installed  # a player meets those who have installed the game
        for _ in range(int(member.segment.rate(FRIENDS))):
            target = installed[rng.randrange(len(installed))]
            other = target.index
            if other == member.index or other in self.friends_of(member):
                continue
            request = member.handle.friends.send_request
            sent = play.act("friends.request", request, external_player_id=target.handle)
            if sent is None:
                continue
            if sent.status == "accepted":
                self._befriended(member.index, other)
            elif sent.request is not None:
                self.asks.setdefault(other, []).append((sent.request.request_id, member.index))

    def answer(self, member: Member) -> None:
        play = self.play
        for request_id, sender in self.asks.pop(member.index, ()):
            if sender in self.friends_of(member):
                continue
            if play.act("friends.accept", member.handle.friends.accept_request, request_id) is not None:
                self._befriended(member.index, sender)


# --- fitting ------------------------------------------------------------------------------------------


def _read(tx: Any, period: FitPeriod) -> dict[str, dict[str, float]]:
    """The players first seen in the period, a day before its end at the latest (one seen before tells
    nothing of its first session), each with the friend requests it sent within a day of its first one:
    a season sends them at the player's first session, which may come days after its first sighting."""
    found = tx.friends.first_day_requests(period.game_id, period.env, period.since, period.until)
    return {player_id: {"newcomers": 1.0, "requests": float(sent)} for player_id, sent in found.items()}


def _rates(tallies: Tallies, period: FitPeriod) -> dict[str, float]:
    """``friends``: the requests a newcomer sent in its first day; left out when no player of the segment
    was first seen in the period."""
    newcomers = tallies.sum("newcomers")
    return {FRIENDS.name: tallies.sum("requests") / newcomers} if newcomers else {}


SEASON = SeasonPart(rates=(FRIENDS,), driver=FriendsDriver, fit=Fit(read=_read, rates=_rates))
