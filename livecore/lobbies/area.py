"""The lobbies area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from functools import partial

from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.live_events.commands.boards import ROOM_ROWS
from livecore.live_events.commands.steps import CLOSE, PROGRESS, SHARED_ROWS, START
from livecore.live_events.settings import EventSettings
from livecore.lobbies import api, samples, webhooks
from livecore.lobbies.boards import lobby_rows
from livecore.lobbies.commands import (
    after_progress,
    close_lobbies,
    fill_lobby,
    lobbies_to_fill,
    next_fill,
    seat_start,
)
from livecore.lobbies.errors import CODES, LOBBY_NOT_FOUND
from livecore.lobbies.handlers import HANDLERS
from livecore.lobbies.manifest import LOBBY, SUDDEN_DEATH
from livecore.lobbies.memory import LobbyTables, MemoryLobbies
from livecore.lobbies.rules import BOT_ID_PREFIX, LOBBY_ID_PREFIX
from livecore.lobbies.season import SEASON
from livecore.lobbies.settings import LOBBY_SETTINGS
from livecore.lobbies.store import HasLobbies
from livecore.players.rules import Player
from livecore.schedule import Job, Task, once
from livecore.scope import Scope


def _filling(tx: HasLobbies, rt: Runtime) -> list[Task]:
    """Forming lobbies whose ``fill_by`` has come: each starts in a step of its own."""
    return [
        Task(
            lobby.id,
            lobby.game_id,
            once(partial(fill_lobby, rt=rt, game_id=lobby.game_id, lobby_id=lobby.id)),
        )
        for lobby in lobbies_to_fill(tx, rt)
    ]


def _move_records(tx: HasLobbies, rt: Runtime, scope: Scope, player: Player, to: Player) -> None:
    """A merge or an erasure: the player's lobby seats become ``to``'s (one seat per window: where both
    sat, the target keeps its own, with its attempt and entry)."""
    tx.lobbies.reassign(player.id, to)


def _in_lobbies(event: EventSettings) -> bool:
    """A lobby event's progress may end its lobby's session, freezing the other players' attempts."""
    return event.of(LOBBY_SETTINGS) is not None


AREA = Area(
    name="lobbies",
    # On live events: a lobby event's start takes a seat, a progress write may end the lobby's session, the
    # window's close closes its lobbies, and a lobby's board shows its bots.
    contributes=(
        START(seat_start),
        PROGRESS(after_progress),
        CLOSE(close_lobbies),
        ROOM_ROWS(lobby_rows),
        SHARED_ROWS(_in_lobbies),
    ),
    manifest=(LOBBY, SUDDEN_DEATH),
    summary="Lobbies: matchmaking within an event window, bots, fill deadlines, sudden death.",
    page="events",
    builds_on=("live_events",),
    routes=api.ROUTES,
    handlers=HANDLERS,
    record_ids={"lobbyId": LOBBY_NOT_FOUND},
    merge=_move_records,
    erase=_move_records,
    jobs=(
        Job(
            "lobby_fill_timeouts",
            _filling,
            next_due=lambda tx, rt: next_fill(tx),
            reads=("lobbies.lobbies", "lobbies.forming"),
        ),
    ),
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    id_prefixes=(LOBBY_ID_PREFIX, BOT_ID_PREFIX),
    tables=LobbyTables,
    ports={"lobbies": MemoryLobbies},
    season=SEASON,
    client=(
        ClientPart("sdk", "live_events", "livecore_client.resources.lobbies", "LobbyStart"),
        ClientPart("sdk", "lobbies", "livecore_client.resources.lobbies", "Lobbies", simulated=False),
        ClientPart("server", "lobbies", "livecore_client.resources.lobbies", "ServerLobbies"),
    ),
)
