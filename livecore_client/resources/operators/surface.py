"""The ``/admin/v1`` clients' base: a member's personal key, checked before the network, and the studio
every path begins with. The admin resources are typed by it (``SyncResource[AdminSurface]``), not by the
clients that bind them (:mod:`livecore_client.admin`), as the other surfaces' resources are by theirs
(:mod:`livecore_client._surfaces`)."""

from __future__ import annotations

import httpx

from livecore.operators.rules import PERSONAL_KEY_PREFIX

from ..._client import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, AsyncClient, SyncClient
from ..._transport import RetryPolicy

__all__ = ["AdminSurface", "AsyncAdminSurface"]


def _check_admin(personal_key: str, studio: str) -> None:
    if not personal_key.startswith(PERSONAL_KEY_PREFIX):
        # An API key here would only be refused with 401 invalid_api_key: say why before the network.
        raise ValueError(f"the admin clients take a member's personal key ({PERSONAL_KEY_PREFIX}...)")
    if not studio:
        raise ValueError("studio must not be empty")


class AdminSurface(SyncClient):
    """A blocking ``/admin/v1`` client with a member's personal key, bound to ``studio`` (key or id),
    which begins every path."""

    def __init__(
        self,
        personal_key: str,
        *,
        studio: str,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        _check_admin(personal_key, studio)
        super().__init__(
            personal_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.studio = studio


class AsyncAdminSurface(AsyncClient):
    """An asyncio ``/admin/v1`` client, made as :class:`AdminSurface`."""

    def __init__(
        self,
        personal_key: str,
        *,
        studio: str,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.AsyncClient | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        _check_admin(personal_key, studio)
        super().__init__(
            personal_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.studio = studio
