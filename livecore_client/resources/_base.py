"""What the area modules' builders share: the surface's defaults read from the client, and the argument
checks more than one area makes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import models as m
from .._surfaces import AdminSurface, AsyncAdminSurface, AsyncSdkSurface, SdkSurface
from ..models import Environment


class SdkCalls:
    """Base of the ``/sdk/v1`` builders: the player secret defaults to the client's ``player_secret``."""

    if TYPE_CHECKING:
        # For the type checker only: a resource's _client is its constructor's argument (an attribute
        # of SyncResource or AsyncResource), and a property here would hide it at run time.
        @property
        def _client(self) -> SdkSurface | AsyncSdkSurface: ...

    def _secret(self, player_secret: str | None) -> str | None:
        """The call's own secret, else the client's."""
        return player_secret if player_secret is not None else self._client.player_secret


class ServerCalls:
    """Base of the ``/server/v1`` builders, which need nothing from the client but its transport."""


class AdminCalls:
    """Base of the ``/admin/v1`` builders: every path starts with the client's studio."""

    if TYPE_CHECKING:
        # For the type checker only, as in SdkCalls.
        @property
        def _client(self) -> AdminSurface | AsyncAdminSurface: ...

    def _at(self, game: str | None = None, **params: str) -> dict[str, str]:
        path = {"studio": self._client.studio, **params}
        if game is not None:
            path["game"] = game
        return path


def env_of(env: Environment | str | None) -> Environment | None:
    """The environment to act in; None leaves the choice to the server: the one the game has API keys in,
    live when it has both (docs/operators.md#environments)."""
    return None if env is None else Environment(env)


def friend_target(friend_code: str | None, external_player_id: str | None) -> m.FriendTarget:
    """docs/reference/friends-and-presence.md: exactly one of the two; checked here so a wrong call never
    reaches the network."""
    if (friend_code is None) == (external_player_id is None):
        raise ValueError("pass exactly one of friend_code and external_player_id")
    return m.FriendTarget(friend_code=friend_code, external_player_id=external_player_id)
