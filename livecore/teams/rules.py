"""Event teams and partners: players play an event window together, as a team whose score is the sum of
its members' contributions (docs/teams.md).

A team belongs to one window of one event and is named by its key there; its id is derived from the two,
so the studio's roster PUT, a read and another process name it alike. The studio forms ``external`` teams
(the roster PUT); ``partner`` teams are pairs formed when an invite between two friends is accepted. A
player sits on at most one team per window. A member's contribution is its best attempt score in the
window (the event's board rule); the team's score moves with it, and crosses the team's milestones and
goal, each once.

The records are here; the rules follow them.

Scores. A team's score is the sum of its seated members' contributions, plus those of members who left
unless ``on_leave = "remove_contribution"``.
Only ``order = "desc"`` events have teams (the manifest refuses others): a sum grows towards a goal, and
a higher contribution is a better one. Milestones and the goal are crossed when the score reaches their
threshold (``>=``), each once per team, whatever the score does afterwards; with ``on_complete =
"stop_contributions"`` the score stops at the goal and nothing moves it afterwards.

Roster PUT refusals (the studio's ``external`` teams), checked in this order (the first that applies
answers; the order a lobby push shares, ``livecore.live_events.rosters``, but for an empty roster):

1. ``externalPlayerIds`` names a player twice: 400 ``invalid_request``;
2. more players than the event's ``teams.size``: 400 ``invalid_request``;
3. a player holds a seat on another team of the window: 409 ``locked_elsewhere`` (needs the store:
   :func:`check_not_locked`).

An empty roster is allowed: it kicks everybody (the studio's one way to empty a team; the team stays,
readable, its score by ``on_leave``).

Partner invite refusals, in this order: inviting oneself 400 ``invalid_request``; not friends 403
``not_friends``; either player already on a team of the window 409 ``already_on_team``; an invite pending
between the two (either way) 409 ``invite_pending``. Accepting: not the invitee (or no such invite) 404
``invite_not_found``; accepted already 409 ``already_on_team`` (accepting made a team); expired 410
``invite_expired``; either player already on a team of the window 409 ``already_on_team``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import attrs

from livecore.clock import from_millis
from livecore.errors import LivecoreError, invalid_request
from livecore.friends.errors import NOT_FRIENDS
from livecore.games import Entry, Milestone, Order
from livecore.ids import derived_id, new_id
from livecore.limits import Count, on_a_board, saturate
from livecore.live_events.boards import band_rewards, paid_ranks
from livecore.live_events.errors import EVENT_NOT_OPEN
from livecore.live_events.rosters import Seating, check_seated_elsewhere, check_seating
from livecore.live_events.rules import (
    WINDOW_ID_PREFIX,
    Window,
    WindowStatus,
    event_id,
    next_start,
    slot_at,
    window_id,
)
from livecore.live_events.settings import EventSettings
from livecore.players.rules import Player
from livecore.rand import RandomSource
from livecore.scope import Environment
from livecore.teams.errors import (
    ALREADY_ON_TEAM,
    INVITE_EXPIRED,
    INVITE_NOT_FOUND,
    INVITE_PENDING,
    LOCKED_ELSEWHERE,
)
from livecore.teams.settings import TEAM_SETTINGS, Formation, OnComplete, OnLeave, TeamSettings

# The id prefixes of the area's records, claimed in its declaration (``Area.id_prefixes``).
TEAM_ID_PREFIX = "team"  # an event team: derived from its window and key
TEAM_SEAT_ID_PREFIX = "tms"  # a member's seat on a team
INVITE_ID_PREFIX = "inv"  # a partner invite


# A team milestone pays every seated member in the progress write that crosses it, and a window's close
# pays every member of each ranked team: a team's size bounds those transactions.
TEAM_SIZE_MAX = 1_000
#: The players of a roster PUT: none at all empties the team.
ROSTER_PLAYERS = Count(max_items=TEAM_SIZE_MAX, unique=True)
INVITE_TTL = timedelta(hours=24)  # of service time


class LeaveReason(enum.StrEnum):
    LEFT = "left"
    KICKED = "kicked"  # dropped from the roster by the studio's PUT


@attrs.frozen
class Team:
    """A team of one window. ``score`` is its members' contributions summed (those of members who left
    too, unless the event removes them), frozen at the goal when the event stops contributions;
    ``milestones`` are the keys of the team milestones it unlocked; ``final_rank`` is set when its window
    closes, on a team board."""

    id: str
    game_id: str
    env: Environment
    event_key: str
    event_id: str
    window_id: str
    key: str
    name: str | None
    formation: Formation
    goal: float | None
    created_at: datetime
    attributes: dict[str, Any] | None = None
    member_count: int = 0
    score: float = attrs.field(default=0.0, validator=on_a_board)
    completed_at: datetime | None = None
    milestones: tuple[str, ...] = ()
    final_rank: int | None = None
    finalized_at: datetime | None = None

    @property
    def completed(self) -> bool:
        return self.completed_at is not None


@attrs.frozen
class TeamMember:
    """A player's seat on a team (``seat_id``, a ``tms_`` id). ``contribution`` is the player's best attempt
    score in the window; ``left_at`` is set once the player left or was kicked (the seat stays, for the
    team's score and the read)."""

    seat_id: str
    team_id: str
    window_id: str
    player_id: str
    external_player_id: str
    joined_at: datetime
    contribution: float = 0.0
    left_at: datetime | None = None
    left_reason: LeaveReason | None = None

    @property
    def seated(self) -> bool:
        return self.left_at is None


@attrs.frozen
class PartnerInvite:
    """One player's invitation of a friend to pair up for an event's window; accepting it forms their team
    (``team_id``). It expires 24 hours of service time after it was sent."""

    id: str
    game_id: str
    env: Environment
    event_key: str
    window_id: str
    from_player_id: str
    from_external_id: str
    to_player_id: str
    to_external_id: str
    created_at: datetime
    expires_at: datetime
    accepted_at: datetime | None = None
    team_id: str | None = None


# --- ids and new records -------------------------------------------------------------------------------


def team_id(window_id_: str, starts_at: datetime, key: str) -> str:
    """The team ``key`` of the window ``window_id_`` (which starts at ``starts_at``): derived, so it names
    the team before any write (a roster PUT may target a window not yet recorded)."""
    return derived_id(TEAM_ID_PREFIX, starts_at, window_id_, key)


def new_team(
    game_id: str,
    env: Environment,
    event: EventSettings,
    window_id_: str,
    starts_at: datetime,
    key: str,
    now: datetime,
    *,
    name: str | None = None,
    attributes: dict[str, Any] | None = None,
) -> Team:
    """A team of the window, with no member yet; its formation and goal are the event's ``teams``."""
    teams = event.of(TEAM_SETTINGS)
    if teams is None:
        raise ValueError(f"event {event.key} has no teams")
    return Team(
        id=team_id(window_id_, starts_at, key),
        game_id=game_id,
        env=env,
        event_key=event.key,
        event_id=event_id(game_id, event),
        window_id=window_id_,
        key=key,
        name=name,
        formation=teams.formation,
        goal=teams.goal,
        created_at=now,
        attributes=attributes,
    )


def new_seat(team: Team, player: Player, now: datetime, rng: RandomSource) -> TeamMember:
    return TeamMember(
        seat_id=new_id(TEAM_SEAT_ID_PREFIX, now, rng),
        team_id=team.id,
        window_id=team.window_id,
        player_id=player.id,
        external_player_id=player.external_id,
        joined_at=now,
    )


# --- scores, milestones and the goal -------------------------------------------------------------------


def contribution(order: Order, scores: Iterable[float]) -> float:
    """A member's best attempt score in the window (the highest for ``desc``, the lowest for ``asc``: the
    event board's rule); 0 when it has none (a member who has not played adds nothing)."""
    return (max if order is Order.DESC else min)(scores, default=0.0)


def counts(settings: TeamSettings, member: TeamMember) -> bool:
    """The member's contribution is in its team's score."""
    return member.seated or settings.on_leave is OnLeave.KEEP_CONTRIBUTION


def team_score(settings: TeamSettings, members: Iterable[TeamMember]) -> float:
    """The seated members' contributions summed, plus those of members who left unless the event removes
    them (``on_leave = "remove_contribution"``)."""
    return saturate(sum((m.contribution for m in members if counts(settings, m)), 0.0))


@attrs.frozen
class ScoreChange:
    """A team after its score moved: the milestones it newly crossed (threshold order) and whether it newly
    reached its goal."""

    team: Team
    milestones: tuple[Milestone, ...] = ()
    completed: bool = False


def frozen(team: Team, settings: TeamSettings) -> bool:
    """Nothing moves the team's score or milestones any more: it reached its goal and the event stops
    contributions there."""
    return team.completed and settings.on_complete is OnComplete.STOP_CONTRIBUTIONS


def apply_score(team: Team, settings: TeamSettings, new_score: float, now: datetime) -> ScoreChange:
    """The team once its score (:func:`team_score`) is ``new_score``.

    The goal is the team's (resolved when it formed); it is reached when the score is at least the goal
    (``completed_at`` set then, once). Milestones are crossed when the score is at least their threshold
    and the team has not crossed them before (``team.milestones``): each once, even when the score falls
    back (a member removed) and rises again; newly crossed ones come in threshold order (ties: manifest
    order). With ``stop_contributions`` the move that reaches the goal stops at it (the score becomes the
    goal: milestones above it stay locked), and a completed team's score never moves again. Only ``desc``
    events have teams, so crossing is upward (see the module docstring)."""
    if frozen(team, settings):
        return ScoreChange(team)
    goal = team.goal
    reached = goal is not None and not team.completed and new_score >= goal
    score = (
        goal
        if reached and goal is not None and settings.on_complete is OnComplete.STOP_CONTRIBUTIONS
        else new_score
    )
    crossed = tuple(
        sorted(
            (m for m in settings.milestones if m.key not in team.milestones and score >= m.threshold),
            key=lambda m: m.threshold,
        )
    )
    moved = attrs.evolve(
        team,
        score=score,
        milestones=(*team.milestones, *(m.key for m in crossed)),
        completed_at=now if reached else team.completed_at,
    )
    return ScoreChange(moved, crossed, reached)


# --- the studio's roster -------------------------------------------------------------------------------


@attrs.frozen
class RosterChange:
    """What a roster PUT does to a team's seats: ``joined`` are the external ids without a seat on the team
    (in roster order: the command seats them); ``returned`` are seats of players who had left, taken again
    (the same seat, so a contribution is never counted twice); ``kicked`` are seated members missing from
    the roster, now left with reason ``kicked``; ``stayed`` are the seated members the roster keeps."""

    joined: tuple[str, ...] = ()
    returned: tuple[TeamMember, ...] = ()
    kicked: tuple[TeamMember, ...] = ()
    stayed: tuple[TeamMember, ...] = ()


#: A roster's seats: refusals 2 to 4 of ``livecore.live_events.rosters`` (an empty roster is allowed).
ROSTER_SEATING = Seating(
    players=ROSTER_PLAYERS,
    room="a team of {seats}",
    bound="the team size ({seats})",
    elsewhere_code=LOCKED_ELSEWHERE,
    elsewhere="On another team of this window",
)


def check_roster(external_ids: Sequence[str], size: int) -> None:
    """Refusals 1 and 2 of the roster PUT (module docstring), each 400 ``invalid_request`` naming
    ``externalPlayerIds`` in ``details.fields``."""
    check_seating(ROSTER_SEATING, external_ids, size)


def check_not_locked(locked_external_ids: Sequence[str]) -> None:
    """Refusal 3: roster players on another team of the window: 409 ``locked_elsewhere``,
    ``details.externalPlayerIds`` naming them; nothing changes."""
    check_seated_elsewhere(ROSTER_SEATING, locked_external_ids)


def roster_change(
    members: Sequence[TeamMember], external_ids: Sequence[str], size: int, now: datetime
) -> RosterChange:
    """The team's seats (``members``, those left included, in seat order) once its roster is
    ``external_ids``; refused as :func:`check_roster` says."""
    check_roster(external_ids, size)
    wanted = set(external_ids)
    seated = {m.external_player_id: m for m in members if m.seated}
    left = {m.external_player_id: m for m in members if not m.seated}  # the latest seat wins
    returned = tuple(
        attrs.evolve(left[x], left_at=None, left_reason=None)
        for x in external_ids
        if x not in seated and x in left
    )
    return RosterChange(
        joined=tuple(x for x in external_ids if x not in seated and x not in left),
        returned=returned,
        kicked=tuple(
            attrs.evolve(m, left_at=now, left_reason=LeaveReason.KICKED)
            for m in seated.values()
            if m.external_player_id not in wanted
        ),
        stayed=tuple(m for m in seated.values() if m.external_player_id in wanted),
    )


# --- the window a roster PUT targets (docs/teams.md#the-roster) ---------------------------------------

_WINDOW_ID = re.compile(rf"{WINDOW_ID_PREFIX}_([0-9a-f]{{12}})[0-9a-f]{{20}}")


@attrs.frozen
class TeamWindow:
    """A window of the event's schedule, and its record when it was recorded."""

    id: str
    starts_at: datetime
    ends_at: datetime
    recorded: Window | None = None


def window_candidates(game_id: str, env: Environment, event: EventSettings, now: datetime) -> tuple[str, ...]:
    """The ids of the windows :func:`target_window` may need recorded without ``windowId``: the slot open
    now and the next one (the command reads them, with the named one, into ``recorded``)."""
    starts = [slot.starts_at for slot in (slot_at(event, now),) if slot is not None]
    upcoming = next_start(event, now)
    return tuple(
        window_id(game_id, env, event.key, at) for at in (*starts, *([upcoming] if upcoming else []))
    )


def _unknown_window(window_id_: str, event: EventSettings) -> LivecoreError:
    return invalid_request(
        f"{window_id_!r} names no window of event {event.key!r} in this environment.",
        {"windowId": "names no window of this event in this environment"},
    )


def named_window(
    game_id: str,
    env: Environment,
    event: EventSettings,
    window_id_: str,
    recorded: Mapping[str, Window],
) -> TeamWindow:
    """The window ``windowId`` names: a recorded window of the event, or a slot of its schedule in this
    environment (window ids are derived from their start, whose milliseconds lead the id). Anything else
    is 400 ``invalid_request`` on ``windowId``: a bad reference in the request, not a missing team (404
    ``team_not_found`` is the team's)."""
    found = recorded.get(window_id_)
    if found is not None and (found.game_id, found.env, found.event_key) == (game_id, env, event.key):
        return TeamWindow(found.id, found.starts_at, found.ends_at, found)
    match = _WINDOW_ID.fullmatch(window_id_)
    try:
        starts_at = from_millis(int(match[1], 16)) if match else None
    except OverflowError:
        starts_at = None
    slot = slot_at(event, starts_at) if starts_at is not None else None
    if (
        starts_at is None
        or slot is None
        or slot.starts_at != starts_at
        or window_id(game_id, env, event.key, starts_at) != window_id_
    ):
        raise _unknown_window(window_id_, event)
    return TeamWindow(window_id_, slot.starts_at, slot.ends_at)


def _not_open(event: EventSettings, message: str) -> LivecoreError:
    return LivecoreError(EVENT_NOT_OPEN, message, {"eventKey": event.key})


def target_window(
    game_id: str,
    env: Environment,
    event: EventSettings,
    now: datetime,
    window_id_: str | None,
    recorded: Mapping[str, Window],
) -> TeamWindow:
    """The window a roster PUT changes: the one ``windowId`` names (:func:`named_window`), else
    the window open now, else the next scheduled one; ``recorded`` holds the windows of those that were
    recorded (:func:`window_candidates`), so a window closed early (end-now) is skipped. A window that has
    ended, or none at all: 409 ``event_not_open`` (a closed window's roster is final)."""
    if window_id_ is not None:
        named = named_window(game_id, env, event, window_id_, recorded)
        if _ended(named, now):
            raise _not_open(event, f"The window {window_id_} of {event.key!r} has ended.")
        return named
    for candidate in window_candidates(game_id, env, event, now):
        window = named_window(game_id, env, event, candidate, recorded)
        if not _ended(window, now):
            return window
    raise _not_open(event, f"No window of {event.key!r} is open or scheduled.")


def _ended(window: TeamWindow, now: datetime) -> bool:
    closed = window.recorded is not None and window.recorded.status is WindowStatus.CLOSED
    return closed or now >= window.ends_at


# --- partner invites -----------------------------------------------------------------------------------


def new_invite(
    game_id: str,
    env: Environment,
    event_key: str,
    window_id_: str,
    sender: Player,
    target: Player,
    now: datetime,
    rng: RandomSource,
) -> PartnerInvite:
    return PartnerInvite(
        id=new_id(INVITE_ID_PREFIX, now, rng),
        game_id=game_id,
        env=env,
        event_key=event_key,
        window_id=window_id_,
        from_player_id=sender.id,
        from_external_id=sender.external_id,
        to_player_id=target.id,
        to_external_id=target.external_id,
        created_at=now,
        expires_at=now + INVITE_TTL,
    )


def check_invite(
    from_player_id: str, to_player_id: str, *, are_friends: bool, either_on_team: bool, pending_exists: bool
) -> None:
    """An invite's refusals, in the module docstring's order."""
    if from_player_id == to_player_id:
        raise invalid_request("A player cannot invite itself.", {"externalPlayerId": "is the caller"})
    if not are_friends:
        raise LivecoreError(NOT_FRIENDS, "Only a friend can be invited to pair up.")
    if either_on_team:
        raise LivecoreError(ALREADY_ON_TEAM, "A player is already on a team of this window.")
    if pending_exists:
        raise LivecoreError(INVITE_PENDING, "An invite between these players is pending.")


def expired(invite: PartnerInvite, now: datetime) -> bool:
    return now >= invite.expires_at


def check_accept(
    invite: PartnerInvite | None, by_player_id: str, now: datetime, *, either_on_team: bool
) -> None:
    """An acceptance's refusals, in the module docstring's order (``invite`` None: no such invite)."""
    if invite is None or invite.to_player_id != by_player_id:
        raise LivecoreError(INVITE_NOT_FOUND, "No such invite to this player.")
    if invite.accepted_at is not None:
        raise LivecoreError(
            ALREADY_ON_TEAM, "The invite was accepted already.", {"eventTeamId": invite.team_id}
        )
    if expired(invite, now):
        raise LivecoreError(INVITE_EXPIRED, "The invite expired.", {"inviteId": invite.id})
    if either_on_team:
        raise LivecoreError(ALREADY_ON_TEAM, "A player is already on a team of this window.")


def accepted(invite: PartnerInvite, team: Team, now: datetime) -> PartnerInvite:
    return attrs.evolve(invite, accepted_at=now, team_id=team.id)


# --- the team board ------------------------------------------------------------------------------------


def rank_key(team: Team) -> tuple[float, bool, datetime, datetime, str]:
    """Higher score first; on a tie, the team that completed its goal first (teams that never completed
    after those that did: with ``stop_contributions`` completed teams tie at the goal, and the first there
    wins), then the earlier created, then the smaller id."""
    return (
        -team.score,
        team.completed_at is None,
        team.completed_at or team.created_at,
        team.created_at,
        team.id,
    )


def ranked(teams: Iterable[Team]) -> list[Team]:
    """The window's teams in team-board order (:func:`rank_key`); rank ``i + 1`` for the ``i``-th."""
    return sorted(teams, key=rank_key)


def rank_payouts(settings: TeamSettings, teams: Iterable[Team]) -> list[tuple[int, Team, tuple[Entry, ...]]]:
    """The ranked teams the event's ``teams.rank_rewards`` pay, with their rank and the rewards each of
    their seated members earns; none without a team board."""
    if not settings.board:
        return []
    top = ranked(teams)[: paid_ranks(settings.rank_rewards)]
    paid = [(rank, team, band_rewards(settings.rank_rewards, rank)) for rank, team in enumerate(top, 1)]
    return [(rank, team, rewards) for rank, team, rewards in paid if rewards]
