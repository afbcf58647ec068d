"""Event team commands (docs/teams.md; rules: ``livecore.teams.rules``): the studio's roster PUT, reads,
partner
invites, a member's contribution following its progress, and the teams' end at their window's close.

Each is one transaction in its game's write queue: a roster PUT applies whole or not at all, a player
never sits on two teams of a window (the store's unique key backs it under concurrency), and a team's
milestones and goal, crossed in the transaction of the write that crosses them, are paid once.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.errors import LivecoreError, invalid_request
from livecore.friends.store import HasFriends
from livecore.games import Game
from livecore.grants.commands import issue_grant
from livecore.grants.rank_rewards import Placing, pay_rank_rewards
from livecore.grants.rules import GrantKind
from livecore.ids import derived_id
from livecore.live_events.commands.attempts import AttemptsTx
from livecore.live_events.commands.windows import current_window
from livecore.live_events.errors import EVENT_NOT_OPEN
from livecore.live_events.rules import (
    BOARD_ID_PREFIX,
    Window,
    WindowStatus,
    event_settings,
    slot_at,
    window_id,
)
from livecore.live_events.settings import EventSettings
from livecore.live_events.webhooks import LeaderboardFinalized
from livecore.players.commands import find_player, load_game
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.rules import Player
from livecore.scope import Environment, Scope
from livecore.teams.errors import INVITE_EXPIRED, TEAM_NOT_FOUND
from livecore.teams.rules import (
    PartnerInvite,
    Team,
    TeamMember,
    accepted,
    apply_score,
    check_accept,
    check_invite,
    check_not_locked,
    contribution,
    named_window,
    new_invite,
    new_seat,
    new_team,
    rank_payouts,
    ranked,
    roster_change,
    target_window,
    team_id,
    team_score,
    window_candidates,
)
from livecore.teams.settings import TEAM_SETTINGS, Formation, TeamSettings
from livecore.teams.store import HasTeams
from livecore.teams.webhooks import (
    EventTeamFinalized,
    EventTeamFormed,
    EventTeamGoalCompleted,
    EventTeamMemberJoined,
    EventTeamMemberLeft,
    EventTeamMilestoneUnlocked,
    PartnerInviteAccepted,
    PartnerInviteSent,
)

MILESTONE_SOURCE_KIND = "event_team_milestone"
RANK_SOURCE_KIND = "event_team_rank"


class TeamsTx(AttemptsTx, HasTeams, HasFriends, Protocol):
    """The ports these commands use."""


@attrs.frozen
class TeamRead:
    """A team with its seats (those left included, in seat order) and their players."""

    team: Team
    members: list[TeamMember]
    players: dict[str, Player]

    @property
    def seated(self) -> list[TeamMember]:
        return [m for m in self.members if m.seated]


def team_settings(event: EventSettings) -> TeamSettings:
    teams = event.of(TEAM_SETTINGS)
    if teams is None:
        raise invalid_request(f"{event.key!r} is not a team event.", {"eventKey": "not a team event"})
    return teams


def team_board_id(window_id_: str, starts_at: datetime) -> str:
    """The window's team board (``board = true``): named by its window, as its player boards are."""
    return derived_id(BOARD_ID_PREFIX, starts_at, window_id_, "teams")


def _team_read(tx: TeamsTx, team: Team) -> TeamRead:
    members = tx.teams.members(team.id)
    players = {}
    for member in members:
        player = tx.players.by_id(member.player_id)
        assert player is not None  # a seat's player row is never deleted (erasure anonymizes it)
        players[member.player_id] = player
    return TeamRead(team, members, players)


def _contribution(tx: TeamsTx, event: EventSettings, window_id_: str, player_id: str) -> float:
    attempts = tx.attempts.of_player_in_window(player_id, window_id_)
    return contribution(event.order, (a.score for a in attempts if a.score is not None))


