"""The lobbies area's rows: a lobby is kept in the declared ``lobbies`` table (:data:`LOBBY`: its insert,
the values it writes and how a row is read back, :class:`~livecore_server.storage.mapped.Mapped`); a
seat's columns are declared once (read by name, :data:`SEAT_COLUMNS`) and the values it writes are in
their order (:func:`seat_row`)."""

from __future__ import annotations

from typing import Any

from livecore.clock import from_millis, to_millis
from livecore.lobbies.rules import Lobby, Seat, SeatSource
from livecore.players.identity import Identity
from livecore_server.lobbies.schema import SCHEMA
from livecore_server.storage.columns import Columns
from livecore_server.storage.mapped import Mapped

LOBBY = Mapped(SCHEMA.table("lobbies"), Lobby)
LOBBY_COLUMNS = LOBBY.columns


# Hand-written: a seat's one attribute ``identity`` is kept in two columns (its name and avatar).
def seat_row(s: Seat) -> tuple[Any, ...]:
    # A seat's identity is a bot's, drawn from the pool: a name and an avatar (no country).
    identity = s.identity
    return (
        s.lobby_id,
        s.window_id,
        s.seat_id,
        to_millis(s.joined_at),
        s.source.value,
        s.external_player_id,
        None if identity is None else identity.name,
        None if identity is None else identity.avatar,
        s.final_score,
        s.position,
    )


def _seat(
    lobby_id: Any,
    window_id: Any,
    seat_id: Any,
    joined_at: Any,
    source: Any,
    external_player_id: Any,
    identity_name: Any,
    identity_avatar: Any,
    final_score: Any,
    seat_position: Any,
) -> Seat:
    return Seat(
        lobby_id=lobby_id,
        window_id=window_id,
        seat_id=seat_id,
        joined_at=from_millis(joined_at),
        source=SeatSource(source),
        external_player_id=external_player_id,
        identity=None if identity_name is None else Identity(name=identity_name, avatar=identity_avatar),
        final_score=final_score,
        position=seat_position,
    )


SEAT_COLUMNS = Columns(_seat)
