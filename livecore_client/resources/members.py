"""Who the admin key is, and the studio's members: ``admin.members``."""

from __future__ import annotations

from livecore.api.call import Call
from livecore.operators import api

from .. import models as m
from .._client import AsyncResource, SyncResource, async_method, sync_method
from .._surfaces import AdminSurface, AsyncAdminSurface
from ._base import AdminCalls

__all__ = ["AdminMembers", "AsyncAdminMembers"]


class _AdminMembersCalls(AdminCalls):
    """The ``/admin/v1`` calls about the key and the studio's members."""

    def _me(self) -> Call[m.MeResponse]:
        """Who the key acts for: the member, its studio and games, the key's id and ``read_only``."""
        return Call(api.ME, m.MeResponse)

    def _list(self) -> Call[m.MembersResponse]:
        """The studio's members and their roles."""
        return Call(api.MEMBERS, m.MembersResponse, path=self._at())


class AdminMembers(SyncResource[AdminSurface], _AdminMembersCalls):
    """``admin.members``: the ``/admin/v1`` calls about the key and the studio's members."""

    me = sync_method(_AdminMembersCalls._me)
    list = sync_method(_AdminMembersCalls._list)


class AsyncAdminMembers(AsyncResource[AsyncAdminSurface], _AdminMembersCalls):
    """The methods of :class:`AdminMembers`, awaited."""

    me = async_method(_AdminMembersCalls._me)
    list = async_method(_AdminMembersCalls._list)
