"""The client's presence heartbeat: kept on the presence board, written at once only when it opens a
session or a new streak day (``livecore.players.commands.heartbeat``, docs/friends.md)."""

from __future__ import annotations

from livecore.friends import api
from livecore.friends.settings import PRESENCE_SETTINGS
from livecore.games import Game
from livecore.players import commands as players_cmd
from livecore.players.actor import admit
from livecore.players.commands import PlayersTx, authenticate, get_player, load_game
from livecore.players.rules import Player
from livecore_server.http.endpoint import AnyCall, Binding, Call, bind_direct
from livecore_server.players.cache import PLAYER_CACHE
from livecore_server.players.presence import PRESENCE_BOARD
from livecore_server.storage.server_store import game_queue


async def _heartbeat_caller(call: AnyCall) -> tuple[Player, Game]:
    """The authenticated caller of a heartbeat and its game: the player from the process's player cache
    (livecore_server.players.cache) and the game from the store's settings cache when they have them, else
    from the database."""
    services = call.services
    cache = services.of(PLAYER_CACHE)
    secret = call.headers.get("X-Player-Secret")
    cached = cache.get(call.scope, call.external_id)
    if cached is not None and secret is not None and call.rt.hasher.verify(secret, cached.secret_hash):
        game = services.store.cached_game(call.scope.game_id)
        if game is None:
            game = await services.store.lookup(lambda tx: load_game(tx, call.scope))
            assert game is not None  # load_game raises rather than return nothing
        return cached, game
    # A miss, or a secret that does not match what was cached (it may have been rotated since): ask the
    # database, which also gives the error answer. One statement most of the time (the game's settings
    # are cached too), so no transaction around it: on PostgreSQL that saves its BEGIN and COMMIT.
    generation = cache.generation
    found = await services.store.lookup(
        lambda tx: (
            authenticate(tx, call.rt, call.scope, call.external_id, secret),
            load_game(tx, call.scope),
        )
    )
    assert found is not None  # authenticate raises rather than return nothing
    cache.put(call.scope, call.external_id, found[0], generation)
    return found


async def beat(call: Call[api.HeartbeatRequest | None, None]) -> api.PresenceResponse:
    """Heartbeat (``livecore.players.commands.heartbeat``), kept on the presence board (docs/friends.md):
    only a beat that opens a session or a new streak day is written at once."""
    services = call.services
    cache, board = services.of(PLAYER_CACHE), services.of(PRESENCE_BOARD)
    player, game = await _heartbeat_caller(call)
    admit(call.route, player)  # as every player route's caller is (livecore.players.actor)
    status = (call.body or api.HeartbeatRequest()).status
    now = call.rt.clock.now()
    done = players_cmd.beat(player, status, now, activity=board.activity_of(player))
    if done.durable:

        def durable(tx: PlayersTx) -> Player:
            # Decided again on the row as it is now: the cached one may be minutes old, and another
            # heartbeat (here or in another process) may have opened the session meanwhile.
            stored = admit(call.route, get_player(tx, call.scope, call.external_id))
            activity = board.activity_of(stored)
            updated, _ = players_cmd.heartbeat(
                tx, call.rt, stored, status, activity=activity, keeps_presence=True
            )
            return updated

        generation = cache.generation
        stored = await services.store.run_async(durable, queue=game_queue(call.scope.game_id))
        # What was read in there, so the next heartbeat decides on it, not on the older cached row
        # again. Not kept when the row was written (that forgot the player: the next one reads it).
        cache.put(call.scope, call.external_id, stored, generation)
    presence = done.presence
    board.record(player.id, presence)
    if call.build is not None:
        board.reported(player, call.build)
    ttl = game.settings.of(PRESENCE_SETTINGS).ttl_seconds
    return api.PresenceResponse(
        online=presence.online(now, ttl), last_active_at=presence.last_active_at, status=presence.status
    )


BINDINGS: list[Binding] = [bind_direct(api.PRESENCE_HEARTBEAT, beat)]
