"""What the area modules' builders share: the ``/admin/v1`` base (the ``/sdk/v1`` and ``/server/v1`` ones
are the core's, :mod:`livecore.api.call`, which a simulation's actions use too), and the argument checks
more than one area makes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from livecore.api.call import SdkCalls, ServerCalls
from livecore.scope import Environment

__all__ = ["AdminCalls", "SdkCalls", "ServerCalls", "env_of"]

from .._surfaces import AdminSurface, AsyncAdminSurface


class AdminCalls:
    """Base of the ``/admin/v1`` builders: every path starts with the client's studio."""

    if TYPE_CHECKING:
        # For the type checker only: a resource's _client is its constructor's argument.
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
