"""Economy commands: every balance change goes through :func:`change` (ledger entry, holding, webhook)."""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.economy.rules import (
    LEDGER_ENTRY_ID_PREFIX,
    Holding,
    LedgerEntry,
    Reason,
    apply_delta,
    check_amount,
    check_attributes,
    check_client_spend,
    check_held,
    is_platform_managed,
    merged_parameters,
    resource,
)
from livecore.economy.store import HasLedger
from livecore.economy.webhooks import balance_changed
from livecore.games import Game, Resource, ResourceType
from livecore.ids import new_id
from livecore.limits import FREE_FORM, FREE_TEXT
from livecore.players.rules import Player
from livecore.players.store import HasPlayers
from livecore.scope import Scope
from livecore.store.games import HasGames
from livecore.store.outbox import HasOutbox


class EconomyTx(HasLedger, HasOutbox, Protocol):
    """The ports these commands use."""


class PlayerEconomyTx(EconomyTx, HasGames, HasPlayers, Protocol):
    """The ports a route on a player's holdings uses: these commands', the game and the player."""


@attrs.frozen
class Change:
    resource: Resource
    holding: Holding
    entry: LedgerEntry

    def parameters(self) -> dict[str, Any]:
        return merged_parameters(self.resource, self.holding.parameters)


def change(
    tx: EconomyTx,
    rt: Runtime,
    scope: Scope,
    game: Game,
    player: Player,
    res: Resource,
    delta: int,
    reason: Reason,
    *,
    note: str | None = None,
    source_ref_id: str | None = None,
    parameters: dict[str, Any] | None = None,
    announce: bool = True,
) -> Change:
    """Apply ``delta`` to the player's holding of ``res``: refuses to go below zero, appends the ledger
    entry, sets item parameter overrides, and in a platform-managed game fires the balance webhook
    (unless ``announce`` is off, as for a migration)."""
    FREE_TEXT.check_optional(note, "reason")
    FREE_TEXT.check_optional(source_ref_id, "sourceRefId")
    FREE_FORM.check(parameters, "parameters")
    now = rt.clock.now()
    holding = apply_delta(tx.ledger.holding(player.id, res.key), delta, res)
    if parameters:
        holding = attrs.evolve(holding, parameters={**holding.parameters, **parameters})
    entry = LedgerEntry(
        id=new_id(LEDGER_ENTRY_ID_PREFIX, now, rt.rng),
        player_id=player.id,
        game_id=game.id,
        resource_key=res.key,
        resource_type=res.type,
        delta=delta,
        balance_after=holding.amount,
        reason=reason,
        note=note,
        source_ref_id=source_ref_id,
        actor=scope.actor.to_wire(),
        created_at=now,
    )
    tx.ledger.append(entry, holding)
    result = Change(res, holding, entry)
    if announce and is_platform_managed(game):
        emit(tx, rt, scope, balance_changed(player, res, holding, entry))
    return result


_SERVER_REASONS = {
    (ResourceType.CURRENCY, True): Reason.SERVER_CREDIT,
    (ResourceType.CURRENCY, False): Reason.SERVER_DEBIT,
    (ResourceType.ITEM, True): Reason.SERVER_GRANT,
    (ResourceType.ITEM, False): Reason.SERVER_REVOKE,
}


def server_adjust(
    tx: EconomyTx,
    rt: Runtime,
    scope: Scope,
    game: Game,
    player: Player,
    kind: ResourceType,
    key: str,
    amount: int,
    *,
    credit: bool,
    note: str | None,
    source_ref_id: str | None,
    parameters: dict[str, Any] | None = None,
) -> Change:
    """Server wallet credit/debit and inventory grant/revoke (docs/reference/economy.md): atomic, never below
    zero."""
    res = resource(game, key, kind)
    check_amount(amount, "amount" if kind is ResourceType.CURRENCY else "quantity")
    delta = amount if credit else -amount
    return change(
        tx,
        rt,
        scope,
        game,
        player,
        res,
        delta,
        _SERVER_REASONS[(kind, credit)],
        note=note,
        source_ref_id=source_ref_id,
        parameters=parameters if credit else None,
    )


def edit_item_attributes(
    tx: EconomyTx,
    rt: Runtime,
    scope: Scope,
    game: Game,
    player: Player,
    key: str,
    values: dict[str, Any],
    *,
    note: str | None = None,
) -> Change:
    """An operator sets the player's values of item ``key``'s declared attributes (``check_attributes``),
    an item the player holds (``check_held``): a ledger entry of delta 0 that records who did it, and in a
    platform-managed game ``inventory.changed``, whose payload carries the merged values, so that a
    receiver mirroring the inventory follows."""
    res = resource(game, key, ResourceType.ITEM)
    FREE_FORM.check(values, "attributes")
    check_attributes(res, values)
    FREE_TEXT.check_optional(note, "reason")  # the request's fields before the state it meets
    check_held(tx.ledger.holding(player.id, key))
    return change(tx, rt, scope, game, player, res, 0, Reason.OPERATOR_EDIT, note=note, parameters=values)


def client_spend(
    tx: EconomyTx,
    rt: Runtime,
    scope: Scope,
    game: Game,
    player: Player,
    kind: ResourceType,
    key: str,
    amount: int,
    *,
    note: str | None,
    source_ref_id: str | None,
) -> Change:
    """Client wallet debit / inventory consume: a player-scoped write of a platform-managed game."""
    res = resource(game, key, kind)
    check_client_spend(game)
    check_amount(amount, "amount" if kind is ResourceType.CURRENCY else "quantity")
    reason = Reason.CLIENT_DEBIT if kind is ResourceType.CURRENCY else Reason.CLIENT_CONSUME
    return change(tx, rt, scope, game, player, res, -amount, reason, note=note, source_ref_id=source_ref_id)
