"""Server gift history of a player (docs/reference/gifts.md#lists)."""

from __future__ import annotations

from typing import Protocol

from livecore.gifts import api
from livecore.gifts.rules import check_history_visible
from livecore.players.commands import get_player, load_game
from livecore.store import (
    HasGames,
    HasGifts,
    HasPlayers,
)
from livecore_server.http.endpoint import Binding, Call, bind


class Tx(HasGames, HasPlayers, HasGifts, Protocol):
    """The ports these handlers use."""


def history(call: Call[None, api.ServerGiftsQuery], tx: Tx) -> api.ServerGiftsResponse:
    check_history_visible(load_game(tx, call.scope))
    player = get_player(tx, call.scope, call.external_id, retired=True)
    sent = call.query.direction is api.GiftHistoryDirection.SENT
    rows = tx.gifts.page(player.id, sent=sent, claimable_at=None, limit=call.query.limit)
    now = call.rt.clock.now()
    return api.ServerGiftsResponse(
        direction=call.query.direction,
        gifts=[api.GiftView.of(r.gift, player.id, r.counterparty, r.grant_status_at(now)) for r in rows],
    )


BINDINGS: list[Binding] = [bind(api.SERVER_GIFTS, history)]
