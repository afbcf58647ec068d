"""Player tools and lobbies through the API, on SQLite and PostgreSQL: the profile's ``lobbies`` and
``summary.lobbiesActive``, the export's ``lobbyMemberships``, a merge keeping one seat per window, an
erasure keeping the seats under the placeholder (docs/reference/player-tools.md). Lobbies and seats are
written through the store, on the window of the ``sprint`` event of
``tests/server/test_player_tools_events_api.py``."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta

import attrs
import pytest

from livecore.lobbies.rules import Lobby, LobbyStatus, PromotionReason, Seat, SeatSource
from tests.conftest import start_world
from tests.server.player_tools_support import ARENA, DELETED_ID, Arena, ok
from tests.server.test_player_tools_events_api import EVENTS, play


@pytest.fixture
async def arena(db_url: str) -> AsyncIterator[Arena]:
    world = await start_world(db_url, manifest_extra=ARENA + EVENTS)
    a = Arena(world, "arena")
    try:
        yield a
    finally:
        await world.client.close()


async def _seat(arena: Arena, lobby: Lobby, who: str, seconds: int) -> None:
    joined = lobby.created_at + timedelta(seconds=seconds)
    seat = Seat(lobby.id, lobby.window_id, arena.player_id(who), joined, SeatSource.MATCHMAKING, who)

    def add(tx: object) -> None:
        tx.lobbies.add_seat(seat)  # type: ignore[attr-defined]

    await arena.world.services.store.run_async(add)


async def _lobbies(arena: Arena, **statuses: LobbyStatus) -> dict[str, Lobby]:
    """One empty lobby per name (at most two) on the window of ``sprint``, inserted through the store, a
    second apart."""
    sprint = await play(arena, "ann", "sprint", None)
    game_id = arena.world.applied["games"]["arena"]["id"]
    store = arena.world.services.store
    now = arena.world.clock.now()
    made = {}
    for n, (name, status) in enumerate(statuses.items()):
        window_id = sprint["windowId"]
        window = store.run(lambda tx, w=window_id: tx.windows.get(game_id, w), write=False)
        lobby = Lobby(
            id=f"lob_0000000000000000000000000{n}",
            game_id=game_id,
            env=window.env,
            event_key=window.event_key,
            event_id=window.event_id,
            window_id=window.id,
            board_id=f"brd_lobby{n}",
            status=status,
            capacity=4,
            segment_values={},
            segment_key="{}",
            created_at=now + timedelta(seconds=n),
            ends_at=window.ends_at,
            fill_by=now + timedelta(minutes=1),
            participant_count=0,
            started_at=None if status is LobbyStatus.FORMING else now,
            promotion_reason=None if status is LobbyStatus.FORMING else PromotionReason.CAPACITY,
        )
        await store.run_async(lambda tx, lobby=lobby: tx.lobbies.insert(lobby))
        made[name] = lobby
    return made


async def _count(arena: Arena, lobby: Lobby, n: int) -> None:
    store = arena.world.services.store
    await store.run_async(lambda tx: tx.lobbies.update(attrs.evolve(lobby, participant_count=n)))


async def test_profile_and_export_list_the_players_lobbies_newest_first_and_count_the_running_ones(
    arena: Arena,
) -> None:
    await arena.register("ann", "sam", "tom")
    made = await _lobbies(arena, closed=LobbyStatus.CLOSED, forming=LobbyStatus.FORMING)
    await _seat(arena, made["closed"], "sam", 0)
    await _seat(arena, made["closed"], "tom", 1)
    await _count(arena, made["closed"], 2)
    ok(await arena.sdk("PUT", "tom", "/identity", {"name": "Tommy", "avatar": None}))
    data = ok(await arena.profile("sam"))
    assert data["summary"]["lobbiesActive"] == 0  # a closed lobby is not running
    (closed,) = data["lobbies"]
    assert (closed["lobbyId"], closed["status"], closed["participantCount"]) == (
        made["closed"].id,
        "closed",
        2,
    )
    assert [
        (p["externalPlayerId"], p["displayIdentity"]["name"], p["isBot"]) for p in closed["participants"]
    ][1] == ("tom", "Tommy", False)

    # One seat per window: sam's next lobby is on lap's window, and it is running.
    made_lap = await _lobbies_on_lap(arena)
    await _seat(arena, made_lap, "sam", 0)
    data = ok(await arena.profile("sam"))
    assert data["summary"]["lobbiesActive"] == 1
    assert [lobby["lobbyId"] for lobby in data["lobbies"]] == [made_lap.id, made["closed"].id]
    assert [lobby["lobbyId"] for lobby in ok(await arena.profile("sam", "?limit=1"))["lobbies"]] == [
        made_lap.id
    ]
    exported = await arena.exported("sam")
    assert exported["lobbyMemberships"] == data["lobbies"]
    assert ok(await arena.profile("ann"))["lobbies"] == []


async def _lobbies_on_lap(arena: Arena) -> Lobby:
    """A forming lobby on the window of ``lap``, a copy of the second lobby :func:`_lobbies` made."""
    game_id = arena.world.applied["games"]["arena"]["id"]
    store = arena.world.services.store
    model = store.run(lambda tx: tx.lobbies.get(game_id, "lob_00000000000000000000000001"), write=False)
    assert model is not None
    window_id = (await play(arena, "ann", "lap", None))["windowId"]  # the window's row comes with a start
    lobby = attrs.evolve(model, id="lob_00000000000000000000000009", window_id=window_id, event_key="lap")
    await store.run_async(lambda tx: tx.lobbies.insert(lobby))
    return lobby


async def test_merge_keeps_one_seat_per_window_and_erasure_keeps_the_seats_under_the_placeholder(
    arena: Arena,
) -> None:
    await arena.register("ann", "sam", "tom")
    made = await _lobbies(arena, mine=LobbyStatus.FORMING, theirs=LobbyStatus.ACTIVE)
    await _seat(arena, made["mine"], "sam", 0)
    await _seat(arena, made["mine"], "ann", 1)
    await _count(arena, made["mine"], 2)
    await _seat(arena, made["theirs"], "tom", 0)
    await _count(arena, made["theirs"], 1)
    ok(await arena.merge("sam", "tom"))
    data = ok(await arena.profile("tom"))
    # tom sat in the window already: sam's seat went, and its lobby counts one participant fewer.
    assert [lobby["lobbyId"] for lobby in data["lobbies"]] == [made["theirs"].id]
    (left,) = ok(await arena.profile("ann"))["lobbies"]
    assert left["participantCount"] == 1
    assert [p["externalPlayerId"] for p in left["participants"]] == ["ann"]

    placeholder = ok(await arena.erase("tom"))["anonymizedExternalId"]
    assert re.fullmatch(DELETED_ID, placeholder)
    (kept,) = ok(await arena.profile(placeholder))["lobbies"]
    assert kept["participants"][0]["externalPlayerId"] == placeholder
    assert kept["participants"][0]["displayIdentity"]["name"] == "Deleted player"
    assert ok(await arena.profile(placeholder))["summary"]["lobbiesActive"] == 1
