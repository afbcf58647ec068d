"""A player's lobbies as its profile and its export show them (``livecore.player_tools``): the same
views the lobby routes answer."""

from __future__ import annotations

from collections.abc import Sequence

from livecore.lobbies.api import LobbyResponse, LobbyView
from livecore.lobbies.commands import LobbiesTx, lobby_read
from livecore.lobbies.rules import Seat


def lobby_views(tx: LobbiesTx, game_id: str, seats: Sequence[Seat]) -> list[LobbyView]:
    """The lobbies of a player's ``seats``, in their order, their participants' identities read now."""
    views = []
    for seat in seats:
        lobby = tx.lobbies.get(game_id, seat.lobby_id)
        assert lobby is not None, seat
        views.append(LobbyResponse.of(lobby_read(tx, lobby)).lobby)
    return views


__all__ = ["lobby_views"]