def _rescore(tx: TeamsTx, rt: Runtime, scope: Scope, team: Team, settings: TeamSettings) -> Team:
    """The team's score recounted from its seats; the milestones and goal it newly reaches are paid and
    told here, once."""
    members = tx.teams.members(team.id)
    change = apply_score(team, settings, team_score(settings, members), rt.clock.now())
    team = change.team
    tx.teams.update(team)
    seated = [m for m in members if m.seated]
    for milestone in change.milestones:
        for member in seated:
            player = tx.players.by_id(member.player_id)
            assert player is not None
            issue_grant(
                tx,
                rt,
                scope,
                player,
                kind=GrantKind.REWARD,
                entries=milestone.rewards,
                expires_at=None,
                source_kind=MILESTONE_SOURCE_KIND,
                source_ref_id=team.id,
                metadata={"eventKey": team.event_key, "teamKey": team.key, "milestoneKey": milestone.key},
            )
        emit(tx, rt, scope, EventTeamMilestoneUnlocked.of(team, milestone, len(seated)))
    if change.completed:
        emit(tx, rt, scope, EventTeamGoalCompleted.of(team, settings))
    return team


def _seat(
    tx: TeamsTx, rt: Runtime, scope: Scope, team: Team, member: TeamMember, event: EventSettings
) -> Team:
    """Seat a member, its contribution as its attempts in the window have it (``member_joined``)."""
    member = attrs.evolve(member, contribution=_contribution(tx, event, team.window_id, member.player_id))
    tx.teams.put_member(member)
    team = attrs.evolve(team, member_count=team.member_count + 1)
    emit(tx, rt, scope, EventTeamMemberJoined.of(team, member))
    return team


# --- the studio's roster -------------------------------------------------------------------------------


def put_roster(
    tx: TeamsTx,
    rt: Runtime,
    scope: Scope,
    event_key: str,
    team_key: str,
    external_player_ids: Sequence[str],
    *,
    name: str | None = None,
    attributes: dict[str, Any] | None = None,
    window: str | None = None,
) -> TeamRead:
    """The team's roster in one window becomes ``external_player_ids`` (docs/teams.md#the-roster): all of
    it, or nothing (refusals: ``livecore.teams.rules``). The window: ``window`` (an id), else the one open
    now,
    else the next scheduled. Missing players leave (``kicked``); new ones take seats; the team is formed
    on its first PUT."""
    game = load_game(tx, scope)
    event = event_settings(game, event_key)
    settings = team_settings(event)
    if settings.formation is not Formation.EXTERNAL:
        raise invalid_request(
            "Partner teams are formed by accepted invites, not by a roster.", {"eventKey": "partner teams"}
        )
    now = rt.clock.now()
    wanted = (*window_candidates(game.id, scope.env, event, now), *([window] if window else []))
    recorded = {w.id: w for w in (tx.windows.get(game.id, i) for i in wanted) if w is not None}
    target = target_window(game.id, scope.env, event, now, window, recorded)
    team = tx.teams.get(game.id, team_id(target.id, target.starts_at, team_key))
    change = roster_change(tx.teams.members(team.id) if team else [], external_player_ids, settings.size, now)
    joining = []
    for external_id in change.joined:
        player = find_player(tx, scope, external_id)
        if player is None:
            raise LivecoreError(PLAYER_NOT_FOUND, "Player not found.", {"externalPlayerId": external_id})
        joining.append(player)
    check_not_locked(
        [p.external_id for p in joining if tx.teams.seat_in_window(target.id, p.id) is not None]
        + [m.external_player_id for m in change.returned if tx.teams.seat_in_window(target.id, m.player_id)]
    )
    formed = team is None
    if team is None:
        team = new_team(
            game.id,
            scope.env,
            event,
            target.id,
            target.starts_at,
            team_key,
            now,
            name=name,
            attributes=attributes,
        )
        tx.teams.insert(team)
    else:
        team = attrs.evolve(
            team,
            name=name if name is not None else team.name,
            attributes=attributes if attributes is not None else team.attributes,
        )
    if formed:
        emit(tx, rt, scope, EventTeamFormed.of(attrs.evolve(team, member_count=len(external_player_ids))))
    for member in change.kicked:
        tx.teams.put_member(member)
        team = attrs.evolve(team, member_count=team.member_count - 1)
        emit(tx, rt, scope, EventTeamMemberLeft.of(team, member, settings))
    for member in change.returned:
        team = _seat(tx, rt, scope, team, attrs.evolve(member, joined_at=now), event)
    for player in joining:
        team = _seat(tx, rt, scope, team, new_seat(team, player, now, rt.rng), event)
    _rescore(tx, rt, scope, team, settings)
    return read_team_of(tx, game.id, team.id)


