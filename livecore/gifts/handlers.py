"""The gift routes' handlers: the player's (send, claim, the catalog, inbox and sent lists) and the
studio's gift history of a player (docs/reference/gifts.md); and what a send and a claim read beyond the
caller, which the server reads ahead of them (``livecore_server.gifts.read_ahead``)."""

from __future__ import annotations

from typing import Protocol

from livecore.api.request import Handler, Reply, Request
from livecore.api.route import Route
from livecore.commands.reads import Reads
from livecore.friends.commands import resolve_target
from livecore.gifts import api
from livecore.gifts import commands as cmd
from livecore.gifts.commands import GiftsTx
from livecore.gifts.reads import GiftClaimReads
from livecore.gifts.rules import SendRequest, check_history_visible, max_amount, sendable
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS
from livecore.gifts.store import HasGifts
from livecore.limits import ID
from livecore.players.actor import player_of
from livecore.players.commands import get_player, load_game
from livecore.players.store import HasPlayers
from livecore.store.games import HasGames


class HistoryTx(HasGames, HasPlayers, HasGifts, Protocol):
    """The ports the studio's gift history reads."""


def _send_request(request: Request[api.SendGiftRequest, None]) -> SendRequest:
    body = request.body
    return SendRequest(
        type=body.type,
        resource_key=body.resource_key,
        amount=body.amount,
        message=body.message,
        idempotency_key=request.idempotency_key,
    )


def send(request: Request[api.SendGiftRequest, None], tx: GiftsTx) -> api.GiftResponse | Reply:
    me = player_of(request)
    scope = request.scope
    target = resolve_target(tx, scope, request.body.friend_code, request.body.external_player_id)
    sent = cmd.send(tx, request.rt, scope, load_game(tx, scope), me, target, _send_request(request))
    view = api.GiftResponse(gift=api.GiftView.of(sent.gift, me.id, target))
    # A key that named an earlier gift answers it as a replay does (docs/reference/conventions.md#idempotency:
    # 200, not 201).
    return Reply(view, 200, replayed=True) if sent.replayed else view


def send_reads(request: Request[api.SendGiftRequest, None], tx: GiftsTx) -> Reads:
    game = tx.games.get(request.scope.game_id)
    if game is None:
        return Reads()
    return cmd.send_reads(
        request.scope,
        game,
        request.external_id,
        request.body.external_player_id,
        _send_request(request),
        request.rt.clock.now(),
    )


def claim(request: Request[None, None], tx: GiftsTx) -> api.GiftResponse:
    me = player_of(request)
    gift = cmd.claim(tx, request.rt, request.scope, me, request.params["giftId"])
    sender = tx.players.by_id(gift.sender_id)
    assert sender is not None
    return api.GiftResponse(gift=api.GiftView.of(gift, me.id, sender))


def claim_reads(request: Request[None, None], tx: GiftsTx) -> Reads:
    gift_id = request.params["giftId"]
    # A malformed id names no gift: the claim answers its 404 without reading (and a NUL never reaches
    # PostgreSQL's text).
    return (
        Reads()
        if ID.problem(gift_id) is not None
        else Reads(areas=(GiftClaimReads(request.scope.game_id, gift_id),))
    )


def catalog(request: Request[None, None], tx: GiftsTx) -> api.GiftCatalogResponse:
    game = load_game(tx, request.scope)
    settings = game.settings.of(GIFTING_SETTINGS)
    return api.GiftCatalogResponse(
        enabled=settings.enabled,
        cooldown_seconds=settings.cooldown_seconds,
        daily_send_limit=settings.daily_send_limit,
        sent_today=cmd.sent_today(tx, player_of(request), request.rt.clock.now()),
        resources=[
            api.GiftCatalogResource(
                type=res.type,
                key=res.key,
                max_amount=max_amount(res),
                costs_sender=res.of(GIFT_RESOURCE).costs_sender,
            )
            for _, res in sorted(game.settings.resources.items())
            if settings.enabled and sendable(game, res)
        ],
    )


def _own_gifts(request: Request[None, api.GiftListQuery], tx: GiftsTx, *, sent: bool) -> list[api.GiftView]:
    me = player_of(request)
    pending = request.query.pending
    claimable_at = request.rt.clock.now() if pending else None
    rows = tx.gifts.page(me.id, sent=sent, claimable_at=claimable_at, limit=request.query.rows())
    return [api.GiftView.of(r.gift, me.id, r.counterparty) for r in rows]


def inbox(request: Request[None, api.GiftListQuery], tx: GiftsTx) -> list[api.GiftView]:
    return _own_gifts(request, tx, sent=False)


def sent(request: Request[None, api.GiftListQuery], tx: GiftsTx) -> list[api.GiftView]:
    return _own_gifts(request, tx, sent=True)


def history(request: Request[None, api.ServerGiftsQuery], tx: HistoryTx) -> api.ServerGiftsResponse:
    check_history_visible(load_game(tx, request.scope))
    player = get_player(tx, request.scope, request.external_id, retired=True)
    query = request.query
    rows = tx.gifts.page(
        player.id, sent=query.direction is api.GiftHistoryDirection.SENT, claimable_at=None, limit=query.limit
    )
    now = request.rt.clock.now()
    return api.ServerGiftsResponse(
        direction=query.direction,
        gifts=[api.GiftView.of(r.gift, player.id, r.counterparty, r.grant_status_at(now)) for r in rows],
    )


HANDLERS: dict[Route, Handler] = {
    api.GIFT_SEND: send,
    api.GIFT_CLAIM: claim,
    api.GIFT_CATALOG: catalog,
    api.GIFT_INBOX: inbox,
    api.GIFT_SENT: sent,
    api.SERVER_GIFTS: history,
}
