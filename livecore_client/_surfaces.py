"""Each surface's client base: what its resources read from the client besides its transport (an
``/sdk/v1`` client's default player secret; a ``/server/v1`` resource needs nothing more than
``SyncClient`` or ``AsyncClient``) and how such a client is made. The ``/admin/v1`` one, a member's
personal key and the studio, is the operators' (:mod:`livecore_client.resources.operators.surface`).

The resources are typed by these bases (``SyncResource[SdkSurface]``), not by the clients that bind them:
``sdk.py`` and ``admin.py`` import the resources and put them on these bases, so no resource imports a
client back, not even for the type checker.
"""

from __future__ import annotations

import httpx

from ._client import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, AsyncClient, SyncClient
from ._transport import RetryPolicy, build_headers

__all__ = ["AsyncSdkSurface", "SdkSurface"]


class SdkSurface(SyncClient):
    """A blocking ``/sdk/v1`` client: its ``player_secret`` is the one a player-scoped call sends when
    the call names none."""

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        player_secret: str | None = None,
        platform: str | None = None,
        app_version: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        # Checked before the HTTP client is made: a refused value leaves nothing to close.
        headers = build_headers(platform, app_version)
        super().__init__(
            api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.player_secret = player_secret
        self._headers = headers


class AsyncSdkSurface(AsyncClient):
    """An asyncio ``/sdk/v1`` client, made as :class:`SdkSurface`."""

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        player_secret: str | None = None,
        platform: str | None = None,
        app_version: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.AsyncClient | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        # Checked before the HTTP client is made: a refused value leaves nothing to close.
        headers = build_headers(platform, app_version)
        super().__init__(
            api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.player_secret = player_secret
        self._headers = headers
