"""Crates: opening a crate grant, ``sdk.grants.open_crate``, its route's builder
(:mod:`livecore.crates.calls`) sent over HTTP. The crates add it to the grants' resource: the SDK clients
compose ``sdk.grants`` of :class:`CrateGrants` and the grants' own (:mod:`livecore_client.sdk`)."""

from __future__ import annotations

from livecore.crates.calls import CratesCalls

from .._client import AsyncResource, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = ["AsyncCrateGrants", "CrateGrants"]


class CrateGrants(SyncResource[SdkSurface], CratesCalls):
    """The crates' part of ``sdk.grants``: opening a crate grant."""

    open_crate = sync_method(CratesCalls._open_crate)


class AsyncCrateGrants(AsyncResource[AsyncSdkSurface], CratesCalls):
    """The methods of :class:`CrateGrants`, awaited."""

    open_crate = async_method(CratesCalls._open_crate)
