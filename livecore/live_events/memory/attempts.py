"""The attempts port in memory."""

from __future__ import annotations

from datetime import datetime

import attrs

from livecore.live_events.attempts import Attempt, AttemptStatus, AttemptTally
from livecore.live_events.memory import LiveEventTables
from livecore.live_events.store.attempts import AttemptStore
from livecore.memory.journal import AreaPort
from livecore.players.rules import Player
from livecore.scope import Environment


class MemoryAttempts(AreaPort[LiveEventTables]):
    __slots__ = ()
    TABLES = LiveEventTables

    def insert(self, attempt: Attempt) -> None:
        key = (attempt.game_id, attempt.id)
        self._tx.put(self._t.attempts, key, attempt)
        self._index(attempt, key)
        if attempt.lobby_id is not None:
            held = self._t.room_attempts.get(attempt.lobby_id, ())
            self._tx.put(self._t.room_attempts, attempt.lobby_id, (*held, key))
        self._progress(attempt, key)

    def _index(self, attempt: Attempt, key: tuple[str, str]) -> None:
        """Starts look up a player's attempts in a window; a simulation starts thousands."""
        slot = (attempt.player_id, attempt.window_id)
        self._tx.put(self._t.attempt_index, slot, (*self._t.attempt_index.get(slot, ()), key))

    def _progress(self, attempt: Attempt, key: tuple[str, str]) -> None:
        if attempt.status is AttemptStatus.IN_PROGRESS:
            if key not in self._t.in_progress:
                self._tx.put(self._t.in_progress, key, None)
        else:
            self._tx.drop(self._t.in_progress, key)

    def get(self, game_id: str, attempt_id: str) -> Attempt | None:
        return self._t.attempts.get((game_id, attempt_id))

    def update(self, attempt: Attempt) -> None:
        key = (attempt.game_id, attempt.id)
        self._tx.put(self._t.attempts, key, attempt)
        self._progress(attempt, key)

    def _in_progress(self) -> list[Attempt]:
        attempts = self._t.attempts
        return [attempts[key] for key in self._t.in_progress]

    def of_player_in_window(self, player_id: str, window_id: str) -> list[Attempt]:
        mine = [self._t.attempts[key] for key in self._t.attempt_index.get((player_id, window_id), ())]
        return sorted(mine, key=lambda a: (a.started_at, a.id))

    def in_progress_in_window(self, window_id: str, limit: int) -> list[Attempt]:
        found = [a for a in self._in_progress() if a.window_id == window_id]
        return sorted(found, key=lambda a: (a.started_at, a.id))[:limit]

    def of_room(self, room_id: str) -> list[Attempt]:
        found = [self._t.attempts[key] for key in self._t.room_attempts.get(room_id, ())]
        return sorted(found, key=lambda a: (a.started_at, a.id))

    def past_end(self, now: datetime, limit: int) -> list[Attempt]:
        due = [a for a in self._in_progress() if a.ends_at <= now]
        return sorted(due, key=lambda a: (a.ends_at, a.id))[:limit]

    def recent(self, player_id: str, limit: int) -> list[Attempt]:
        mine = [a for a in self._t.attempts.values() if a.player_id == player_id]
        return sorted(mine, key=lambda a: (a.started_at, a.id), reverse=True)[:limit]

    def counts(self, player_id: str) -> dict[AttemptStatus, int]:
        counts = dict.fromkeys(AttemptStatus, 0)
        for a in self._t.attempts.values():
            if a.player_id == player_id:
                counts[a.status] += 1
        return counts

    def tallies(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[tuple[str, str], AttemptTally]:
        found = sorted(
            (a for a in self._t.attempts.values() if a.game_id == game_id and a.env is env),
            key=lambda a: (a.started_at, a.id),
        )
        # -> attempts, plays, scored, score sum, sum of squared scores, busy seconds
        counts: dict[tuple[str, str], list[float]] = {}
        ends: dict[tuple[str, str], datetime] = {}  # -> the end due of the latest attempt
        for a in found:
            key = (a.player_id, a.event_key)
            before = ends.get(key)
            ends[key] = a.ends_at
            if not since <= a.started_at < until:
                continue
            tally = counts.setdefault(key, [0, 0, 0, 0.0, 0.0, 0.0])
            tally[0] += 1
            tally[1] += before is None or a.started_at >= before
            # The time due it adds to its play: from its start, or from the end due of the one before.
            added_from = a.started_at if before is None else max(a.started_at, before)
            tally[5] += max(0.0, (a.ends_at - added_from).total_seconds())
            if a.score is not None:
                tally[2] += 1
                tally[3] += a.score
                tally[4] += float(a.score) * a.score
        return {
            k: AttemptTally(int(n), int(p), int(s), total, squares, busy)
            for k, (n, p, s, total, squares, busy) in counts.items()
        }

    def reassign(self, from_id: str, to: Player) -> None:
        for key, a in list(self._t.attempts.items()):
            if a.player_id == from_id:
                moved = attrs.evolve(a, player_id=to.id, external_player_id=to.external_id)
                self._tx.put(self._t.attempts, key, moved)
                self._tx.drop(self._t.attempt_index, (from_id, a.window_id))
                self._index(moved, key)


def _implements_the_port(port: MemoryAttempts) -> AttemptStore:
    return port  # mypy checks the class against the area's port here
