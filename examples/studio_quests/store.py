"""The quests port: each player's check-in state, by player id (``tx.ports.of(QUESTS)``, typed)."""

from __future__ import annotations

from datetime import date
from typing import Protocol

from livecore.area import PortKey
from studio_quests.rules import QuestState


class QuestStore(Protocol):
    def get(self, player_id: str) -> QuestState | None: ...

    def put(self, state: QuestState) -> None:
        """Insert or replace the player's state."""
        ...

    def delete(self, player_id: str) -> None:
        """Forget the player's state (a merge's source, an erased player)."""
        ...

    def streaks_before(self, day: date, limit: int) -> list[QuestState]:
        """States with a streak (``streak > 0``) whose last check-in is before ``day``, by player id (at
        most ``limit``)."""
        ...


QUESTS: PortKey[QuestStore] = PortKey("quests")
"""The port's key: ``tx.ports.of(QUESTS)`` is a :class:`QuestStore` to a type checker."""
