"""The gift actions of a simulated player (``sdk.gifts``): send, claim, the catalog, inbox and sent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from livecore.friends.commands import resolve_target
from livecore.games import ResourceType
from livecore.gifts import api
from livecore.gifts import commands as cmd
from livecore.gifts.rules import SendRequest
from livecore.players.commands import load_game
from livecore.players.rules import Player
from livecore.simulation.actions import Actions, body, external_id_of

if TYPE_CHECKING:
    from livecore.simulation.handle import Handle


class Gifts(Actions):
    def send(
        self,
        *,
        type: ResourceType | str,
        resource_key: str,
        amount: int,
        external_player_id: Handle | str | None = None,
        friend_code: str | None = None,
        message: str | None = None,
    ) -> api.GiftResponse:
        """Send a friend ``amount`` of ``resource_key``, by ``external_player_id`` or ``friend_code``."""
        sim = self._sim
        asked = body(
            api.SendGiftRequest,
            type=type,
            resource_key=resource_key,
            amount=amount,
            external_player_id=external_id_of(external_player_id),
            friend_code=friend_code,
            message=message,
        )
        request = SendRequest(
            type=asked.type, resource_key=asked.resource_key, amount=asked.amount, message=asked.message
        )

        def op(tx: cmd.GiftsTx, me: Player) -> api.GiftResponse:
            target = resolve_target(tx, sim.scope, asked.friend_code, asked.external_player_id)
            sent = cmd.send(tx, sim.rt, sim.scope, load_game(tx, sim.scope), me, target, request)
            return api.GiftResponse(gift=api.GiftView.of(sent.gift, me.id, target))

        return self._write(op)

    def claim(self, gift_id: str) -> api.GiftResponse:
        """Claim a gift sent to the player: it becomes its grant's entries."""
        sim = self._sim

        def op(tx: cmd.GiftsTx, me: Player) -> api.GiftResponse:
            gift = cmd.claim(tx, sim.rt, sim.scope, me, gift_id)
            sender = tx.players.by_id(gift.sender_id)
            assert sender is not None
            return api.GiftResponse(gift=api.GiftView.of(gift, me.id, sender))

        return self._write(op)

    def inbox(self, *, pending: bool = False, limit: int = 100) -> list[api.GiftView]:
        """Gifts sent to the player, newest first (``pending``: only those it can still claim)."""
        return self._list(sent=False, query=api.GiftListQuery(pending=pending, limit=limit))

    def sent(self, *, pending: bool = False, limit: int = 100) -> list[api.GiftView]:
        """Gifts the player sent, newest first."""
        return self._list(sent=True, query=api.GiftListQuery(pending=pending, limit=limit))

    def _list(self, *, sent: bool, query: api.GiftListQuery) -> list[api.GiftView]:
        now = self._sim.clock.now()
        pending, limit = query.pending, query.rows()

        def op(tx: cmd.GiftsTx, me: Player) -> list[api.GiftView]:
            rows = tx.gifts.page(me.id, sent=sent, claimable_at=now if pending else None, limit=limit)
            return [api.GiftView.of(r.gift, me.id, r.counterparty) for r in rows]

        return self._read(op)
