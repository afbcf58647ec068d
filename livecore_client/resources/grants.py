"""Grants: ``sdk.grants`` and ``server.grants``; each method is its route's builder
(:mod:`livecore.grants.calls`) sent over HTTP (``sdk.grants.open_crate`` is the crates' call, which the
SDK clients add beside these, :mod:`livecore_client.resources.crates`; ``admin.grants`` the operators',
:mod:`livecore_client.resources.operators.grants`)."""

from __future__ import annotations

from livecore.grants.calls import GrantsCalls, ServerGrantsCalls

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = ["AsyncGrants", "AsyncServerGrants", "Grants", "ServerGrants"]


class Grants(SyncResource[SdkSurface], GrantsCalls):
    """``sdk.grants``: the ``/sdk/v1`` grant calls."""

    pending = sync_method(GrantsCalls._pending)
    claim = sync_method(GrantsCalls._claim)


class AsyncGrants(AsyncResource[AsyncSdkSurface], GrantsCalls):
    """The methods of :class:`Grants`, awaited."""

    pending = async_method(GrantsCalls._pending)
    claim = async_method(GrantsCalls._claim)


class ServerGrants(SyncResource[SyncClient], ServerGrantsCalls):
    """``server.grants``: the ``/server/v1`` grant calls."""

    create = sync_method(ServerGrantsCalls._create)
    ack = sync_method(ServerGrantsCalls._ack)


class AsyncServerGrants(AsyncResource[AsyncClient], ServerGrantsCalls):
    """The methods of :class:`ServerGrants`, awaited."""

    create = async_method(ServerGrantsCalls._create)
    ack = async_method(ServerGrantsCalls._ack)
