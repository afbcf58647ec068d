"""The player routes' calls, as the typed clients send them (``sdk.players``, ``server.players``'s identity
call) and a simulation runs them (``ada.players``, ``sim.server.players``): one builder per route
(:mod:`livecore.api.call`). A simulated player's registration is its making
(:class:`~livecore.simulation.player.SimPlayer`), not a call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from livecore.api.call import Call, SdkCalls, ServerCalls
from livecore.players import api


class PlayersCalls(SdkCalls):
    """The ``/sdk/v1`` player calls."""

    def _register(
        self,
        external_id: str,
        *,
        force: bool = False,
        player_context: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Call[api.RegisterResponse]:
        """Register ``external_id`` and mint its player secret, returned once in ``player_secret``.

        ``force=True`` rotates the secret of an already registered player (test keys only); without it
        a second registration raises :class:`~livecore_client.errors.PlayerAlreadyRegisteredError`.
        ``player_context={"country": "FR"}`` overrides the geo-resolved country.
        """
        return Call(
            api.REGISTER,
            api.RegisterResponse,
            path={"externalId": external_id},
            # Sent only when set: the default needs no query string and a live key must never see force.
            query=api.RegisterQuery(force=True) if force else None,
            body=None if player_context is None else api.RegisterRequest(player_context=dict(player_context)),
            idempotency_key=idempotency_key,
        )

    def _set_identity(
        self,
        external_id: str,
        *,
        name: str,
        avatar: str | None = None,
        player_secret: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[api.IdentityResponse]:
        """Set the player's own display identity; ``player_secret`` defaults to the client's."""
        return Call(
            api.SDK_SET_IDENTITY,
            api.IdentityResponse,
            path={"externalId": external_id},
            body=api.SetIdentityRequest(name=name, avatar=avatar),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class ServerPlayersCalls(ServerCalls):
    """The players area's ``/server/v1`` call; ``server.players`` holds the player tools' calls too
    (:class:`livecore.player_tools.calls.PlayerToolsCalls`), as the player tools build on players."""

    def _set_identity(
        self, external_id: str, *, name: str, avatar: str | None = None, idempotency_key: str | None = None
    ) -> Call[api.IdentityResponse]:
        """Set a player's display identity from the studio backend."""
        return Call(
            api.SERVER_SET_IDENTITY,
            api.IdentityResponse,
            path={"externalId": external_id},
            body=api.SetIdentityRequest(name=name, avatar=avatar),
            idempotency_key=idempotency_key,
        )
