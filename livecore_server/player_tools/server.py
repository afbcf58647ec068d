"""Server player tools (docs/reference/player-tools.md): profile, ban and unban, debug flag, merge, erasure,
export."""

from __future__ import annotations

from livecore.api.views import anonymized_view, display_view
from livecore.games import ResourceType
from livecore.grants.api import GrantView
from livecore.live_events.api import AttemptView
from livecore.lobbies.views import lobby_views
from livecore.player_tools import api
from livecore.player_tools.commands import erasure, merge, moderation
from livecore.player_tools.erasure import ErasureReason
from livecore.player_tools.views import player_profile
from livecore.players.commands import get_player, load_game
from livecore.players.platforms import platform_registered
from livecore.players.rules import Player
from livecore.purchases.api import PurchaseView
from livecore_server.http.endpoint import AnyCall, Binding, Call, bind
from livecore_server.storage.server_store import ServerTransaction

EXPORT_LIMIT = 1_000


def _player(call: AnyCall, tx: ServerTransaction) -> Player:
    return get_player(tx, call.scope, call.external_id)


def _record(call: AnyCall, tx: ServerTransaction) -> Player:
    """Reads also show a retired (merged or erased) row by its placeholder id."""
    return get_player(tx, call.scope, call.external_id, retired=True)


def profile(call: Call[None, api.ProfileQuery], tx: ServerTransaction) -> api.PlayerProfileResponse:
    return player_profile(tx, call.scope, _record(call, tx), call.query.limit, call.rt.clock.now())


def ban(call: Call[api.BanRequest, None], tx: ServerTransaction) -> api.BanPlayerResponse:
    done = moderation.ban_player(tx, call.rt, call.scope, _player(call, tx), call.body.reason)
    return api.BanPlayerResponse.of(done)


def unban(call: Call[None, None], tx: ServerTransaction) -> api.BanPlayerResponse:
    done = moderation.unban_player(tx, call.rt, call.scope, _player(call, tx))
    return api.BanPlayerResponse.of(done)


def _debug_view(applied: bool, p: Player) -> api.DebugPlayerResponse:
    return api.DebugPlayerResponse(
        applied=applied,
        external_player_id=p.external_id,
        debug=p.debug is not None,
        reason=p.debug.reason if p.debug else None,
        flagged_at=p.debug.flagged_at if p.debug else None,
    )


def set_debug(call: Call[api.DebugRequest | None, None], tx: ServerTransaction) -> api.DebugPlayerResponse:
    body = call.body or api.DebugRequest()
    done = moderation.set_debug(tx, call.rt, _player(call, tx), body.reason)
    return _debug_view(done.applied, done.player)


def clear_debug(call: Call[None, None], tx: ServerTransaction) -> api.DebugPlayerResponse:
    done = moderation.clear_debug(tx, _player(call, tx))
    return _debug_view(done.applied, done.player)


def merge_into(call: Call[None, None], tx: ServerTransaction) -> api.MergePlayerResponse:
    done = merge.merge(tx, call.rt, call.scope, call.params["fromExternalId"], call.params["toExternalId"])
    return api.MergePlayerResponse(
        status=done.status.value,
        from_external_player_id=done.record.from_external_id,
        to_external_player_id=done.target.external_id,
        anonymized_external_player_id=done.record.placeholder,
        merged_at=done.record.merged_at,
    )


def delete(
    call: Call[api.DeletePlayerRequest | None, None], tx: ServerTransaction
) -> api.DeletePlayerResponse:
    body = call.body or api.DeletePlayerRequest()
    done = erasure.erase(tx, call.rt, call.scope, call.external_id, ErasureReason(body.reason.value))
    return api.DeletePlayerResponse(status=done.status.value, anonymized_external_id=done.placeholder)


def export(call: Call[None, None], tx: ServerTransaction) -> api.ExportPlayerResponse:
    player = _record(call, tx)
    now = call.rt.clock.now()
    settings = load_game(tx, call.scope).settings
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
        lobby_memberships=lobby_views(tx, call.scope.game_id, tx.lobbies.seats_of(player.id, EXPORT_LIMIT)),
        purchases=[PurchaseView.of(p) for p in tx.purchases.page(player.id, None, EXPORT_LIMIT)],
    )


BINDINGS: list[Binding] = [
    bind(api.PLAYER_PROFILE, profile),
    bind(api.PLAYER_BAN, ban),
    bind(api.PLAYER_UNBAN, unban),
    bind(api.PLAYER_DEBUG_SET, set_debug),
    bind(api.PLAYER_DEBUG_CLEAR, clear_debug),
    bind(api.PLAYER_MERGE, merge_into),
    bind(api.PLAYER_DELETE, delete),
    bind(api.PLAYER_EXPORT, export),
]
