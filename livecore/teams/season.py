"""The teams' part of a simulated season (docs/simulation.md#playing-a-season): a session plays an open
team event by its segment's ``teams`` chance. On a partner event the player first teams up: it accepts a
partner's invite waiting for it, else invites a friend not yet on a team, who accepts at its next
session (a player invites no friend its invite waits on, and accepts no invite whose sender has teamed
up since: the rules refuse both). On an external event the studio's backend puts the rosters as the window
opens: the players each inclined to play it (by the same chance), in teams of the event's size. A player
plays a team event on a team or not, its attempts its own: the chance is fitted from them
(:func:`~livecore.live_events.season.fit_plays`)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from livecore.friends.season import FriendsDriver
from livecore.live_events.rules import slot_at
from livecore.live_events.season import fit_plays
from livecore.live_events.settings import EVENT_SETTINGS
from livecore.simulation.part import Driver, EventRate, Member, Play, Rate, SeasonPart
from livecore.teams.settings import TEAM_SETTINGS, Formation

#: A session's chance to play each open team event.
TEAMS = Rate("teams", 0.5, {"engaged": 0.7, "regular": 0.4, "casual": 0.15})


def _team_event(event: Any) -> bool:
    return event.of(TEAM_SETTINGS) is not None


def _hints(event: Any) -> list[float]:
    """Its team's goal, shared by the team's members."""
    teams = event.of(TEAM_SETTINGS)
    return [] if teams.goal is None else [teams.goal / teams.size]


class _Teams(Driver):
    """The partner invites each player received and the windows each has a team in."""

    reads = frozenset({"window.opened"})

    def __init__(self, play: Play) -> None:
        self.play = play
        self.friends = play.driver(FriendsDriver)
        # member index -> window key -> invites received: (invite id, from member index)
        self.invites: dict[int, dict[str, list[tuple[str, int]]]] = {}
        self.teamed: dict[int, dict[str, None]] = {}  # member index -> windows it has a team in

    def webhook(self, kind: str, payload: Any) -> None:
        opened = self.play.settings.of(EVENT_SETTINGS).get(payload.event_key)
        formed = opened.of(TEAM_SETTINGS) if opened is not None else None
        if formed is not None and formed.formation is Formation.EXTERNAL:
            self.play.later(self._rosters, opened)

    def before_event(self, member: Member, event: Any) -> None:
        teams = event.of(TEAM_SETTINGS)
        if teams is not None and teams.formation is Formation.PARTNER:
            self._partner(member, event)

    def _partner(self, member: Member, event: Any) -> None:
        """Team up on a partner event: accept an invite waiting, else invite a friend not teamed yet."""
        play = self.play
        slot = slot_at(event, play.start + timedelta(seconds=play.elapsed))
        assert slot is not None
        window = f"{event.key}@{slot.starts_at.isoformat()}"
        teamed = self.teamed.setdefault(member.index, {})
        if window in teamed:
            return
        for invite_id, sender in self.invites.get(member.index, {}).pop(window, []):
            if window in self.teamed.get(sender, {}):
                continue  # its sender teamed up with another: the rules refuse it
            if play.act("teams.accept", member.handle.teams.accept_invite, event.key, invite_id) is not None:
                teamed[window] = None
                self.teamed.setdefault(sender, {})[window] = None
                return
        free = [
            f
            for f in self.friends.friends_of(member)
            if window not in self.teamed.get(f, {}) and not self._invited(member.index, f, window)
        ]
        if not free:
            return
        friend = play.member(play.rng.choice(free))
        sent = play.act("teams.invite", member.handle.teams.invite_partner, event.key, friend.handle)
        if sent is not None:
            invites = self.invites.setdefault(friend.index, {})
            invites.setdefault(window, []).append((sent.invite.invite_id, member.index))

    def _invited(self, sender: int, friend: int, window: str) -> bool:
        """Whether the sender's invite to the friend in the window waits for the friend's answer: another
        is refused while it does."""
        return any(s == sender for _, s in self.invites.get(friend, {}).get(window, ()))

    def _rosters(self, event: Any) -> None:
        play, rng = self.play, self.play.rng
        if slot_at(event, play.start + timedelta(seconds=play.elapsed)) is None:
            return
        chosen = [m for m in play.installed if rng.random() < m.segment.rate(TEAMS)]
        rng.shuffle(chosen)
        size = event.of(TEAM_SETTINGS).size
        put = play.server.teams.put_roster
        for number, first in enumerate(range(0, len(chosen), size)):
            roster = [m.handle for m in chosen[first : first + size]]
            play.act("teams.roster", put, event.key, f"team-{number}", roster)


SEASON = SeasonPart(
    rates=(TEAMS,),
    events=(EventRate(TEAMS, _team_event, _hints),),
    driver=_Teams,
    fit=fit_plays(TEAMS),
)