# --- reads ---------------------------------------------------------------------------------------------


def _team_not_found(team_key: str) -> LivecoreError:
    return LivecoreError(TEAM_NOT_FOUND, "Team not found.", {"teamKey": team_key})


def read_team_of(tx: TeamsTx, game_id: str, team_id_: str) -> TeamRead:
    team = tx.teams.get(game_id, team_id_)
    assert team is not None
    return _team_read(tx, team)


def _open_window_id(
    tx: TeamsTx, game: Game, env: Environment, event: EventSettings, now: datetime
) -> str | None:
    """The window open now: the schedule's slot, unless its record says it closed early (end-now)."""
    slot = slot_at(event, now)
    if slot is None:
        return None
    wid = window_id(game.id, env, event.key, slot.starts_at)
    record = tx.windows.get(game.id, wid)
    return None if record is not None and record.status is WindowStatus.CLOSED else wid


def read_team(
    tx: TeamsTx, rt: Runtime, scope: Scope, event_key: str, team_key: str, window: str | None = None
) -> TeamRead:
    """The team ``team_key`` of the window ``window`` (an id), else of the window open now; 404
    ``team_not_found`` when there is none."""
    game = load_game(tx, scope)
    event = event_settings(game, event_key)
    team_settings(event)
    wid = window or _open_window_id(tx, game, scope.env, event, rt.clock.now())
    found = None
    if wid is not None:
        record = tx.windows.get(game.id, wid)
        try:  # a roster PUT may have formed the team before its window was recorded
            named = named_window(game.id, scope.env, event, wid, {wid: record} if record else {})
        except LivecoreError:
            named = None  # names no window of the event: no team either
        if named is not None:
            found = tx.teams.get(game.id, team_id(wid, named.starts_at, team_key))
    if found is None or found.env is not scope.env or found.event_key != event_key:
        raise _team_not_found(team_key)
    return _team_read(tx, found)


def my_team(tx: TeamsTx, rt: Runtime, scope: Scope, player: Player, event_key: str) -> TeamRead | None:
    """The player's team in the event's window open now, if it sits on one."""
    game = load_game(tx, scope)
    event = event_settings(game, event_key)
    team_settings(event)
    wid = _open_window_id(tx, game, scope.env, event, rt.clock.now())
    seat = tx.teams.seat_in_window(wid, player.id) if wid is not None else None
    return None if seat is None else read_team_of(tx, game.id, seat.team_id)


# --- contributions -------------------------------------------------------------------------------------


def contribute(tx: TeamsTx, rt: Runtime, scope: Scope, player: Player, window: Window) -> None:
    """After the player's score in the window moved: its seat's contribution follows, and its team's
    score with it (milestones and goal paid in this transaction)."""
    settings = window.settings.of(TEAM_SETTINGS)
    if settings is None:
        return
    seat = tx.teams.seat_in_window(window.id, player.id)
    if seat is None:
        return
    now_contribution = _contribution(tx, window.settings, window.id, player.id)
    if now_contribution == seat.contribution:
        return
    tx.teams.put_member(attrs.evolve(seat, contribution=now_contribution))
    team = tx.teams.get(window.game_id, seat.team_id)
    assert team is not None
    _rescore(tx, rt, scope, team, settings)


# --- partners ------------------------------------------------------------------------------------------


def _partner_window(tx: TeamsTx, rt: Runtime, scope: Scope, event_key: str) -> tuple[Game, Window]:
    game = load_game(tx, scope)
    event = event_settings(game, event_key)
    if team_settings(event).formation is not Formation.PARTNER:
        raise invalid_request(
            "This event's teams are the studio's rosters, not partner pairs.", {"eventKey": "not partners"}
        )
    window = current_window(tx, rt, scope, game, event)
    if window is None:
        raise LivecoreError(
            EVENT_NOT_OPEN, f"No window of {event_key!r} is open now.", {"eventKey": event_key}
        )
    return game, window


def _on_a_team(tx: TeamsTx, window_id_: str, *players: str) -> bool:
    return any(tx.teams.seat_in_window(window_id_, p) is not None for p in players)


