"""The purchase actions of a simulation: a player reporting its own store purchase (``sdk.purchases``,
never verified) and the studio's backend tracking one (``server.purchases.track``, which may say it
verified the receipt)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from livecore.memory.store import MemoryTransaction
from livecore.players.commands import get_player
from livecore.players.rules import Player
from livecore.purchases import api
from livecore.purchases import commands as cmd
from livecore.purchases.rules import PurchaseRequest, ValidationStatus
from livecore.simulation.actions import Actions, ServerActions, body, external_id_of

if TYPE_CHECKING:
    from livecore.simulation.handle import Handle


class Purchases(Actions):
    """``player.purchases``: the game's report of the player's store purchases."""

    def track(
        self,
        *,
        transaction_id: str,
        store: str,
        product_id: str,
        product_type: str,
        amount_minor: int,
        currency: str,
        purchased_at: datetime | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> api.TrackPurchaseResponse:
        """Report a store purchase of ``amount_minor`` in ``currency``'s minor unit, stored unverified
        (``purchased_at`` defaults to now). Idempotent on ``transaction_id``: reporting it again answers
        the stored purchase; the same id with a different purchase is refused."""
        sim = self._sim
        asked = PurchaseRequest.reported(
            body(
                api.TrackPurchaseRequest,
                transaction_id=transaction_id,
                store=store,
                product_id=product_id,
                product_type=product_type,
                amount_minor=amount_minor,
                currency=currency,
                purchased_at=purchased_at,
                metadata=metadata,
            )
        )

        def op(tx: cmd.PurchasesTx, me: Player) -> api.TrackPurchaseResponse:
            return api.TrackPurchaseResponse.of(cmd.report(tx, sim.rt, sim.scope, me, asked))

        return self._write(op)


class ServerPurchases(ServerActions):
    """``sim.server.purchases``: the studio's backend tracking a player's purchases."""

    def track(
        self,
        external_id: Handle | str,
        *,
        transaction_id: str,
        store: str,
        product_id: str,
        product_type: str,
        amount_minor: int,
        currency: str,
        purchased_at: datetime | None = None,
        metadata: Mapping[str, Any] | None = None,
        validation_status: ValidationStatus | str | None = None,
    ) -> api.TrackPurchaseResponse:
        """Record a store purchase for the player, ``unverified`` unless ``validation_status`` says
        ``verified`` (a repeat may upgrade a reported one); ``purchase.tracked`` fires once per
        transaction id."""
        sim = self._sim
        asked = body(
            api.ServerTrackPurchaseRequest,
            transaction_id=transaction_id,
            store=store,
            product_id=product_id,
            product_type=product_type,
            amount_minor=amount_minor,
            currency=currency,
            purchased_at=purchased_at,
            metadata=metadata,
            validation_status=validation_status,
        )

        def op(tx: MemoryTransaction) -> api.TrackPurchaseResponse:
            player = get_player(tx, sim.server_scope, external_id_of(external_id) or "")
            return api.TrackPurchaseResponse.of(cmd.track(tx, sim.rt, sim.server_scope, player, asked))

        return self._run(op)
