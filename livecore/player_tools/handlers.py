"""The player tools' handlers (docs/reference/player-tools.md): the studio's profile, ban and unban, debug
flag and export of a player, and the operators' ban, unban and country override of one
(:mod:`livecore.player_tools.admin`). The merge's and the erasure's are the server's
(``livecore_server.player_tools.server``), as are the migration's
(``livecore_server.player_tools.migrate``)."""

from __future__ import annotations

from typing import Any, Protocol

from livecore.api.admin import AdminRequest, Audited, EnvQuery, player_target
from livecore.api.request import AnyRequest, Handler, Request
from livecore.api.route import Route
from livecore.games import ResourceType
from livecore.grants.api import GrantView
from livecore.limits import FREE_TEXT
from livecore.live_events.api import AttemptView
from livecore.lobbies.views import lobby_views
from livecore.platforms import platform_registered
from livecore.player_tools import admin, api
from livecore.player_tools.api import BanRequest
from livecore.player_tools.commands import moderation
from livecore.player_tools.commands.moderation import ModerationTx
from livecore.player_tools.views import ProfileTx, player_profile
from livecore.players.commands import get_player, load_game
from livecore.players.rules import Player
from livecore.players.views import anonymized_view, display_view
from livecore.purchases.api import PurchaseView
from livecore.purchases.store import HasPurchases


class ToolsTx(ProfileTx, ModerationTx, HasPurchases, Protocol):
    """The ports the player tools' routes read: a player's records in each area it builds on."""


EXPORT_LIMIT = 1_000


def _player(request: AnyRequest, tx: ToolsTx) -> Player:
    return get_player(tx, request.scope, request.external_id)


def _record(request: AnyRequest, tx: ToolsTx) -> Player:
    """Reads also show a retired (merged or erased) row by its placeholder id."""
    return get_player(tx, request.scope, request.external_id, retired=True)


def profile(request: Request[None, api.ProfileQuery], tx: ToolsTx) -> api.PlayerProfileResponse:
    return player_profile(
        tx, request.scope, _record(request, tx), request.query.limit, request.rt.clock.now()
    )


def ban(request: Request[api.BanRequest, None], tx: ToolsTx) -> api.BanPlayerResponse:
    done = moderation.ban_player(tx, request.rt, request.scope, _player(request, tx), request.body.reason)
    return api.BanPlayerResponse.of(done)


def unban(request: Request[None, None], tx: ToolsTx) -> api.BanPlayerResponse:
    done = moderation.unban_player(tx, request.rt, request.scope, _player(request, tx))
    return api.BanPlayerResponse.of(done)


def _debug_view(applied: bool, p: Player) -> api.DebugPlayerResponse:
    return api.DebugPlayerResponse(
        applied=applied,
        external_player_id=p.external_id,
        debug=p.debug is not None,
        reason=p.debug.reason if p.debug else None,
        flagged_at=p.debug.flagged_at if p.debug else None,
    )


def set_debug(request: Request[api.DebugRequest | None, None], tx: ToolsTx) -> api.DebugPlayerResponse:
    body = request.body or api.DebugRequest()
    done = moderation.set_debug(tx, request.rt, _player(request, tx), body.reason)
    return _debug_view(done.applied, done.player)


def clear_debug(request: Request[None, None], tx: ToolsTx) -> api.DebugPlayerResponse:
    done = moderation.clear_debug(tx, _player(request, tx))
    return _debug_view(done.applied, done.player)