def invite(
    tx: TeamsTx, rt: Runtime, scope: Scope, player: Player, event_key: str, to_external_id: str
) -> PartnerInvite:
    """Invite a friend to pair up in the event's open window (``partner.invite_sent``); refusals:
    ``livecore.teams.rules``."""
    game, window = _partner_window(tx, rt, scope, event_key)
    target = find_player(tx, scope, to_external_id)
    if target is None:
        raise LivecoreError(PLAYER_NOT_FOUND, "Player not found.", {"externalPlayerId": to_external_id})
    now = rt.clock.now()
    check_invite(
        player.id,
        target.id,
        are_friends=tx.friends.get_friendship(player.id, target.id) is not None,
        either_on_team=_on_a_team(tx, window.id, player.id, target.id),
        pending_exists=tx.teams.pending_between(window.id, player.id, target.id, now) is not None,
    )
    sent = new_invite(game.id, scope.env, event_key, window.id, player, target, now, rt.rng)
    tx.teams.insert_invite(sent)
    emit(tx, rt, scope, PartnerInviteSent.of(sent))
    return sent


def accept(
    tx: TeamsTx, rt: Runtime, scope: Scope, player: Player, event_key: str, invite_id: str
) -> TeamRead:
    """The invitee accepts: the two form a team of the window (keyed by the invite's id)."""
    game, window = _partner_window(tx, rt, scope, event_key)
    found = tx.teams.invite(game.id, invite_id)
    if found is not None and (found.env is not scope.env or found.event_key != event_key):
        found = None
    now = rt.clock.now()
    on_team = found is not None and _on_a_team(tx, found.window_id, found.from_player_id, found.to_player_id)
    check_accept(found, player.id, now, either_on_team=on_team)
    assert found is not None
    if found.window_id != window.id:
        raise LivecoreError(INVITE_EXPIRED, "The invite's window has ended.", {"inviteId": found.id})
    event = window.settings
    settings = team_settings(event)
    team = new_team(game.id, scope.env, event, window.id, window.starts_at, found.id, now)
    tx.teams.insert(team)
    done = accepted(found, team, now)
    tx.teams.update_invite(done)
    emit(tx, rt, scope, PartnerInviteAccepted.of(done, team))
    emit(tx, rt, scope, EventTeamFormed.of(attrs.evolve(team, member_count=2)))
    sender = tx.players.by_id(found.from_player_id)
    assert sender is not None
    for member in (sender, player):
        team = _seat(tx, rt, scope, team, new_seat(team, member, now, rt.rng), event)
    _rescore(tx, rt, scope, team, settings)
    return read_team_of(tx, game.id, team.id)


# --- the window's close --------------------------------------------------------------------------------


def finalize_teams(tx: TeamsTx, rt: Runtime, scope: Scope, window: Window) -> None:
    """The window closed: each team's score is final (``event_team.finalized``); on a team board the teams
    are ranked, ``teams.rank_rewards`` pay each seated member of a paid rank, and the board is finalized
    (``leaderboard.finalized``, ``participantScope: "team"``)."""
    settings = window.settings.of(TEAM_SETTINGS)
    if settings is None:
        return
    now = rt.clock.now()
    teams = ranked(tx.teams.of_window(window.id))
    placings = (
        Placing(
            rank=rank,
            player_ids=tuple(m.player_id for m in tx.teams.members(team.id) if m.seated),
            source_ref_id=team.id,
            metadata={"eventKey": team.event_key, "teamKey": team.key, "rank": rank},
        )
        for rank, team, _ in rank_payouts(settings, teams)
    )
    pay_rank_rewards(tx, rt, scope, settings.rank_rewards, placings, source_kind=RANK_SOURCE_KIND)
    for rank, team in enumerate(teams, 1):
        final = attrs.evolve(team, final_rank=rank if settings.board else None, finalized_at=now)
        tx.teams.update(final)
        emit(tx, rt, scope, EventTeamFinalized.of(final, len(teams) if settings.board else None))
    if settings.board and teams:  # a window without teams (another environment's) has no team board
        emit(
            tx,
            rt,
            scope,
            LeaderboardFinalized(
                leaderboard_id=team_board_id(window.id, window.starts_at),
                event_id=window.event_id,
                event_key=window.event_key,
                event_window_id=window.id,
                lobby_id=None,
                segment_values={},
                participant_scope="team",
                entry_count=len(teams),
                top=(),
                finalized_at=now,
            ),
        )
