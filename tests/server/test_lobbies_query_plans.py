"""Every read of the lobbies port is an index look-up, on SQLite and on PostgreSQL, as
tests/server/test_boards_query_plans.py checks for event boards (and with its helpers): no full scan, no
sort, on a game whose event windows hold a few hundred lobbies and seats."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import change
from livecore.economy.rules import Reason, resource
from livecore.hashing import KeyedHasher
from livecore.live_events.commands import live_events as cmd
from livecore.live_events.commands.steps import Held
from livecore.lobbies.rules import Lobby, LobbyStatus, Seat, SeatSource
from livecore.players.commands import first_contact, load_game
from livecore.players.identity import Identity
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.storage.sqlite import SqliteStore
from tests.core.events_machine import SETTINGS, T0
from tests.server.test_boards_query_plans import POSTGRES_SCAN, SQLITE_SCAN, _plans, store_with_game

SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
PLAYERS = 300
CAPACITY = 4
STATUSES = (LobbyStatus.FORMING, LobbyStatus.ACTIVE, LobbyStatus.CLOSED)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> Iterator[Any]:
    yield from store_with_game(request.param, SETTINGS)


def _filled(store: Any) -> Runtime:
    """Both events' windows open, each player seated in a lobby of each (four to a lobby, one bot among
    them), lobbies forming, active and closed, some pushed."""
    rt = Runtime(
        clock=ManualClock(T0 + timedelta(minutes=31)),
        rng=SeededRandomSource(4),
        hasher=KeyedHasher(b"q" * 32),
    )
    now = rt.clock.now()

    def fill(tx: Any) -> None:
        players = [first_contact(tx, rt, SCOPE, f"p{n}") for n in range(PLAYERS)]
        game = load_game(tx, SCOPE)
        change(tx, rt, SCOPE, game, players[0], resource(game, "coins"), 100, Reason.SERVER_CREDIT)
        for key in ("race", "sprint"):
            started = cmd.start(tx, rt, SCOPE, players[0], key, None)
            held = started.record if isinstance(started, Held) else started  # the lobby that forms
            window = tx.windows.get(SCOPE.game_id, held.window_id)
            for n, player in enumerate(players):
                number, seat = divmod(n, CAPACITY - 1)
                lobby = Lobby(
                    id=f"lob_{key}{number:04d}",
                    game_id=SCOPE.game_id,
                    env=SCOPE.env,
                    event_key=key,
                    event_id=window.event_id,
                    window_id=window.id,
                    board_id=f"brd_{key}{number:04d}",
                    status=STATUSES[number % 3],
                    capacity=CAPACITY,
                    segment_values={"country": ("FR", "DE")[number % 2]},
                    segment_key=("FR", "DE")[number % 2],
                    created_at=now + timedelta(seconds=number),
                    ends_at=window.ends_at,
                    fill_by=now + timedelta(seconds=60 + number),
                    push_key=f"{key}{number}" if number % 5 == 0 else None,
                )
                if seat == 0:
                    tx.lobbies.insert(lobby)
                    bot = Seat(
                        lobby.id,
                        window.id,
                        f"bot_{key}{number}",
                        now,
                        SeatSource.BOT,
                        None,
                        Identity("B", None),
                    )
                    tx.lobbies.add_seat(bot)
                tx.lobbies.add_seat(
                    Seat(
                        lobby.id,
                        window.id,
                        player.id,
                        now + timedelta(seconds=n),
                        SeatSource.MATCHMAKING,
                        player.external_id,
                    )
                )

    store.run(fill)
    if isinstance(store, SqliteStore):
        store.conn.execute("ANALYZE")
    else:
        store.run(lambda tx: tx.execute("ANALYZE"))
    return rt


def test_every_read_of_the_lobbies_port_is_an_index_look_up(store: Any) -> None:
    rt = _filled(store)
    now = rt.clock.now()

    def reads(tx: Any) -> None:
        ports = tx.lobbies
        player = tx.players.get(SCOPE.game_id, "p9")
        (seat, *_) = ports.seats_of(player.id, 10)
        lobby = ports.get(SCOPE.game_id, seat.lobby_id)
        ports.oldest_forming(lobby.window_id, "FR")
        ports.by_push_key(SCOPE.game_id, SCOPE.env, "race0")
        ports.of_window(lobby.window_id)
        ports.due_to_fill(now + timedelta(minutes=2), 10)
        ports.next_fill_by()
        ports.seats(lobby.id)
        ports.seat_in_window(lobby.window_id, player.id)

    plans = _plans(store, reads)
    scan = SQLITE_SCAN if isinstance(store, SqliteStore) else POSTGRES_SCAN
    checked = [(s, plan) for s, plan in plans if "lobbies" in s or "lobby_seats" in s]
    assert len(checked) == 9
    for statement, plan in checked:
        assert not scan.search(plan), f"{statement}\n{plan}"
