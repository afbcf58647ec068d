"""The operators' player calls: ``admin.players``, the lookup, ban and unban, the country override, an
item's attributes and a new player secret; each method is its route's builder
(:mod:`livecore.operators.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.operators.calls import AdminPlayersCalls

from ..._client import AsyncResource, SyncResource, async_method, sync_method
from .surface import AdminSurface, AsyncAdminSurface

__all__ = ["AdminPlayers", "AsyncAdminPlayers"]


class AdminPlayers(SyncResource[AdminSurface], AdminPlayersCalls):
    """``admin.players``: the ``/admin/v1`` player calls."""

    lookup = sync_method(AdminPlayersCalls._lookup)
    ban = sync_method(AdminPlayersCalls._ban)
    unban = sync_method(AdminPlayersCalls._unban)
    set_country = sync_method(AdminPlayersCalls._set_country)
    edit_item_attributes = sync_method(AdminPlayersCalls._edit_item_attributes)
    rotate_secret = sync_method(AdminPlayersCalls._rotate_secret)


class AsyncAdminPlayers(AsyncResource[AsyncAdminSurface], AdminPlayersCalls):
    """The methods of :class:`AdminPlayers`, awaited."""

    lookup = async_method(AdminPlayersCalls._lookup)
    ban = async_method(AdminPlayersCalls._ban)
    unban = async_method(AdminPlayersCalls._unban)
    set_country = async_method(AdminPlayersCalls._set_country)
    edit_item_attributes = async_method(AdminPlayersCalls._edit_item_attributes)
    rotate_secret = async_method(AdminPlayersCalls._rotate_secret)
