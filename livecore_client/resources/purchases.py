"""Purchases and spend: ``sdk.purchases``, ``server.purchases``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from datetime import date, datetime
from typing import Any

import attrs

from livecore.api.call import Call
from livecore.clock import format_ts
from livecore.purchases.api import (
    PLAYER_SPEND,
    SDK_TRACK_PURCHASE,
    SERVER_PURCHASES,
    SERVER_TRACK_PURCHASE,
    SPEND_PLAYERS,
    SPEND_SUMMARY,
)

from .. import models as m
from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface
from ..models import ValidationStatusView
from ._base import SdkCalls, ServerCalls

__all__ = ["AsyncPurchases", "AsyncServerPurchases", "Purchases", "ServerPurchases"]


class _PurchasesCalls(SdkCalls):
    """The ``/sdk/v1`` purchase call."""

    def _track(
        self,
        external_id: str,
        *,
        transaction_id: str,
        store: str,
        product_id: str,
        product_type: str,
        amount_minor: int,
        currency: str,
        purchased_at: datetime | None = None,
        metadata: Mapping[str, Any] | None = None,
        player_secret: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.TrackPurchaseResponse]:
        """Report a store purchase from the game: ``amount_minor`` charged in ``currency``'s minor unit
        (cents), normalised by the service to US cents. It is stored ``unverified`` (only the studio
        backend can report a verified one); ``purchased_at`` defaults to now. Answers the stored
        ``purchase`` and the player's lifetime spend after it.

        Idempotent on ``transaction_id``: reporting it again (after a crash, on the next launch)
        answers the stored purchase; the same id with a different purchase raises
        :class:`~livecore_client.errors.IdempotencyConflictError`. Raises
        :class:`~livecore_client.errors.UnknownCurrencyError` when the game has no exchange rate for
        ``currency`` and :class:`~livecore_client.errors.PlayerBannedError` for a banned player.
        """
        return Call(
            SDK_TRACK_PURCHASE,
            m.TrackPurchaseResponse,
            path={"externalId": external_id},
            body=m.TrackPurchaseRequest(
                transaction_id=transaction_id,
                store=store,
                product_id=product_id,
                product_type=product_type,
                amount_minor=amount_minor,
                currency=currency,
                purchased_at=purchased_at,
                metadata=None if metadata is None else dict(metadata),
            ),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class Purchases(SyncResource[SdkSurface], _PurchasesCalls):
    """``sdk.purchases``: the ``/sdk/v1`` purchase call."""

    track = sync_method(_PurchasesCalls._track)


class AsyncPurchases(AsyncResource[AsyncSdkSurface], _PurchasesCalls):
    """The methods of :class:`Purchases`, awaited."""

    track = async_method(_PurchasesCalls._track)


def _bound(value: date | datetime | str | None, name: str) -> str | None:
    """A revenue bound as the wire text: a timestamp, or a ``YYYY-MM-DD`` date."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError(f"{name} needs a timezone-aware datetime (or a date)")
        return format_ts(value)
    return value.isoformat()


