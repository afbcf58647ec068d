"""The purchase routes' calls, as the typed clients send them (``sdk.purchases``, ``server.purchases``) and
a simulation runs them (``ada.purchases``, ``sim.server.purchases``): one builder per route
(:mod:`livecore.api.call`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import date, datetime
from typing import Any

import attrs

from livecore.api.call import Call, SdkCalls, ServerCalls
from livecore.clock import format_ts
from livecore.purchases import api


class PurchasesCalls(SdkCalls):
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
    ) -> Call[api.TrackPurchaseResponse]:
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
            api.SDK_TRACK_PURCHASE,
            api.TrackPurchaseResponse,
            path={"externalId": external_id},
            body=api.TrackPurchaseRequest(
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


def _bound(value: date | datetime | str | None, name: str) -> str | None:
    """A revenue bound as the wire text: a timestamp, or a ``YYYY-MM-DD`` date."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError(f"{name} needs a timezone-aware datetime (or a date)")
        return format_ts(value)
    return value.isoformat()


class ServerPurchasesCalls(ServerCalls):
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
        validation_status: api.ValidationStatusView | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[api.TrackPurchaseResponse]:
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
        body = api.ServerTrackPurchaseRequest(
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
            body = attrs.evolve(body, validation_status=api.ValidationStatusView(validation_status))
        return Call(
            api.SERVER_TRACK_PURCHASE,
            api.TrackPurchaseResponse,
            path={"externalId": external_id},
            body=body,
            idempotency_key=idempotency_key,
        )

    def _list(
        self, external_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> Call[api.PurchaseListResponse]:
        """One page of a player's purchases, newest first. ``limit`` defaults to 50 and must be from 1
        to 200; pass the page's ``next_cursor`` as ``cursor`` for the next page (``None`` on the last
        one). :meth:`iter` walks every page."""
        query = api.PurchaseListQuery(cursor=cursor)
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            api.SERVER_PURCHASES, api.PurchaseListResponse, path={"externalId": external_id}, query=query
        )

    def _player_spend(
        self, external_id: str, *, windows: Sequence[int] | None = None
    ) -> Call[api.PlayerSpendResponse]:
        """A player's spend in US cents: lifetime total, purchase count, first and last purchase, and a
        rolling total for each of ``windows`` (day counts, e.g. ``[7, 30]``; at most 8, each 1 to
        3,650). Debug accounts count here too (``debug`` says whether the player is one)."""
        days = None if windows is None else list(windows) or None
        return Call(
            api.PLAYER_SPEND,
            api.PlayerSpendResponse,
            path={"externalId": external_id},
            query=api.SpendQuery(windows=days),
        )

    def _spend_players(
        self,
        *,
        min_amount_minor: int = 0,
        window_days: int | None = None,
        limit: int | None = None,
        offset: int | None = None,
    ) -> Call[api.SpendQueryResponse]:
        """Players who spent at least ``min_amount_minor`` US cents (inclusive), highest spender first:
        over the last ``window_days`` days, or lifetime without it. Debug accounts are left out.
        ``limit`` defaults to 50 (1 to 200), ``offset`` to 0."""
        query = api.SpendPlayersQuery(min_amount_minor=min_amount_minor, window_days=window_days)
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        if offset is not None:
            query = attrs.evolve(query, offset=offset)
        return Call(api.SPEND_PLAYERS, api.SpendQueryResponse, query=query)

    def _revenue_summary(
        self, *, from_: date | datetime | str | None = None, to: date | datetime | str | None = None
    ) -> Call[api.RevenueSummaryResponse]:
        """Revenue in US cents from ``from_`` to ``to`` (both included): gross, purchase count, paying
        players, ARPPU (``None`` when nobody paid), and per-product and per-day breakdowns. Debug
        accounts are left out. Each bound is a ``datetime`` (timezone-aware), a ``date`` (``from_``
        starts that UTC day, ``to`` includes all of it) or the wire text; without them the last 30
        days up to now. ``ValueError`` (before any request) for a naive ``datetime``."""
        return Call(
            api.SPEND_SUMMARY,
            api.RevenueSummaryResponse,
            query=api.RevenueQuery(from_=_bound(from_, "from_"), to=_bound(to, "to")),
        )


def every_purchase(page_at: Callable[[str | None], api.PurchaseListResponse]) -> Iterator[api.PurchaseView]:
    """Every purchase of the pages ``page_at(cursor)`` answers, following ``next_cursor`` from the first
    page (``None``) as the iteration reaches them: a blocking ``server.purchases.iter``."""
    cursor: str | None = None
    while True:
        page = page_at(cursor)
        yield from page.purchases
        # A cursor handed back unchanged would repeat this page for ever: stop instead.
        if page.next_cursor is None or page.next_cursor == cursor:
            return
        cursor = page.next_cursor
