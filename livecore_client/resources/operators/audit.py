"""The studio's audit log: ``admin.audit``; each method is its route's builder
(:mod:`livecore.operators.calls`) sent over HTTP, and ``iter`` walks ``list`` page by page."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from livecore.operators.api import AuditEntryView
from livecore.operators.audit_actions import OperatorAction
from livecore.operators.calls import AdminAuditCalls

from ..._client import AsyncResource, SyncResource, async_method, sync_method
from .surface import AdminSurface, AsyncAdminSurface

__all__ = ["AdminAudit", "AsyncAdminAudit"]


class AdminAudit(SyncResource[AdminSurface], AdminAuditCalls):
    """``admin.audit``: the ``/admin/v1`` audit calls."""

    list = sync_method(AdminAuditCalls._list)
    game = sync_method(AdminAuditCalls._game)

    def iter(
        self,
        *,
        game: str | None = None,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        page_size: int | None = None,
    ) -> Iterator[AuditEntryView]:
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


class AsyncAdminAudit(AsyncResource[AsyncAdminSurface], AdminAuditCalls):
    """The methods of :class:`AdminAudit`, awaited."""

    list = async_method(AdminAuditCalls._list)
    game = async_method(AdminAuditCalls._game)

    async def iter(
        self,
        *,
        game: str | None = None,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[AuditEntryView]:
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