class _ServerPurchasesCalls(ServerCalls):
    """The ``/server/v1`` purchase and spend calls."""

    def _track(
        self,
        external_id: str,
        *,
        transaction_id: str,
        store: str,
        product_id: str,
        product_type: str,
        amount_minor: int,
        currency: str,
        purchased_at: datetime | None = None,
        metadata: Mapping[str, Any] | None = None,
        validation_status: ValidationStatusView | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.TrackPurchaseResponse]:
        """Record a store purchase: ``amount_minor`` charged in ``currency``'s minor unit (cents), which
        the service normalises to US cents with the game's exchange rate. ``validation_status`` is
        ``"unverified"`` by default, or ``"verified"`` when your backend checked the receipt;
        ``purchased_at`` defaults to now. Answers the stored ``purchase`` and the player's lifetime
        spend after it; fires ``purchase.tracked`` once per transaction.

        Idempotent on ``transaction_id``: tracking it again answers the stored purchase; the same id
        with a different purchase raises :class:`~livecore_client.errors.IdempotencyConflictError`.
        Raises :class:`~livecore_client.errors.UnknownCurrencyError` when no exchange rate is on file
        and :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown player.
        """
        body = m.ServerTrackPurchaseRequest(
            transaction_id=transaction_id,
            store=store,
            product_id=product_id,
            product_type=product_type,
            amount_minor=amount_minor,
            currency=currency,
            purchased_at=purchased_at,
            metadata=None if metadata is None else dict(metadata),
        )
        if validation_status is not None:
            body = attrs.evolve(body, validation_status=ValidationStatusView(validation_status))
        return Call(
            SERVER_TRACK_PURCHASE,
            m.TrackPurchaseResponse,
            path={"externalId": external_id},
            body=body,
            idempotency_key=idempotency_key,
        )

    def _list(
        self, external_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> Call[m.PurchaseListResponse]:
        """One page of a player's purchases, newest first. ``limit`` defaults to 50 and must be from 1
        to 200; pass the page's ``next_cursor`` as ``cursor`` for the next page (``None`` on the last
        one). :meth:`iter` walks every page."""
        query = m.PurchaseListQuery(cursor=cursor)
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(SERVER_PURCHASES, m.PurchaseListResponse, path={"externalId": external_id}, query=query)

    def _player_spend(
        self, external_id: str, *, windows: Sequence[int] | None = None
    ) -> Call[m.PlayerSpendResponse]:
        """A player's spend in US cents: lifetime total, purchase count, first and last purchase, and a
        rolling total for each of ``windows`` (day counts, e.g. ``[7, 30]``; at most 8, each 1 to
        3,650). Debug accounts count here too (``debug`` says whether the player is one)."""
        days = None if windows is None else list(windows) or None
        return Call(
            PLAYER_SPEND,
            m.PlayerSpendResponse,
            path={"externalId": external_id},
            query=m.SpendQuery(windows=days),
        )

    def _spend_players(
        self,
        *,
        min_amount_minor: int = 0,
        window_days: int | None = None,
        limit: int | None = None,
        offset: int | None = None,
    ) -> Call[m.SpendQueryResponse]:
        """Players who spent at least ``min_amount_minor`` US cents (inclusive), highest spender first:
        over the last ``window_days`` days, or lifetime without it. Debug accounts are left out.
        ``limit`` defaults to 50 (1 to 200), ``offset`` to 0."""
        query = m.SpendPlayersQuery(min_amount_minor=min_amount_minor, window_days=window_days)
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        if offset is not None:
            query = attrs.evolve(query, offset=offset)
        return Call(SPEND_PLAYERS, m.SpendQueryResponse, query=query)

    def _revenue_summary(
        self, *, from_: date | datetime | str | None = None, to: date | datetime | str | None = None
    ) -> Call[m.RevenueSummaryResponse]:
        """Revenue in US cents from ``from_`` to ``to`` (both included): gross, purchase count, paying
        players, ARPPU (``None`` when nobody paid), and per-product and per-day breakdowns. Debug
        accounts are left out. Each bound is a ``datetime`` (timezone-aware), a ``date`` (``from_``
        starts that UTC day, ``to`` includes all of it) or the wire text; without them the last 30
        days up to now. ``ValueError`` (before any request) for a naive ``datetime``."""
        return Call(
            SPEND_SUMMARY,
            m.RevenueSummaryResponse,
            query=m.RevenueQuery(from_=_bound(from_, "from_"), to=_bound(to, "to")),
        )


class ServerPurchases(SyncResource[SyncClient], _ServerPurchasesCalls):
    """``server.purchases``: the ``/server/v1`` purchase and spend calls."""

    track = sync_method(_ServerPurchasesCalls._track)
    list = sync_method(_ServerPurchasesCalls._list)

    def iter(self, external_id: str, *, page_size: int | None = None) -> Iterator[m.PurchaseView]:
        """Every purchase of a player, newest first, fetching pages of ``page_size`` (default 50) as
        the iteration reaches them by following ``next_cursor``."""
        cursor: str | None = None
        while True:
            page = self.list(external_id, limit=page_size, cursor=cursor)
            yield from page.purchases
            # A cursor handed back unchanged would repeat this page for ever: stop instead.
            if page.next_cursor is None or page.next_cursor == cursor:
                return
            cursor = page.next_cursor

    player_spend = sync_method(_ServerPurchasesCalls._player_spend)
    spend_players = sync_method(_ServerPurchasesCalls._spend_players)
    revenue_summary = sync_method(_ServerPurchasesCalls._revenue_summary)


class AsyncServerPurchases(AsyncResource[AsyncClient], _ServerPurchasesCalls):
    """The methods of :class:`ServerPurchases`, awaited."""

    track = async_method(_ServerPurchasesCalls._track)
    list = async_method(_ServerPurchasesCalls._list)

    async def iter(self, external_id: str, *, page_size: int | None = None) -> AsyncIterator[m.PurchaseView]:
        """Every purchase of a player, newest first, fetching pages of ``page_size`` (default 50) as
        the iteration reaches them by following ``next_cursor`` (``async for``)."""
        cursor: str | None = None
        while True:
            page = await self.list(external_id, limit=page_size, cursor=cursor)
            for purchase in page.purchases:
                yield purchase
            # A cursor handed back unchanged would repeat this page for ever: stop instead.
            if page.next_cursor is None or page.next_cursor == cursor:
                return
            cursor = page.next_cursor

    player_spend = async_method(_ServerPurchasesCalls._player_spend)
    spend_players = async_method(_ServerPurchasesCalls._spend_players)
    revenue_summary = async_method(_ServerPurchasesCalls._revenue_summary)
