"""API keys and personal keys, listed (their writes are dashboard-only): ``admin.api_keys``,
``admin.personal_keys``; each method is its route's builder (:mod:`livecore.operators.calls`) sent over
HTTP."""

from __future__ import annotations

from livecore.operators.calls import AdminApiKeysCalls, AdminPersonalKeysCalls

from ..._client import AsyncResource, SyncResource, async_method, sync_method
from .surface import AdminSurface, AsyncAdminSurface

__all__ = ["AdminApiKeys", "AdminPersonalKeys", "AsyncAdminApiKeys", "AsyncAdminPersonalKeys"]


class AdminApiKeys(SyncResource[AdminSurface], AdminApiKeysCalls):
    """``admin.api_keys``: the ``/admin/v1`` API key calls."""

    list = sync_method(AdminApiKeysCalls._list)
    create = sync_method(AdminApiKeysCalls._create)
    rotate = sync_method(AdminApiKeysCalls._rotate)
    revoke = sync_method(AdminApiKeysCalls._revoke)


class AsyncAdminApiKeys(AsyncResource[AsyncAdminSurface], AdminApiKeysCalls):
    """The methods of :class:`AdminApiKeys`, awaited."""

    list = async_method(AdminApiKeysCalls._list)
    create = async_method(AdminApiKeysCalls._create)
    rotate = async_method(AdminApiKeysCalls._rotate)
    revoke = async_method(AdminApiKeysCalls._revoke)


class AdminPersonalKeys(SyncResource[AdminSurface], AdminPersonalKeysCalls):
    """``admin.personal_keys``: the ``/admin/v1`` personal key calls."""

    list = sync_method(AdminPersonalKeysCalls._list)
    create = sync_method(AdminPersonalKeysCalls._create)
    revoke = sync_method(AdminPersonalKeysCalls._revoke)


class AsyncAdminPersonalKeys(AsyncResource[AsyncAdminSurface], AdminPersonalKeysCalls):
    """The methods of :class:`AdminPersonalKeys`, awaited."""

    list = async_method(AdminPersonalKeysCalls._list)
    create = async_method(AdminPersonalKeysCalls._create)
    revoke = async_method(AdminPersonalKeysCalls._revoke)
