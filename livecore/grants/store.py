"""The grants port. Grants, by (game_id, grant id)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.grants.rules import Grant, GrantEntry, GrantStatus, GrantWaits
from livecore.players.rules import Player


class GrantStore(Protocol):
    def insert(self, grant: Grant) -> None: ...

    def get(self, game_id: str, grant_id: str) -> Grant | None: ...

    def update(self, grant: Grant) -> None: ...

    def pending(self, player_id: str, now: datetime, limit: int) -> list[Grant]:
        """Pending grants of a player not yet past their expiry, oldest first."""
        ...

    def past_expiry(self, now: datetime, limit: int) -> list[Grant]:
        """Pending grants whose expiry has passed (for the sweep), oldest expiry first."""
        ...

    def recent(self, player_id: str, limit: int) -> list[Grant]:
        """The player's grants, newest first."""
        ...

    def counts(self, player_id: str) -> dict[GrantStatus, int]: ...

    def of_source(self, player_id: str, source_ref_id: str) -> list[Grant]:
        """The player's grants whose ``sourceRefId`` is ``source_ref_id`` (an attempt's), oldest first."""
        ...

    def made(
        self, game_id: str, kind: str, since: datetime, until: datetime, except_source: str | None = None
    ) -> dict[str, int]:
        """Entry key -> the amount of it the grants of ``kind`` in a game made from ``since`` to before
        ``until`` hold (but those whose ``source_ref_id`` starts with ``except_source``), summed, in one
        read."""
        ...

    def latest(
        self, game_id: str, prefix: str, since: datetime, until: datetime
    ) -> dict[str, tuple[GrantEntry, ...]]:
        """Source reference -> the entries of the latest grant of a game made from ``since`` to before
        ``until`` whose ``source_ref_id`` starts with ``prefix`` (of those made at one instant, the one
        :func:`~livecore.grants.rules.latest_entries` picks), in one read."""
        ...

    def waits(self, game_id: str, kind: str, since: datetime, until: datetime) -> dict[str, GrantWaits]:
        """Player id -> its grants of ``kind`` in a game made from ``since`` to before ``until``, their
        waits tallied (taken, expired or cut by ``until``), in one read."""
        ...

    def reassign(self, from_id: str, to: Player) -> None:
        """Every grant of ``from_id`` becomes ``to``'s (a merge)."""
        ...


class HasGrants(Protocol):
    """A transaction that reaches the grants port."""

    @property
    def grants(self) -> GrantStore: ...