def export(request: Request[None, None], tx: ToolsTx) -> api.ExportPlayerResponse:
    player = _record(request, tx)
    now = request.rt.clock.now()
    settings = load_game(tx, request.scope).settings
    types = {k: r.type for k, r in settings.resources.items()}
    holdings = sorted(tx.ledger.holdings(player.id).values(), key=lambda h: h.key)
    a = player.activity
    return api.ExportPlayerResponse(
        player=api.ExportPlayer(
            id=player.id,
            external_player_id=player.external_id,
            first_seen_at=player.first_seen_at,
            last_seen_at=player.last_seen_at,
            display_identity=display_view(player),
            anonymized_identity=anonymized_view(player),
            country=player.country,
            context=player.context,
            registered_at=player.registered_at,
            banned=player.banned,
            ban_reason=player.ban.reason if player.ban else None,
            debug=player.debug is not None,
            lifecycle=player.lifecycle.value,
            sessions=a.sessions,
            login_streak=a.streak,
            best_login_streak=a.best_streak,
            friend_code=player.friend_code,
            platform=player.build.platform,
            platform_registered=platform_registered(player.build.platform, settings),
            app_version=player.build.app_version,
        ),
        attempts=[AttemptView.of(a, now) for a in tx.attempts.recent(player.id, EXPORT_LIMIT)],
        grants=[GrantView.of(g, now) for g in tx.grants.recent(player.id, EXPORT_LIMIT)],
        inventory=[
            api.HoldingView(key=h.key, amount=h.amount, parameters=h.parameters)
            for h in holdings
            if types.get(h.key) is ResourceType.ITEM
        ][:EXPORT_LIMIT],
        wallet=[
            api.HoldingView(key=h.key, amount=h.amount)
            for h in holdings
            if types.get(h.key) is ResourceType.CURRENCY
        ][:EXPORT_LIMIT],
        lobby_memberships=lobby_views(
            tx, request.scope.game_id, tx.lobbies.seats_of(player.id, EXPORT_LIMIT)
        ),
        purchases=[PurchaseView.of(p) for p in tx.purchases.page(player.id, None, EXPORT_LIMIT)],
    )


# --- the operators' actions on one player (livecore.player_tools.admin) ------------------------------------


def admin_ban(
    request: AdminRequest[BanRequest, EnvQuery], tx: ModerationTx
) -> Audited[api.BanPlayerResponse]:
    player = get_player(tx, request.scope, request.external_id)
    done = moderation.ban_player(tx, request.rt, request.scope, player, request.body.reason)
    return Audited(
        api.BanPlayerResponse.of(done),
        player_target(player.external_id),
        metadata={"applied": done.applied, "reason": request.body.reason},
        before={"banned": player.banned},
        after={"banned": done.player.banned},
    )


def admin_unban(request: AdminRequest[None, EnvQuery], tx: ModerationTx) -> Audited[api.BanPlayerResponse]:
    player = get_player(tx, request.scope, request.external_id)
    done = moderation.unban_player(tx, request.rt, request.scope, player)
    return Audited(
        api.BanPlayerResponse.of(done),
        player_target(player.external_id),
        metadata={"applied": done.applied},
        before={"banned": player.banned},
        after={"banned": done.player.banned},
    )


def admin_set_country(
    request: AdminRequest[admin.SetCountryRequest, EnvQuery], tx: ModerationTx
) -> Audited[admin.SetCountryResponse]:
    player = get_player(tx, request.scope, request.external_id)
    FREE_TEXT.check_optional(request.body.reason, "reason")
    done = moderation.set_country_override(tx, player, request.body.country)
    return Audited(
        admin.SetCountryResponse(
            external_player_id=player.external_id,
            applied=done.applied,
            country=admin.PlayerCountryView.of(done.player),
        ),
        player_target(player.external_id),
        metadata={"applied": done.applied, "reason": request.body.reason},
        before=_country_state(player),
        after=_country_state(done.player),
    )


def _country_state(player: Player) -> dict[str, Any]:
    return {"country": player.country, "countryOverride": player.country_override}


HANDLERS: dict[Route, Handler] = {
    api.PLAYER_PROFILE: profile,
    api.PLAYER_BAN: ban,
    api.PLAYER_UNBAN: unban,
    api.PLAYER_DEBUG_SET: set_debug,
    api.PLAYER_DEBUG_CLEAR: clear_debug,
    api.PLAYER_EXPORT: export,
    admin.PLAYER_BAN: admin_ban,
    admin.PLAYER_UNBAN: admin_unban,
    admin.SET_COUNTRY: admin_set_country,
}
