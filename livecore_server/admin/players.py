"""Operator actions on one player (docs/operators.md#player-look-up): the unified look-up, ban and unban,
the country override, editing an item's attributes and rotating the player's secret."""

from __future__ import annotations

from typing import Any

import attrs

from livecore.economy import commands as economy
from livecore.economy.api import ItemAdjustResponse
from livecore.economy.handlers import inventory_view, wallet_view
from livecore.economy.rules import merged_parameters
from livecore.economy.views import items_adjusted
from livecore.errors import LivecoreError
from livecore.friends.views import friends_view
from livecore.limits import FREE_TEXT
from livecore.operators import api
from livecore.player_tools.api import BanPlayerResponse, BanRequest, BanState
from livecore.player_tools.commands import moderation
from livecore.player_tools.views import player_profile
from livecore.players.commands import find_record, get_player, load_game, rotate_secret
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.rules import Player
from livecore.scope import Environment, Scope
from livecore_server.admin.audit import record, view
from livecore_server.admin.webhooks import player_deliveries
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.storage.server_store import ServerTransaction
from livecore_server.storage.sql.audit import AuditFilter


def target(external_id: str) -> str:
    """How audit entries name a player."""
    return f"player:{external_id}"


def lookup(call: Call[None, api.LookupQuery], tx: ServerTransaction) -> api.PlayerLookupResponse:
    limit = call.query.limit
    player = find_record(tx, call.scope, call.external_id)
    if player is None:
        raise _not_found(tx, call.scope, call.external_id)
    audit = tx.audit.page(
        call.scope.studio_id,
        AuditFilter(game_id=call.scope.game_id, target=target(player.external_id)),
        limit,
    )
    return api.PlayerLookupResponse(
        profile=player_profile(tx, call.scope, player, limit, call.rt.clock.now()),
        ban=BanState.of(player),
        country=api.PlayerCountryView.of(player),
        friends=friends_view(
            tx, load_game(tx, call.scope), player, None, call.rt.clock.now(), call.rt.presence_of
        ).friends,
        wallet=wallet_view(call, tx, player).currencies,
        inventory=inventory_view(call, tx, player).items,
        audit=[view(e) for _, e in audit],
        deliveries=player_deliveries(call, tx, player.id, limit),
    )


def _not_found(tx: ServerTransaction, scope: Scope, external_id: str) -> LivecoreError:
    """404 ``player_not_found``, saying whether the game has the player in its other environment (an
    operator who may read the game may read both)."""
    other = Environment.TEST if scope.env is Environment.LIVE else Environment.LIVE
    details: dict[str, str] = {"externalPlayerId": external_id}
    message = f"No player {external_id!r} in {scope.env.value}."
    if find_record(tx, attrs.evolve(scope, env=other), external_id) is not None:
        details["existsIn"] = other.value
        message += f" A player with this id exists in {other.value}."
    return LivecoreError(PLAYER_NOT_FOUND, message, details)


def ban(call: Call[BanRequest, api.EnvQuery], tx: ServerTransaction) -> BanPlayerResponse:
    player = get_player(tx, call.scope, call.external_id)
    done = moderation.ban_player(tx, call.rt, call.scope, player, call.body.reason)
    record(
        tx,
        call,
        target(player.external_id),
        metadata={"applied": done.applied, "reason": call.body.reason},
        before={"banned": player.banned},
        after={"banned": done.player.banned},
    )
    return BanPlayerResponse.of(done)


def unban(call: Call[None, api.EnvQuery], tx: ServerTransaction) -> BanPlayerResponse:
    player = get_player(tx, call.scope, call.external_id)
    done = moderation.unban_player(tx, call.rt, call.scope, player)
    record(
        tx,
        call,
        target(player.external_id),
        metadata={"applied": done.applied},
        before={"banned": player.banned},
        after={"banned": done.player.banned},
    )
    return BanPlayerResponse.of(done)


def set_country(
    call: Call[api.SetCountryRequest, api.EnvQuery], tx: ServerTransaction
) -> api.SetCountryResponse:
    player = get_player(tx, call.scope, call.external_id)
    FREE_TEXT.check_optional(call.body.reason, "reason")
    done = moderation.set_country_override(tx, player, call.body.country)
    record(
        tx,
        call,
        target(player.external_id),
        metadata={"applied": done.applied, "reason": call.body.reason},
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
    call: Call[api.EditItemAttributesRequest, api.EnvQuery], tx: ServerTransaction
) -> ItemAdjustResponse:
    player = get_player(tx, call.scope, call.external_id)
    game = load_game(tx, call.scope)
    key = call.params["itemKey"]
    before = tx.ledger.holding(player.id, key)
    done = economy.edit_item_attributes(
        tx, call.rt, call.scope, game, player, key, call.body.attributes, note=call.body.reason
    )
    record(
        tx,
        call,
        target(player.external_id),
        metadata={"itemKey": key, "entryId": done.entry.id, "reason": call.body.reason},
        before={"attributes": merged_parameters(done.resource, before.parameters)},
        after={"attributes": done.parameters()},
    )
    return items_adjusted(done)


def rotate(call: Call[None, api.EnvQuery], tx: ServerTransaction) -> api.RotateSecretResponse:
    done = rotate_secret(tx, call.rt, call.scope, call.external_id)
    # The prefix only: the secret is shown once, in this answer.
    record(tx, call, target(done.player.external_id), metadata={"secretPrefix": done.player.secret_prefix})
    return api.RotateSecretResponse(external_player_id=done.player.external_id, player_secret=done.secret)


BINDINGS: list[Binding] = [
    bind(api.PLAYER_LOOKUP, lookup),
    bind(api.PLAYER_BAN, ban),
    bind(api.PLAYER_UNBAN, unban),
    bind(api.SET_COUNTRY, set_country),
    bind(api.EDIT_ITEM_ATTRIBUTES, edit_item_attributes),
    bind(api.ROTATE_SECRET, rotate),
]
