"""Who the admin key is, and the studio's members: ``admin.members``; each method is its route's builder
(:mod:`livecore.operators.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.operators.calls import AdminMembersCalls

from ..._client import AsyncResource, SyncResource, async_method, sync_method
from .surface import AdminSurface, AsyncAdminSurface

__all__ = ["AdminMembers", "AsyncAdminMembers"]


class AdminMembers(SyncResource[AdminSurface], AdminMembersCalls):
    """``admin.members``: the ``/admin/v1`` calls about the key and the studio's members."""

    me = sync_method(AdminMembersCalls._me)
    list = sync_method(AdminMembersCalls._list)


class AsyncAdminMembers(AsyncResource[AsyncAdminSurface], AdminMembersCalls):
    """The methods of :class:`AdminMembers`, awaited."""

    me = async_method(AdminMembersCalls._me)
    list = async_method(AdminMembersCalls._list)
