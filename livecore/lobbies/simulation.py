"""The lobby actions of a simulation: the client key's read (``sdk.lobbies.get``, which names no player:
:meth:`Simulation.lobby <livecore.simulation.player.Simulation.lobby>`, answered by :func:`get` here) and
the studio's lobbies (``server.lobbies``: a push of the players it matched, a read). Players are seated in
lobbies by starting an attempt of a lobby event (``player.live_events.start_attempt``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from livecore.lobbies import api, commands
from livecore.simulation.actions import ServerActions, body, external_id_of

if TYPE_CHECKING:
    from livecore.simulation.handle import Handle, World


def get(sim: World, lobby_id: str) -> api.LobbyResponse:
    """A lobby with its seats, bots included, in the order they were taken (the client key alone)."""
    return sim.run(lambda tx: api.LobbyResponse.of(commands.read_lobby(tx, sim.scope, lobby_id)))


class ServerLobbies(ServerActions):
    """``sim.server.lobbies``: lobbies the studio forms. ``game_id`` is the played game's, ``sim.game.id``
    (the server key's own game, as the client's ``ping()`` tells it); another is refused as the server
    refuses it (:class:`~livecore.exceptions.NotFoundError`)."""

    def push(
        self,
        game_id: str,
        event_key: str,
        key: str,
        external_player_ids: Sequence[Handle | str],
        *,
        capacity: int | None = None,
        fill_bots: bool = False,
        metadata: Mapping[str, Any] | None = None,
    ) -> api.LobbyResponse:
        """Seat these players in a new lobby of the event's open window, active at once, players created on
        first contact; ``fill_bots`` seats bots in the empty seats. ``key`` is the push's idempotency key:
        the same key with the same players answers the lobby it made, with others it is refused."""
        sim = self._sim
        asked = body(
            api.LobbyPushRequest,
            key=key,
            external_player_ids=[external_id_of(p) for p in external_player_ids],
            capacity=capacity,
            fill_bots=fill_bots,
            metadata=metadata,
        )

        def op(tx: commands.LobbiesTx) -> api.LobbyResponse:
            pushed = commands.push(
                tx,
                sim.rt,
                sim.server_scope,
                game_id,
                event_key,
                asked.key,
                asked.external_player_ids,
                capacity=asked.capacity,
                fill_bots=asked.fill_bots,
                metadata=asked.metadata,
            )
            return api.LobbyResponse.of(commands.lobby_read(tx, pushed.lobby))

        return self._run(op)

    def get(self, game_id: str, lobby_id: str) -> api.LobbyResponse:
        """A lobby of the game, as the client key reads it."""
        scope = self._sim.server_scope
        return self._run(lambda tx: api.LobbyResponse.of(commands.read_lobby(tx, scope, lobby_id, game_id)))
