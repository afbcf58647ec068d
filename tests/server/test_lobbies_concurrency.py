"""Lobby starts under real concurrent HTTP requests on SQLite (docs/lobbies.md#starting-on-a-lobby-event):
many players starting at once on the app's real socket never put a lobby over its capacity, each player
holds one seat of the window, and each lobby starts once. The two-process PostgreSQL twin is in
tests/server/test_scale_out.py."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.conftest import start_world
from tests.server.gift_support import FAST_KEYS, Game

# Open at the world's START (12:00); lobbies of four that start anyway a minute after they open.
BRAWL = """
[games.brawl]
name = "Brawl"

[games.brawl.events.melee]
name = "Melee"
starts_at = "2026-03-02T12:00:00Z"
window_seconds = 3600
attempt_seconds = 600
score_metric = "score"

[games.brawl.events.melee.lobby]
capacity = 4
fill_seconds = 60
""" + FAST_KEYS.format(game="brawl", prefix="")


@pytest.fixture
async def brawl(tmp_path: Path) -> AsyncIterator[Game]:
    world = await start_world(str(tmp_path / "lobbies.db"), manifest_extra=BRAWL)
    try:
        yield Game(world, "brawl")
    finally:
        await world.client.close()


async def start(game: Game, who: str) -> tuple[int, str]:
    status, body, _ = await game.sdk("POST", who, "/events/melee/start")
    assert status in (201, 202), body
    return status, body["data"]["attempt"]["lobbyId"] if status == 201 else body["error"]["details"][
        "lobbyId"
    ]


def seats(game: Game) -> list[tuple[str, str, str]]:
    """(lobby id, window id, seat id) of every seat of the game."""
    rows = game.world.rows(
        "SELECT s.lobby_id, s.window_id, s.seat_id FROM lobby_seats s JOIN lobbies l ON l.id = s.lobby_id"
        " WHERE l.game_id = ?",
        (game.id,),
    )
    return [(str(a), str(b), str(c)) for a, b, c in rows]


def lobbies(game: Game) -> dict[str, tuple[str, int, int]]:
    """Each lobby of the game: its status, capacity and participant count."""
    rows = game.world.rows(
        "SELECT id, status, capacity, participant_count FROM lobbies WHERE game_id = ?", (game.id,)
    )
    return {str(i): (str(s), int(c), int(n)) for i, s, c, n in rows}


def started(game: Game) -> Counter[str]:
    """``lobby.started`` per lobby id."""
    return Counter(e.data["lobbyId"] for e in game.events("lobby.started"))


def check_seating(game: Game) -> dict[str, tuple[str, int, int]]:
    """Never over capacity, the count is the seats, one seat per player per window."""
    taken = seats(game)
    found = lobbies(game)
    per_lobby = Counter(lobby for lobby, _, _ in taken)
    for lobby_id, (_, capacity, count) in found.items():
        assert per_lobby[lobby_id] <= capacity == 4
        assert count == per_lobby[lobby_id], lobby_id
    per_player = Counter((window, seat) for _, window, seat in taken)
    assert [k for k, n in per_player.items() if n > 1] == []
    return found


async def test_sixty_simultaneous_starts_fill_fifteen_lobbies_of_four_each_started_once(brawl: Game) -> None:
    players = [f"p{i:02d}" for i in range(60)]
    await brawl.register(*players)
    answers = await asyncio.gather(*(start(brawl, who) for who in players))

    found = check_seating(brawl)
    assert sorted(found.values()) == [("active", 4, 4)] * 15
    # The start that took a lobby's last seat started it (201); the three before it waited (202).
    assert Counter(status for status, _ in answers) == {201: 15, 202: 45}
    assert Counter(lobby for _, lobby in answers) == dict.fromkeys(found, 4)
    assert len({(w, s) for _, w, s in seats(brawl)}) == 60
    assert started(brawl) == dict.fromkeys(found, 1)
    assert Counter(e.data["promotionReason"] for e in brawl.events("lobby.started")) == {"capacity": 15}
    assert len(brawl.events("lobby.created")) == 15 and len(brawl.events("lobby.player_joined")) == 60


async def test_a_player_starting_many_times_at_once_takes_one_seat(brawl: Game) -> None:
    await brawl.register("ann", "bob")
    answers = await asyncio.gather(*(start(brawl, "ann") for _ in range(10)))
    assert {a for a in answers} == {(202, answers[0][1])}  # one forming lobby, the same answer each time
    assert lobbies(brawl) == {answers[0][1]: ("forming", 4, 1)}
    assert len(seats(brawl)) == 1 and len(brawl.events("lobby.player_joined")) == 1

    # Mixed with another player's starts: still one seat each, in the one lobby.
    more = await asyncio.gather(*(start(brawl, who) for who in ["ann", "bob"] * 5))
    assert {lobby for _, lobby in more} == {answers[0][1]}
    check_seating(brawl)
    assert lobbies(brawl) == {answers[0][1]: ("forming", 4, 2)}
    assert Counter(seat for *_, seat in seats(brawl)) == {
        brawl.player_id("ann"): 1,
        brawl.player_id("bob"): 1,
    }
