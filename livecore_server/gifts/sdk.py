"""Client gift routes (docs/reference/gifts.md): send, claim, catalog, inbox and sent lists."""

from __future__ import annotations

from livecore.commands.reads import Reads
from livecore.friends.commands import resolve_target
from livecore.gifts import api
from livecore.gifts import commands as cmd
from livecore.gifts.commands import GiftsTx
from livecore.gifts.reads import GiftClaimReads
from livecore.gifts.rules import SendRequest, max_amount, sendable
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS
from livecore.limits import ID
from livecore.players.commands import load_game
from livecore.players.rules import Player
from livecore_server.http.endpoint import AnyCall, Binding, Call, Reply, bind


def _me(call: AnyCall) -> Player:
    assert call.player is not None  # player-scoped: authenticated before the handler runs
    return call.player


def _request(call: Call[api.SendGiftRequest, None]) -> SendRequest:
    return SendRequest(
        type=call.body.type,
        resource_key=call.body.resource_key,
        amount=call.body.amount,
        message=call.body.message,
        idempotency_key=call.idempotency_key,
    )


def send(call: Call[api.SendGiftRequest, None], tx: GiftsTx) -> api.GiftResponse | Reply:
    me = _me(call)
    target = resolve_target(tx, call.scope, call.body.friend_code, call.body.external_player_id)
    sent = cmd.send(tx, call.rt, call.scope, load_game(tx, call.scope), me, target, _request(call))
    view = api.GiftResponse(gift=api.GiftView.of(sent.gift, me.id, target))
    # A key that named an earlier gift answers it as a replay does (docs/reference/conventions.md#idempotency:
    # 200, not 201).
    return Reply(view, 200, replayed=True) if sent.replayed else view


def send_reads(call: Call[api.SendGiftRequest, None], tx: GiftsTx) -> Reads:
    game = tx.games.get(call.scope.game_id)
    if game is None:
        return Reads()
    return cmd.send_reads(
        call.scope, game, call.external_id, call.body.external_player_id, _request(call), call.rt.clock.now()
    )


def claim_reads(call: Call[None, None], tx: GiftsTx) -> Reads:
    gift_id = call.params["giftId"]
    # A malformed id names no gift: the claim answers its 404 without reading (and a NUL never reaches
    # PostgreSQL's text).
    return (
        Reads()
        if ID.problem(gift_id) is not None
        else Reads(areas=(GiftClaimReads(call.scope.game_id, gift_id),))
    )


def claim(call: Call[None, None], tx: GiftsTx) -> api.GiftResponse:
    me = _me(call)
    gift = cmd.claim(tx, call.rt, call.scope, me, call.params["giftId"])
    sender = tx.players.by_id(gift.sender_id)
    assert sender is not None
    return api.GiftResponse(gift=api.GiftView.of(gift, me.id, sender))


def catalog(call: Call[None, None], tx: GiftsTx) -> api.GiftCatalogResponse:
    game = load_game(tx, call.scope)
    settings = game.settings.of(GIFTING_SETTINGS)
    return api.GiftCatalogResponse(
        enabled=settings.enabled,
        cooldown_seconds=settings.cooldown_seconds,
        daily_send_limit=settings.daily_send_limit,
        sent_today=cmd.sent_today(tx, _me(call), call.rt.clock.now()),
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


def gift_list(
    call: AnyCall, tx: GiftsTx, player: Player, *, sent: bool, pending: bool, limit: int
) -> list[api.GiftView]:
    now = call.rt.clock.now()
    rows = tx.gifts.page(player.id, sent=sent, claimable_at=now if pending else None, limit=limit)
    return [api.GiftView.of(r.gift, player.id, r.counterparty) for r in rows]


def _own_gifts(call: Call[None, api.GiftListQuery], tx: GiftsTx, *, sent: bool) -> list[api.GiftView]:
    return gift_list(call, tx, _me(call), sent=sent, pending=call.query.pending, limit=call.query.rows())


def inbox(call: Call[None, api.GiftListQuery], tx: GiftsTx) -> list[api.GiftView]:
    return _own_gifts(call, tx, sent=False)


def sent(call: Call[None, api.GiftListQuery], tx: GiftsTx) -> list[api.GiftView]:
    return _own_gifts(call, tx, sent=True)


BINDINGS: list[Binding] = [
    bind(api.GIFT_SEND, send, reads=send_reads),
    bind(api.GIFT_CLAIM, claim, reads=claim_reads),
    bind(api.GIFT_CATALOG, catalog),
    bind(api.GIFT_INBOX, inbox),
    bind(api.GIFT_SENT, sent),
]
