"""Players: registration and identity (``sdk.players``, and ``server.players``'s identity call, which
:mod:`livecore_client.resources.player_tools` adds the player tools to). The operators' player edits
(``admin.players``) are the operators' (:mod:`livecore_client.resources.admin_players`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from livecore.api.call import Call
from livecore.players.api import REGISTER, SDK_SET_IDENTITY, SERVER_SET_IDENTITY

from .. import models as m
from .._client import AsyncResource, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface
from ._base import SdkCalls, ServerCalls

__all__ = [
    "AsyncPlayers",
    "Players",
    "ServerPlayersCalls",
]


class _PlayersCalls(SdkCalls):
    """The ``/sdk/v1`` player calls."""

    def _register(
        self,
        external_id: str,
        *,
        force: bool = False,
        player_context: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.RegisterResponse]:
        """Register ``external_id`` and mint its player secret, returned once in ``player_secret``.

        ``force=True`` rotates the secret of an already registered player (test keys only); without it
        a second registration raises :class:`~livecore_client.errors.PlayerAlreadyRegisteredError`.
        ``player_context={"country": "FR"}`` overrides the geo-resolved country.
        """
        return Call(
            REGISTER,
            m.RegisterResponse,
            path={"externalId": external_id},
            # Sent only when set: the default needs no query string and a live key must never see force.
            query=m.RegisterQuery(force=True) if force else None,
            body=None if player_context is None else m.RegisterRequest(player_context=dict(player_context)),
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
    ) -> Call[m.IdentityResponse]:
        """Set the player's own display identity; ``player_secret`` defaults to the client's."""
        return Call(
            SDK_SET_IDENTITY,
            m.IdentityResponse,
            path={"externalId": external_id},
            body=m.SetIdentityRequest(name=name, avatar=avatar),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class Players(SyncResource[SdkSurface], _PlayersCalls):
    """``sdk.players``: the ``/sdk/v1`` player calls."""

    register = sync_method(_PlayersCalls._register)
    set_identity = sync_method(_PlayersCalls._set_identity)


class AsyncPlayers(AsyncResource[AsyncSdkSurface], _PlayersCalls):
    """The methods of :class:`Players`, awaited."""

    register = async_method(_PlayersCalls._register)
    set_identity = async_method(_PlayersCalls._set_identity)


class ServerPlayersCalls(ServerCalls):
    """The players area's ``/server/v1`` call; ``server.players`` is
    :class:`livecore_client.resources.player_tools.ServerPlayers`."""

    def _set_identity(
        self, external_id: str, *, name: str, avatar: str | None = None, idempotency_key: str | None = None
    ) -> Call[m.IdentityResponse]:
        """Set a player's display identity from the studio backend."""
        return Call(
            SERVER_SET_IDENTITY,
            m.IdentityResponse,
            path={"externalId": external_id},
            body=m.SetIdentityRequest(name=name, avatar=avatar),
            idempotency_key=idempotency_key,
        )
