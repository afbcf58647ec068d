"""The teams port: event teams by (game_id, team id), their members' seats and partner invites."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.players.rules import Player
from livecore.teams.rules import PartnerInvite, Team, TeamMember


class TeamStore(Protocol):
    def get(self, game_id: str, team_id: str) -> Team | None: ...

    def insert(self, team: Team) -> None: ...

    def update(self, team: Team) -> None: ...

    def of_window(self, window_id: str) -> list[Team]:
        """The window's teams, best score first (ties: the earlier created, then the smaller id): the team
        board's order."""
        ...

    def put_member(self, member: TeamMember) -> None:
        """Insert or replace a seat (by ``seat_id``). A player holds at most one seat that is not left per
        window: the store refuses a second (an integrity error of its own, as for any unique key)."""
        ...

    def members(self, team_id: str) -> list[TeamMember]:
        """The team's seats, those left included, in the order they were taken (ties: by seat id)."""
        ...

    def seat_in_window(self, window_id: str, player_id: str) -> TeamMember | None:
        """The player's seat that is not left in the window, if any."""
        ...

    def insert_invite(self, invite: PartnerInvite) -> None: ...

    def update_invite(self, invite: PartnerInvite) -> None: ...

    def invite(self, game_id: str, invite_id: str) -> PartnerInvite | None: ...

    def pending_between(
        self, window_id: str, player_a: str, player_b: str, now: datetime
    ) -> PartnerInvite | None:
        """An invite of the window between the two players, either way, neither accepted nor expired at
        ``now``."""
        ...

    def reassign(self, from_id: str, to: Player) -> None:
        """Every seat and invite of ``from_id`` becomes ``to``'s, external ids included: a merge, or an
        erasure (``to`` is then the same row under its placeholder). A merge keeps one seat that is not
        left per window: where both sit on a team of one window (the same team or two), the source's seat
        is deleted and its team counts one member fewer (its ``score`` stays as stored; the next write of
        its score recounts). The source's left seats all move. Invites between the two that were not
        accepted are deleted (nobody pairs with oneself); accepted ones move with the rest."""
        ...


class HasTeams(Protocol):
    """A transaction that reaches the teams port."""

    @property
    def teams(self) -> TeamStore: ...
