"""The attempts port. Attempts at event windows, by (game_id, attempt id)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.live_events.attempts import Attempt, AttemptStatus, AttemptTally
from livecore.players.rules import Player
from livecore.scope import Environment


class AttemptStore(Protocol):
    def insert(self, attempt: Attempt) -> None: ...

    def get(self, game_id: str, attempt_id: str) -> Attempt | None: ...

    def update(self, attempt: Attempt) -> None: ...

    def of_player_in_window(self, player_id: str, window_id: str) -> list[Attempt]:
        """The player's attempts in the window, oldest first."""
        ...

    def in_progress_in_window(self, window_id: str, limit: int) -> list[Attempt]:
        """Attempts of the window still recorded in progress, oldest start first."""
        ...

    def of_room(self, room_id: str) -> list[Attempt]:
        """The attempts a room seated (``lobby_id``: a lobby's, at most a few per seat), oldest start
        first."""
        ...

    def past_end(self, now: datetime, limit: int) -> list[Attempt]:
        """Attempts (every game) recorded in progress whose ``endsAt`` has come, oldest end first."""
        ...

    def recent(self, player_id: str, limit: int) -> list[Attempt]:
        """The player's attempts, newest start first."""
        ...

    def counts(self, player_id: str) -> dict[AttemptStatus, int]: ...

    def tallies(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[tuple[str, str], AttemptTally]:
        """The attempts of a game and environment started from ``since`` to before ``until``, tallied
        by (player id, event key), in one read."""
        ...

    def reassign(self, from_id: str, to: Player) -> None:
        """Every attempt of ``from_id`` becomes ``to``'s, its external id included: a merge, or an erasure
        (``to`` is then the same row under its placeholder)."""
        ...


class HasAttempts(Protocol):
    """A transaction that reaches the attempts port."""

    @property
    def attempts(self) -> AttemptStore: ...
