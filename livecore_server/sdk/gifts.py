"""Client gift routes (SPEC 4.1, DECISIONS 2): send, claim, catalog, inbox and sent lists."""

from __future__ import annotations

from livecore.api import gifts as api
from livecore.commands import gifts as cmd
from livecore.commands.friends import resolve_target
from livecore.commands.players import load_game
from livecore.friends import clamp
from livecore.gifts import SendRequest, max_amount, sendable, stats_window
from livecore.players import Player
from livecore_server.http.endpoint import AnyCall, Binding, Call, Reply, bind
from livecore_server.storage.postgres_prefetch import GiftSendReads, Prefetch
from livecore_server.storage.sqlport import SqlTransaction

LIST_LIMIT_MAX = 200


def _me(call: AnyCall) -> Player:
    assert call.player is not None  # player-scoped: authenticated before the handler runs
    return call.player


def send(call: Call[api.SendGiftRequest, None], tx: SqlTransaction) -> api.GiftResponse | Reply:
    me = _me(call)
    target = resolve_target(tx, call.scope, call.body.friend_code, call.body.external_player_id)
    request = SendRequest(
        type=call.body.type,
        resource_key=call.body.resource_key,
        amount=call.body.amount,
        message=call.body.message,
        idempotency_key=call.idempotency_key,
    )
    sent = cmd.send(tx, call.rt, call.scope, load_game(tx, call.scope), me, target, request)
    view = api.GiftResponse(gift=api.GiftView.of(sent.gift, me.id, target))
    # A key that named an earlier gift answers it as a replay does (DECISIONS 5: 200, not 201).
    return Reply(view, 200, replayed=True) if sent.replayed else view


def send_reads(call: Call[api.SendGiftRequest, None], tx: SqlTransaction) -> Prefetch:
    """What :func:`send` reads beyond the sender and its idempotency record (read ahead on PostgreSQL):
    the recipient, then the friendship, the gift key, the sender's recent gifts and the balance paid
    from. A recipient named by friend code is looked up as the send runs."""
    game = tx.get_game(call.scope.game_id)
    if call.body.external_player_id is None or game is None:
        return Prefetch()
    res = game.settings.resources.get(call.body.resource_key)
    since, day = stats_window(game.settings.gifting, call.rt.clock.now())
    sender, recipient = (
        (call.scope.game_id, call.external_id),
        (call.scope.game_id, call.body.external_player_id),
    )
    read = GiftSendReads(
        sender=sender,
        recipient=recipient,
        idempotency_key=call.idempotency_key,
        cost_key=call.body.resource_key if res is not None and res.costs_sender else None,
        cooldown_since=since,
        day_start=day,
    )
    return Prefetch(players=(recipient,), gift_sends=(read,))


def claim(call: Call[None, None], tx: SqlTransaction) -> api.GiftResponse:
    me = _me(call)
    gift = cmd.claim(tx, call.rt, call.scope, me, call.params["giftId"])
    sender = tx.get_player_by_id(gift.sender_id)
    assert sender is not None
    return api.GiftResponse(gift=api.GiftView.of(gift, me.id, sender))


def catalog(call: Call[None, None], tx: SqlTransaction) -> api.GiftCatalogResponse:
    game = load_game(tx, call.scope)
    settings = game.settings.gifting
    return api.GiftCatalogResponse(
        enabled=settings.enabled,
        cooldown_seconds=settings.cooldown_seconds,
        daily_send_limit=settings.daily_send_limit,
        sent_today=cmd.sent_today(tx, _me(call), call.rt.clock.now()),
        resources=[
            api.GiftCatalogResource(
                type=res.type, key=res.key, max_amount=max_amount(res), costs_sender=res.costs_sender
            )
            for _, res in sorted(game.settings.resources.items())
            if settings.enabled and sendable(game, res)
        ],
    )


def gift_list(
    call: AnyCall, tx: SqlTransaction, player: Player, *, sent: bool, pending: bool, limit: int
) -> list[api.GiftView]:
    now = call.rt.clock.now()
    rows = tx.list_gifts(player.id, sent=sent, claimable_at=now if pending else None, limit=limit)
    return [api.GiftView.of(r.gift, player.id, r.counterparty) for r in rows]


def _own_gifts(call: Call[None, api.GiftListQuery], tx: SqlTransaction, *, sent: bool) -> list[api.GiftView]:
    limit = clamp(call.query.limit, 1, LIST_LIMIT_MAX)
    return gift_list(call, tx, _me(call), sent=sent, pending=call.query.pending, limit=limit)


def inbox(call: Call[None, api.GiftListQuery], tx: SqlTransaction) -> list[api.GiftView]:
    return _own_gifts(call, tx, sent=False)


def sent(call: Call[None, api.GiftListQuery], tx: SqlTransaction) -> list[api.GiftView]:
    return _own_gifts(call, tx, sent=True)


BINDINGS: list[Binding] = [
    bind(api.GIFT_SEND, send, reads=send_reads),
    bind(api.GIFT_CLAIM, claim),
    bind(api.GIFT_CATALOG, catalog),
    bind(api.GIFT_INBOX, inbox),
    bind(api.GIFT_SENT, sent),
]
