"""The purchase routes' handlers (docs/reference/economy.md#purchases): the client's report of a store
purchase (unverified) and the studio backend's track, which :func:`track` shares (idempotent on the
transaction id), then the studio's list, spend and revenue reads."""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta
from typing import Protocol

import orjson

from livecore.api.request import AnyRequest, Handler, Reply, Request
from livecore.api.route import Route
from livecore.clock import from_millis, to_millis
from livecore.errors import invalid_request
from livecore.limits import MOMENT
from livecore.players.actor import player_of
from livecore.players.commands import get_player
from livecore.players.rules import Player
from livecore.players.store import HasPlayers
from livecore.purchases import api
from livecore.purchases import commands as cmd
from livecore.purchases.rules import (
    MAX_WINDOW_DAYS,
    Purchase,
    PurchaseRequest,
    check_windows,
    window_start,
)
from livecore.purchases.store import HasPurchases
from livecore.store.games import HasGames
from livecore.store.outbox import HasOutbox


class Tx(HasGames, HasPlayers, HasPurchases, HasOutbox, Protocol):
    """The ports these handlers use."""


REVENUE_DAYS = 30
_FIRST_DAY = datetime.min.replace(tzinfo=UTC)


def track(
    request: AnyRequest, tx: Tx, player: Player, purchase: PurchaseRequest, *, by_player: bool = False
) -> api.TrackPurchaseResponse | Reply:
    """Track ``purchase`` for ``player`` (``by_player``: the client's own report, refused to a banned
    player); a repeated transaction id answers the purchase tracked first."""
    done = (cmd.report if by_player else cmd.track)(tx, request.rt, request.scope, player, purchase)
    view = api.TrackPurchaseResponse.of(done)
    return Reply(view, 200, replayed=True) if done.replayed else view


def sdk_track(request: Request[api.TrackPurchaseRequest, None], tx: Tx) -> api.TrackPurchaseResponse | Reply:
    """The client's report: the same request, never verified."""
    return track(request, tx, player_of(request), PurchaseRequest.reported(request.body), by_player=True)


def server_track(
    request: Request[api.ServerTrackPurchaseRequest, None], tx: Tx
) -> api.TrackPurchaseResponse | Reply:
    return track(request, tx, get_player(tx, request.scope, request.external_id), request.body)


def _cursor(p: Purchase) -> str:
    raw = orjson.dumps([to_millis(p.purchased_at), p.id])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _after(cursor: str) -> tuple[datetime, str]:
    try:
        ms, pid = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        return from_millis(int(ms)), str(pid)
    except (ValueError, TypeError, OverflowError):
        raise invalid_request("cursor is not one this service returned.", {"cursor": "invalid"}) from None


def list_purchases(request: Request[None, api.PurchaseListQuery], tx: Tx) -> api.PurchaseListResponse:
    query = request.query
    limit = query.limit
    player = get_player(tx, request.scope, request.external_id, retired=True)
    # One row past the page says whether there is a next page.
    rows = tx.purchases.page(player.id, _after(query.cursor) if query.cursor else None, limit + 1)
    page = rows[:limit]
    return api.PurchaseListResponse(
        purchases=[api.PurchaseView.of(p) for p in page],
        next_cursor=_cursor(page[-1]) if len(rows) > limit else None,
    )


def player_spend(request: Request[None, api.SpendQuery], tx: Tx) -> api.PlayerSpendResponse:
    query = request.query
    windows = check_windows(query.windows or ())
    player = get_player(tx, request.scope, request.external_id, retired=True)
    spend = tx.purchases.player_spend(player.id, request.rt.clock.now(), windows)
    return api.PlayerSpendResponse(
        external_player_id=player.external_id,
        lifetime_amount_minor=spend.lifetime_amount_minor,
        purchase_count=spend.purchase_count,
        first_purchase_at=spend.first_purchase_at,
        last_purchase_at=spend.last_purchase_at,
        windows=[api.SpendWindow(w.days, w.amount_minor, w.purchase_count) for w in spend.windows],
        debug=player.debug is not None,
    )


def spend_players(request: Request[None, api.SpendPlayersQuery], tx: Tx) -> api.SpendQueryResponse:
    query = request.query
    limit = query.limit
    since = window_start(request.rt.clock.now(), query.window_days) if query.window_days is not None else None
    found = tx.purchases.spenders(
        request.scope.game_id, request.scope.env, query.min_amount_minor, since, limit, query.offset
    )
    return api.SpendQueryResponse(
        players=[
            api.Spender(s.external_player_id, s.amount_minor, s.purchase_count, s.last_purchase_at)
            for s in found
        ],
        min_amount_minor=query.min_amount_minor,
        window_days=query.window_days,
        limit=limit,
        offset=query.offset,
    )


def revenue(request: Request[None, api.RevenueQuery], tx: Tx) -> api.RevenueSummaryResponse:
    query = request.query
    end = MOMENT.parse(query.to, "to", end=True) if query.to else request.rt.clock.now()
    if query.from_:
        start = MOMENT.parse(query.from_, "from")
    else:
        start = end - min(end - _FIRST_DAY, timedelta(days=REVENUE_DAYS))  # or as many as the calendar has
    if start > end:
        raise invalid_request("from must not be after to.", {"from": "after to"})
    if end - start > timedelta(days=MAX_WINDOW_DAYS):
        raise invalid_request(f"At most {MAX_WINDOW_DAYS} days per summary.", {"from": "range too long"})
    summary = tx.purchases.revenue(request.scope.game_id, request.scope.env, start, end)
    return api.RevenueSummaryResponse(
        from_=start,
        to=end,
        gross_amount_minor=summary.gross_amount_minor,
        purchase_count=summary.purchase_count,
        paying_players=summary.paying_players,
        arppu_minor=summary.arppu_minor,
        per_product=[
            api.ProductRevenue(p.product_id, p.amount_minor, p.purchase_count) for p in summary.per_product
        ],
        per_day=[
            api.DayRevenue(d.day.isoformat(), d.amount_minor, d.purchase_count) for d in summary.per_day
        ],
    )


HANDLERS: dict[Route, Handler] = {
    api.SDK_TRACK_PURCHASE: sdk_track,
    api.SERVER_TRACK_PURCHASE: server_track,
    api.SERVER_PURCHASES: list_purchases,
    api.PLAYER_SPEND: player_spend,
    api.SPEND_PLAYERS: spend_players,
    api.SPEND_SUMMARY: revenue,
}
