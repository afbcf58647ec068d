"""The unified player look-up (docs/operators.md#player-look-up): what every area keeps of one player, with
the operators' own audit entries and webhook deliveries about it. What an operator does to the player is
each area's admin route (``livecore.player_tools.admin``, ``livecore.economy.admin``,
``livecore.players.admin``)."""

from __future__ import annotations

import attrs

from livecore.api.admin import player_target
from livecore.economy.views import inventory_of, wallet_of
from livecore.errors import LivecoreError
from livecore.friends.views import friends_view
from livecore.operators import api
from livecore.operators.audit import view
from livecore.operators.request import OperatorRequest
from livecore.operators.store import AuditFilter, OperatorsTx
from livecore.operators.webhooks import player_deliveries
from livecore.player_tools.admin import PlayerCountryView
from livecore.player_tools.api import BanState
from livecore.player_tools.views import player_profile
from livecore.players.commands import find_record, load_game
from livecore.players.errors import PLAYER_NOT_FOUND
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
        country=PlayerCountryView.of(player),
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
