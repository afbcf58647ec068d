"""Event teams and partners: players play an event window together, as a team whose score is the sum of
its members' contributions (docs/teams.md).

A team belongs to one window of one event and is named by its key there; its id is derived from the two,
so the studio's roster PUT, a read and another process name it alike. The studio forms ``external`` teams
(the roster PUT); ``partner`` teams are pairs formed when an invite between two friends is accepted. A
player sits on at most one team per window. A member's contribution is its best attempt score in the
window (the event's board rule); the team's score moves with it, and crosses the team's milestones and
goal, each once.

The records are here; the rules follow them.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

import attrs

from livecore.games import Formation
from livecore.scope import Environment


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
    score: float = 0.0
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
