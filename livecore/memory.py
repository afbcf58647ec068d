"""In-memory store: the port on plain dicts, for simulations and tests.

A transaction records an undo step for each write, so a command that raises leaves nothing behind,
exactly like a database rollback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime

import attrs

from livecore.events import DEBOUNCE, DomainEvent
from livecore.games import Game, Studio
from livecore.idempotency import StoredResponse
from livecore.players import Player


class MemoryStore:
    def __init__(self) -> None:
        self.studios: dict[str, Studio] = {}
        self.games: dict[str, Game] = {}
        self.players: dict[tuple[str, str], Player] = {}
        self.outbox: list[DomainEvent] = []
        self.bursts: dict[str, tuple[int, datetime]] = {}  # debounce key -> (outbox index, first time)
        self.idempotency: dict[tuple[str, str], StoredResponse] = {}

    def add_game(self, studio: Studio, game: Game) -> None:
        self.studios[studio.id] = studio
        self.games[game.id] = game

    @contextmanager
    def transaction(self) -> Iterator[MemoryTransaction]:
        tx = MemoryTransaction(self)
        try:
            yield tx
        except BaseException:
            tx.rollback()
            raise


class MemoryTransaction:
    def __init__(self, store: MemoryStore) -> None:
        self._s = store
        self._undo: list[Callable[[], object]] = []

    def rollback(self) -> None:
        for step in reversed(self._undo):
            step()
        self._undo.clear()

    def _set(self, table: dict[tuple[str, str], Player], key: tuple[str, str], value: Player) -> None:
        if key in table:
            old = table[key]
            self._undo.append(lambda: table.__setitem__(key, old))
        else:
            self._undo.append(lambda: table.pop(key, None))
        table[key] = value

    def get_game(self, game_id: str) -> Game | None:
        return self._s.games.get(game_id)

    def get_player(self, game_id: str, external_id: str) -> Player | None:
        return self._s.players.get((game_id, external_id))

    def insert_player(self, player: Player) -> None:
        key = (player.game_id, player.external_id)
        if key in self._s.players:
            raise KeyError(f"player {player.external_id!r} exists")
        self._set(self._s.players, key, player)

    def update_player(self, player: Player) -> None:
        self._set(self._s.players, (player.game_id, player.external_id), player)

    def reset_missed_streaks(self, last_day_before: date) -> int:
        changed = 0
        for key, player in list(self._s.players.items()):
            day = player.activity.streak_day
            if player.activity.streak > 0 and day is not None and day < last_day_before:
                self._set(
                    self._s.players,
                    key,
                    attrs.evolve(player, activity=attrs.evolve(player.activity, streak=0)),
                )
                changed += 1
        return changed

    def emit(self, event: DomainEvent) -> None:
        outbox = self._s.outbox
        bursts = self._s.bursts
        key = event.debounce_key
        if key is not None and key in bursts:
            index, started = bursts[key]
            # Same rule as the server's outbox: within DEBOUNCE of the burst's first event, the burst's
            # one event takes the latest state (and time), keeping the first event's id.
            if event.occurred_at < started + DEBOUNCE:
                previous = outbox[index]
                outbox[index] = attrs.evolve(previous, data=event.data, occurred_at=event.occurred_at)
                self._undo.append(lambda: outbox.__setitem__(index, previous))
                return
        if key is not None:
            old = bursts.get(key)
            bursts[key] = (len(outbox), event.occurred_at)
            self._undo.append(lambda: bursts.__setitem__(key, old) if old else bursts.pop(key, None))
        outbox.append(event)
        self._undo.append(outbox.pop)

    def get_idempotent(self, scope: str, key: str) -> StoredResponse | None:
        return self._s.idempotency.get((scope, key))

    def put_idempotent(self, stored: StoredResponse) -> None:
        table = self._s.idempotency
        k = (stored.scope, stored.key)
        old = table.get(k)
        self._undo.append(lambda: table.__setitem__(k, old) if old is not None else table.pop(k, None))
        table[k] = stored
