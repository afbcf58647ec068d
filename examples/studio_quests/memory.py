"""The quests port in memory, for an embedded store (``MemoryStore([AREA])``): its table is
``store.tables["quests"]``, and every write goes through the transaction's journal, so a command that
raises leaves nothing behind."""

from __future__ import annotations

from datetime import date

from livecore.memory import MemoryStore
from livecore.memory.journal import Journal
from studio_quests.rules import QuestState

TABLE = "quests"


class MemoryQuests:
    __slots__ = ("_rows", "_tx")

    def __init__(self, rows: dict[str, QuestState], journal: Journal) -> None:
        self._rows = rows
        self._tx = journal

    def get(self, player_id: str) -> QuestState | None:
        return self._rows.get(player_id)

    def put(self, state: QuestState) -> None:
        self._tx.put(self._rows, state.player_id, state)

    def delete(self, player_id: str) -> None:
        if player_id in self._rows:
            self._tx.drop(self._rows, player_id)

    def streaks_before(self, day: date, limit: int) -> list[QuestState]:
        found = sorted(
            (s for s in self._rows.values() if s.streak > 0 and s.last_day < day), key=lambda s: s.player_id
        )
        return found[:limit]


def memory_port(store: MemoryStore, journal: Journal) -> MemoryQuests:
    """The port of one transaction (:data:`livecore.area.MemoryPort`), over the table the store made from
    the area's ``tables``."""
    rows: dict[str, QuestState] = store.tables[TABLE]
    return MemoryQuests(rows, journal)
