"""The registration route, the players' one handler that needs the server: it reads the client's address
and the server's geo settings for the country, and audits the API key that registered (the others are
the core's, :mod:`livecore.players.handlers`)."""

from __future__ import annotations

from collections.abc import Mapping

from livecore.commands.reads import Reads
from livecore.players import api
from livecore.players.commands import register
from livecore.players.views import anonymized_view, display_view
from livecore_server import audit, shown_secrets
from livecore_server.config import Config
from livecore_server.http.endpoint import Binding, Call, bind, path_player
from livecore_server.storage.concurrency import Concurrency
from livecore_server.storage.server_store import ServerTransaction


def client_country(headers: Mapping[str, str], remote: str | None, config: Config) -> str | None:
    """The request's country (docs/players.md#country): the first configured CDN geo header present, else
    the configured lookup of the client's address. ``playerContext.country`` wins over both, in the
    command."""
    for name in config.geo_headers:
        value = headers.get(name)
        if value:
            return value
    return config.country_of(remote) if remote is not None else None


#: The audit action of a registration and of a forced rotation (they log the client's address).
REGISTER_ACTION = "player.register"


def register_reads(call: Call[api.RegisterRequest | None, api.RegisterQuery], tx: ServerTransaction) -> Reads:
    return path_player(call)


def register_player(
    call: Call[api.RegisterRequest | None, api.RegisterQuery], tx: ServerTransaction
) -> api.RegisterResponse:
    body = call.body or api.RegisterRequest()
    result = register(
        tx,
        call.rt,
        call.scope,
        call.external_id,
        force=call.query.force,
        context=body.player_context,
        country=client_country(call.headers, call.remote, call.services.config),
        build=call.build,
    )
    p = result.player
    holder = shown_secrets.player(call.scope.game_id, call.external_id)
    if not result.created:  # a forced register rotates the secret: the answers showing the old one go
        shown_secrets.replaced(tx, call.services.store, holder)
    shown_secrets.shown(tx, call.idempotency_key, holder)
    audit.write(
        tx,
        call.rt,
        {**call.scope.actor.to_wire(), "keyId": call.api_key_id},
        REGISTER_ACTION,
        f"player:{p.external_id}",
        studio_id=call.scope.studio_id,
        game_id=call.scope.game_id,
        metadata={"env": call.scope.env.value, "rotated": p.secret_rotated_at is not None},
        ip=call.remote,
    )
    return api.RegisterResponse(
        player_id=p.id,
        external_player_id=p.external_id,
        player_secret=result.secret,
        country=p.country,
        synthetic_identity=anonymized_view(p),
        display_identity=display_view(p),
        anonymized_identity=anonymized_view(p),
    )


BINDINGS: list[Binding] = [
    bind(api.REGISTER, register_player, reads=register_reads, concurrency=Concurrency.PLAYERS),
]
