"""Operator actions on one player (docs/operators.md#player-look-up): the unified look-up, ban and unban,
the country override, editing an item's attributes and rotating the player's secret."""

from __future__ import annotations

from typing import Any

import attrs

from livecore.economy import commands as economy
from livecore.economy.api import ItemAdjustResponse
from livecore.economy.rules import merged_parameters
from livecore.economy.views import inventory_of, items_adjusted, wallet_of
from livecore.errors import LivecoreError
from livecore.friends.views import friends_view
from livecore.limits import FREE_TEXT
from livecore.operators import api
from livecore.operators.audit import player_target, record, view
from livecore.operators.request import OperatorRequest
from livecore.operators.store import AuditFilter, OperatorsTx
from livecore.operators.webhooks import player_deliveries
from livecore.player_tools.api import BanPlayerResponse, BanRequest, BanState
from livecore.player_tools.commands import moderation
from livecore.player_tools.views import player_profile
from livecore.players.commands import find_record, get_player, load_game, rotate_secret
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.rules import Player
from livecore.scope import Environment, Scope


def lookup(request: OperatorRequest[None, api.LookupQuery], tx: OperatorsTx) -> api.PlayerLookupResponse:
    scope, limit, now = request.scope, request.query.limit, request.rt.clock.now()
    player = find_record(tx, scope, request.external_id)
    if player is None:
        raise _not_found(tx, scope, request.external_id)
    audit = tx.audit.page(
        scope.studio_id, AuditFilter(game_id=scope.game_id, target=player_target(player.external_id)), limit
    )
    game = load_game(tx, scope)
    return api.PlayerLookupResponse(
        profile=player_profile(tx, scope, player, limit, now),
        ban=BanState.of(player),
        country=api.PlayerCountryView.of(player),
        friends=friends_view(tx, game, player, None, now, request.rt.presence_of).friends,
        wallet=wallet_of(tx, game, player).currencies,
        inventory=inventory_of(tx, game, player).items,
        audit=[view(e) for _, e in audit],
        deliveries=player_deliveries(request, tx, player.id, limit),
    )


def _not_found(tx: OperatorsTx, scope: Scope, external_id: str) -> LivecoreError:
    """404 ``player_not_found``, saying whether the game has the player in its other environment (an
    operator who may read the game may read both)."""
    other = Environment.TEST if scope.env is Environment.LIVE else Environment.LIVE
    details: dict[str, str] = {"externalPlayerId": external_id}
    message = f"No player {external_id!r} in {scope.env.value}."
    if find_record(tx, attrs.evolve(scope, env=other), external_id) is not None:
        details["existsIn"] = other.value
        message += f" A player with this id exists in {other.value}."
    return LivecoreError(PLAYER_NOT_FOUND, message, details)


def ban(request: OperatorRequest[BanRequest, api.EnvQuery], tx: OperatorsTx) -> BanPlayerResponse:
    player = get_player(tx, request.scope, request.external_id)
    done = moderation.ban_player(tx, request.rt, request.scope, player, request.body.reason)
    record(
        tx,
        request,
        player_target(player.external_id),
        metadata={"applied": done.applied, "reason": request.body.reason},
        before={"banned": player.banned},
        after={"banned": done.player.banned},
    )
    return BanPlayerResponse.of(done)


def unban(request: OperatorRequest[None, api.EnvQuery], tx: OperatorsTx) -> BanPlayerResponse:
    player = get_player(tx, request.scope, request.external_id)
    done = moderation.unban_player(tx, request.rt, request.scope, player)
    record(
        tx,
        request,
        player_target(player.external_id),
        metadata={"applied": done.applied},
        before={"banned": player.banned},
        after={"banned": done.player.banned},
    )
    return BanPlayerResponse.of(done)


def set_country(
    request: OperatorRequest[api.SetCountryRequest, api.EnvQuery], tx: OperatorsTx
) -> api.SetCountryResponse:
    player = get_player(tx, request.scope, request.external_id)
    FREE_TEXT.check_optional(request.body.reason, "reason")
    done = moderation.set_country_override(tx, player, request.body.country)
    record(
        tx,
        request,
        player_target(player.external_id),
        metadata={"applied": done.applied, "reason": request.body.reason},
        before=_country_state(player),
        after=_country_state(done.player),
    )
    return api.SetCountryResponse(
        external_player_id=player.external_id,
        applied=done.applied,
        country=api.PlayerCountryView.of(done.player),
    )


def _country_state(player: Player) -> dict[str, Any]:
    return {"country": player.country, "countryOverride": player.country_override}


def edit_item_attributes(
    request: OperatorRequest[api.EditItemAttributesRequest, api.EnvQuery], tx: OperatorsTx
) -> ItemAdjustResponse:
    player = get_player(tx, request.scope, request.external_id)
    game = load_game(tx, request.scope)
    key = request.params["itemKey"]
    body = request.body
    before = tx.ledger.holding(player.id, key)
    done = economy.edit_item_attributes(
        tx, request.rt, request.scope, game, player, key, body.attributes, note=body.reason
    )
    record(
        tx,
        request,
        player_target(player.external_id),
        metadata={"itemKey": key, "entryId": done.entry.id, "reason": body.reason},
        before={"attributes": merged_parameters(done.resource, before.parameters)},
        after={"attributes": done.parameters()},
    )
    return items_adjusted(done)


def rotate(request: OperatorRequest[None, api.EnvQuery], tx: OperatorsTx) -> api.RotateSecretResponse:
    done = rotate_secret(tx, request.rt, request.scope, request.external_id)
    # The prefix only: the secret is shown once, in this answer.
    target = player_target(done.player.external_id)
    record(tx, request, target, metadata={"secretPrefix": done.player.secret_prefix})
    return api.RotateSecretResponse(external_player_id=done.player.external_id, player_secret=done.secret)
