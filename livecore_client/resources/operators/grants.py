"""The operators' grant calls: ``admin.grants``, the manual grant and the force-claim of a stuck grant;
each method is its route's builder (:mod:`livecore.operators.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.operators.calls import AdminGrantsCalls

from ..._client import AsyncResource, SyncResource, async_method, sync_method
from .surface import AdminSurface, AsyncAdminSurface

__all__ = ["AdminGrants", "AsyncAdminGrants"]


class AdminGrants(SyncResource[AdminSurface], AdminGrantsCalls):
    """``admin.grants``: the ``/admin/v1`` grant calls."""

    create = sync_method(AdminGrantsCalls._create)
    force_claim = sync_method(AdminGrantsCalls._force_claim)


class AsyncAdminGrants(AsyncResource[AsyncAdminSurface], AdminGrantsCalls):
    """The methods of :class:`AdminGrants`, awaited."""

    create = async_method(AdminGrantsCalls._create)
    force_claim = async_method(AdminGrantsCalls._force_claim)
