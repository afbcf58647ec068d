"""The studio's audit log: ``admin.audit``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import attrs

from livecore.api.call import Call
from livecore.operators import api

from .. import models as m
from .._client import AsyncResource, SyncResource, async_method, sync_method
from .._surfaces import AdminSurface, AsyncAdminSurface
from ..models import OperatorAction
from ._base import AdminCalls

__all__ = ["AdminAudit", "AsyncAdminAudit"]


class _AdminAuditCalls(AdminCalls):
    """The ``/admin/v1`` audit calls."""

    def _list(
        self,
        *,
        game: str | None = None,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        before: int | None = None,
        limit: int | None = None,
    ) -> Call[m.AuditResponse]:
        """One page of the studio's audit log, newest first, narrowed to a ``game`` (key or id), an
        ``action`` (``"player.ban"``), a ``target`` (``"player:<id>"``) or a ``member`` id. Pass the
        page's ``next_before`` as ``before`` for the next one (``None`` on the last);
        :meth:`iter` walks them all. ``limit`` 50 by default, 1 to 200."""
        query = m.AuditQuery(
            game=game,
            action=None if action is None else str(action),
            target=target,
            member=member,
            before=before,
        )
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(api.AUDIT, m.AuditResponse, path=self._at(), query=query)

    def _game(
        self,
        game: str,
        *,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        before: int | None = None,
        limit: int | None = None,
    ) -> Call[m.AuditResponse]:
        """One page of one game's audit log (``game`` a key or id), newest first, filtered and paged as
        :meth:`list`. Raises :class:`~livecore_client.errors.NotFoundError` for a game the studio does
        not have."""
        query = m.GameAuditQuery(
            action=None if action is None else str(action), target=target, member=member, before=before
        )
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(api.GAME_AUDIT, m.AuditResponse, path=self._at(game), query=query)


class AdminAudit(SyncResource[AdminSurface], _AdminAuditCalls):
    """``admin.audit``: the ``/admin/v1`` audit calls."""

    list = sync_method(_AdminAuditCalls._list)
    game = sync_method(_AdminAuditCalls._game)

    def iter(
        self,
        *,
        game: str | None = None,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        page_size: int | None = None,
    ) -> Iterator[m.AuditEntryView]:
        """Every audit entry matching the filters, newest first, fetching pages of ``page_size``
        (default 50) as the iteration reaches them by following ``next_before``."""
        before: int | None = None
        while True:
            page = self.list(
                game=game, action=action, target=target, member=member, before=before, limit=page_size
            )
            yield from page.entries
            # A keyset handed back unchanged would repeat this page for ever: stop instead.
            if page.next_before is None or page.next_before == before:
                return
            before = page.next_before


class AsyncAdminAudit(AsyncResource[AsyncAdminSurface], _AdminAuditCalls):
    """The methods of :class:`AdminAudit`, awaited."""

    list = async_method(_AdminAuditCalls._list)
    game = async_method(_AdminAuditCalls._game)

    async def iter(
        self,
        *,
        game: str | None = None,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[m.AuditEntryView]:
        """Every audit entry matching the filters, newest first, fetching pages of ``page_size``
        (default 50) as the iteration reaches them by following ``next_before`` (``async for``)."""
        before: int | None = None
        while True:
            page = await self.list(
                game=game, action=action, target=target, member=member, before=before, limit=page_size
            )
            for entry in page.entries:
                yield entry
            # A keyset handed back unchanged would repeat this page for ever: stop instead.
            if page.next_before is None or page.next_before == before:
                return
            before = page.next_before
