"""The daily bonus in the typed clients, ``sdk.daily.claim("ada")``: its builder (``DailyCalls``) made into
the sync and async methods, bound by the generated ``studio_daily.typed`` (docs/extending.md#typed-facades).
The area's own module imports only the core; this one, the client's, is imported by the client's users."""

from __future__ import annotations

from livecore_client.resources import (
    AsyncResource,
    AsyncSdkSurface,
    SdkSurface,
    SyncResource,
    async_method,
    sync_method,
)
from studio_daily import DailyCalls


class Daily(SyncResource[SdkSurface], DailyCalls):
    claim = sync_method(DailyCalls._claim)


class AsyncDaily(AsyncResource[AsyncSdkSurface], DailyCalls):
    claim = async_method(DailyCalls._claim)
