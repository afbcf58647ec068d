"""Purchase tracking: :mod:`livecore.purchases.rules` applied through the store."""

from __future__ import annotations

from typing import Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.ids import new_id
from livecore.players.commands import load_game
from livecore.players.rules import Player
from livecore.purchases.rules import (
    PURCHASE_ID_PREFIX,
    PlayerSpend,
    Purchase,
    PurchaseRequest,
    ValidationStatus,
    check_replay,
    check_request,
    normalize,
    upgrades,
    usd_rate,
)
from livecore.purchases.store import HasPurchases
from livecore.purchases.webhooks import PurchaseTracked
from livecore.scope import Scope
from livecore.store.games import HasGames
from livecore.store.outbox import HasOutbox


class PurchasesTx(HasGames, HasPurchases, HasOutbox, Protocol):
    """The ports these commands use."""


@attrs.frozen
class Tracked:
    purchase: Purchase
    spend: PlayerSpend  # the player's spend after this purchase
    replayed: bool = False


def track(tx: PurchasesTx, rt: Runtime, scope: Scope, player: Player, request: PurchaseRequest) -> Tracked:
    """Record a purchase once per ``transactionId``; ``purchase.tracked`` fires for new ones only."""
    now = rt.clock.now()
    request = check_request(request, now)
    stored = tx.purchases.get(scope.game_id, scope.env, request.transaction_id)
    if stored is not None:
        check_replay(stored, player.id, request)
        if upgrades(stored, request):
            # The studio verified a receipt the client reported: the one change a repeat may make.
            verified = attrs.evolve(stored, validation_status=ValidationStatus.VERIFIED)
            tx.purchases.set_validation(stored.id, ValidationStatus.VERIFIED)
            return Tracked(verified, tx.purchases.player_spend(player.id, now, ()))
        return Tracked(stored, tx.purchases.player_spend(player.id, now, ()), replayed=True)
    rate = usd_rate(request.currency, load_game(tx, scope).settings.exchange_rates)
    purchase = Purchase(
        id=new_id(PURCHASE_ID_PREFIX, now, rt.rng),
        game_id=scope.game_id,
        env=scope.env,
        player_id=player.id,
        external_player_id=player.external_id,
        transaction_id=request.transaction_id,
        store=request.store,
        product_id=request.product_id,
        product_type=request.product_type,
        amount_minor=request.amount_minor,
        currency=request.currency,
        normalized_amount_minor=normalize(request.amount_minor, request.currency, rate),
        fx_rate=rate,
        validation_status=request.validation_status,
        purchased_at=request.purchased_at or now,
        tracked_at=now,
        metadata=dict(request.metadata or {}),
    )
    tx.purchases.insert(purchase)
    spend = tx.purchases.player_spend(player.id, now, ())
    emit(tx, rt, scope, PurchaseTracked.of(purchase, spend))
    return Tracked(purchase, spend)


def report(tx: PurchasesTx, rt: Runtime, scope: Scope, player: Player, request: PurchaseRequest) -> Tracked:
    """The player reports its own purchase (the client's route): :func:`track`, as a player write."""
    return track(tx, rt, scope, player, request)
