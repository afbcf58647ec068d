"""The actor policy: a player acting on its own behalf is refused every write while banned.

The rule belongs to the routes, not to each command: a route declared for a player (``Auth.PLAYER``,
or ``Auth.KEY_OR_PLAYER`` sent with the player's secret) that writes is a player write, and whatever
runs a route admits its player with :func:`admit` before anything else runs, for every area's routes,
built-in or a studio's. The server does it where it authenticates the player (so the ban wins over
anything the route resolves before its command runs, and over a stored answer to a replayed idempotency
key); an embedded :class:`livecore.Simulation` does it where it authenticates a simulated player's
action. A command called directly, embedded, is the caller's trusted code: a caller acting for a player
loads it with :func:`acting`, which admits it the same way.
"""

from __future__ import annotations

from typing import cast

from livecore.api.request import AnyRequest
from livecore.api.route import Auth, Route
from livecore.players.commands import PlayersTx, get_player
from livecore.players.rules import Player, ensure_not_banned
from livecore.scope import Scope


def check_actor(player: Player) -> Player:
    """The policy: the player may act on its own behalf only while not banned (403 ``player_banned``)."""
    ensure_not_banned(player)
    return player


def admit(route: Route, player: Player) -> Player:
    """The player ``route`` acts for, once registered and authenticated, as the runtime lets it act:
    refused with 403 ``player_banned`` when the route is a player's own write and the player is banned; a
    read goes on, and so does a server route acting on the player (a grant, a ban)."""
    own_write = route.is_write and route.auth in (Auth.PLAYER, Auth.KEY_OR_PLAYER)
    return check_actor(player) if own_write else player


def acting(tx: PlayersTx, scope: Scope, route: Route, external_id: str) -> Player:
    """The player ``route`` acts for, for a command called embedded: registered (404
    ``player_not_found``) and admitted (:func:`admit`), as the server admits it once its secret matched."""
    return admit(route, get_player(tx, scope, external_id))


def player_of(request: AnyRequest) -> Player:
    """The player a player-scoped route's handler acts for: authenticated and admitted before it runs."""
    player = sent_player(request)
    assert player is not None
    return player


def sent_player(request: AnyRequest) -> Player | None:
    """The player a key-or-player route acts for when the request sent its secret, else None (the players
    area authenticates it before the handler runs: :data:`livecore.api.auth.AUTHENTICATION`)."""
    return cast(Player | None, request.player)
