"""Gift commands: send (one transaction: gift, its pending grant, the sender's debit, the webhooks),
claim (through the grant, so both routes pay out identically), and the reads behind the catalog and the
friends list's ``giftCooldownUntil``."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.commands.reads import Reads
from livecore.economy.commands import change
from livecore.economy.rules import Reason
from livecore.economy.store import HasLedger
from livecore.errors import LivecoreError
from livecore.friends.store import HasFriends
from livecore.games import Entry, Game
from livecore.gifts import api
from livecore.gifts.errors import GIFT_NOT_FOUND
from livecore.gifts.reads import GiftSendReads
from livecore.gifts.rules import (
    GIFT_SOURCE_KIND,
    MESSAGE,
    Gift,
    GiftStatus,
    SendRequest,
    check_claim,
    check_replay,
    check_send,
    claimed,
    cooldown_until,
    cooldown_window_start,
    day_start,
    expiry,
    stats_window,
)
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS
from livecore.gifts.store import HasGifts
from livecore.gifts.webhooks import GiftClaimed, GiftSent
from livecore.grants.commands import issue_grant, settle_loaded
from livecore.grants.rules import Grant, GrantKind, GrantTrigger
from livecore.grants.store import HasGrants
from livecore.ids import new_uuid
from livecore.players.rules import Player
from livecore.players.store import HasPlayers
from livecore.scope import Scope
from livecore.store.games import HasGames
from livecore.store.outbox import HasOutbox

#: The sender's debit of a gift that costs it (``gift_cost``).
GIFT_COST = Reason.own("gift_cost")


class GiftsTx(HasGames, HasPlayers, HasFriends, HasLedger, HasGrants, HasGifts, HasOutbox, Protocol):
    """The ports these commands use."""


@attrs.frozen
class Delivered:
    """The gift a grant delivers, settled with its grant (:class:`livecore.grants.commands.Delivery`):
    whatever claims the grant claims the gift, and a client claim of the grant runs the gift's claim rule
    (410 ``gift_expired``, 409 ``gift_already_claimed``)."""

    gift: Gift

    def check_claim(self, now: datetime) -> None:
        check_claim(self.gift, now)

    def settled(self, tx: GiftsTx, rt: Runtime, scope: Scope, now: datetime) -> Delivered:
        if self.gift.status is GiftStatus.CLAIMED:
            return self
        gift = claimed(self.gift, now)
        tx.gifts.update(gift)
        emit(tx, rt, scope, GiftClaimed.of(gift))
        return Delivered(gift)


def delivered(tx: GiftsTx, grant: Grant) -> Delivered | None:
    """The gift a gift's grant delivers (its ``sourceRefId``)."""
    gift = tx.gifts.get(grant.game_id, grant.source_ref_id or "")
    return None if gift is None else Delivered(gift)


@attrs.frozen
class Sent:
    gift: Gift
    replayed: bool = False  # the idempotency key named a gift sent before: nothing new happened


def send_reads(
    scope: Scope,
    game: Game,
    sender_external_id: str,
    recipient_external_id: str | None,
    request: SendRequest,
    now: datetime,
) -> Reads:
    """What :func:`send` reads beyond the sender and its idempotency record: the recipient, then the
    friendship, the gift key, the sender's recent gifts and the balance paid from. A recipient named by
    friend code is found as the send runs (nothing to declare)."""
    if recipient_external_id is None:
        return Reads()
    res = game.settings.resources.get(request.resource_key)
    since, day = stats_window(game.settings.of(GIFTING_SETTINGS), now)
    sender, recipient = (scope.game_id, sender_external_id), (scope.game_id, recipient_external_id)
    read = GiftSendReads(
        sender=sender,
        recipient=recipient,
        idempotency_key=request.idempotency_key,
        cost_key=request.resource_key if res is not None and res.of(GIFT_RESOURCE).costs_sender else None,
        cooldown_since=since,
        day_start=day,
    )
    return Reads(players=(recipient,), areas=(read,))


def send(
    tx: GiftsTx,
    rt: Runtime,
    scope: Scope,
    game: Game,
    sender: Player,
    recipient: Player,
    request: SendRequest,
) -> Sent:
    """Send a gift: the refusal checks of :func:`livecore.gifts.rules.check_send`, then the gift, its pending
    grant (``grant.created``), the sender's debit when the resource costs the sender, and ``gift.sent``."""
    MESSAGE.check_optional(request.message, "message")
    if request.idempotency_key is not None:
        earlier = tx.gifts.by_key(sender.id, request.idempotency_key)
        if earlier is not None:
            return Sent(check_replay(earlier, recipient.id, request), replayed=True)
    now = rt.clock.now()
    settings = game.settings.of(GIFTING_SETTINGS)
    are_friends = sender.id != recipient.id and tx.friends.get_friendship(sender.id, recipient.id) is not None
    stats = tx.gifts.sender_stats(sender.id, recipient.id, *stats_window(settings, now))
    res_declared = game.settings.resources.get(request.resource_key)
    costs = res_declared is not None and res_declared.of(GIFT_RESOURCE).costs_sender
    balance = tx.ledger.holding(sender.id, request.resource_key).amount if costs else 0
    res = check_send(game, request, are_friends=are_friends, stats=stats, balance=balance, now=now)
    if rt.checks.active:
        rt.checks.hook.before_send_gift(
            tx=tx, rt=rt, scope=scope, sender=sender, recipient=recipient, request=request
        )
    gift = Gift(
        id=new_uuid(now, rt.rng),
        grant_id=new_uuid(now, rt.rng),
        game_id=game.id,
        sender_id=sender.id,
        sender_external_id=sender.external_id,
        recipient_id=recipient.id,
        recipient_external_id=recipient.external_id,
        type=res.type,
        resource_key=res.key,
        amount=request.amount,
        message=request.message,
        status=GiftStatus.PENDING,
        sent_at=now,
        expires_at=expiry(settings, now),
        deducted_from_sender=costs,
        idempotency_key=request.idempotency_key,
    )
    if costs:
        change(tx, rt, scope, game, sender, res, -gift.amount, GIFT_COST, source_ref_id=gift.id)
    tx.gifts.insert(gift)
    emit(tx, rt, scope, GiftSent.of(gift))
    issue_grant(
        tx,
        rt,
        scope,
        recipient,
        kind=GrantKind.REWARD,
        entries=(Entry(type=res.type, key=res.key, amount=gift.amount),),
        expires_at=gift.expires_at,
        source_kind=GIFT_SOURCE_KIND,
        source_ref_id=gift.id,
        grant_id=gift.grant_id,
    )
    if rt.checks.active:
        rt.checks.hook.after_send_gift(
            tx=tx, rt=rt, scope=scope, sender=sender, recipient=recipient, gift=gift
        )
    return Sent(gift)


def get_gift(tx: GiftsTx, scope: Scope, recipient: Player, gift_id: str) -> Gift:
    """A gift as its recipient sees it; anyone else (the sender too) is told it does not exist."""
    gift = tx.gifts.get(scope.game_id, gift_id)
    if gift is None or gift.recipient_id != recipient.id:
        raise LivecoreError(GIFT_NOT_FOUND, "No such gift for you.", {"giftId": gift_id})
    return gift


def claim(tx: GiftsTx, rt: Runtime, scope: Scope, recipient: Player, gift_id: str) -> Gift:
    """Claim a gift: the path of claiming its grant (credit now, ``gift.claimed`` + ``grant.claimed``)."""
    gift = get_gift(tx, scope, recipient, gift_id)
    grant = tx.grants.get(scope.game_id, gift.grant_id)
    assert grant is not None  # written with the gift
    _, settled = settle_loaded(tx, rt, scope, recipient, grant, Delivered(gift), GrantTrigger.CLAIM)
    assert settled is not None
    if rt.checks.active:
        rt.checks.hook.after_claim_gift(tx=tx, rt=rt, scope=scope, recipient=recipient, gift=settled.gift)
    return settled.gift


def sent_today(tx: GiftsTx, sender: Player, now: datetime) -> int:
    return tx.gifts.sender_stats(sender.id, None, now, day_start(now)).sent_today


def cooldowns(tx: GiftsTx, game: Game, sender: Player, now: datetime) -> dict[str, datetime]:
    """Friend id -> when the sender may gift them again, for friends still on cooldown."""
    settings = game.settings.of(GIFTING_SETTINGS)
    last = tx.gifts.cooldowns(sender.id, cooldown_window_start(settings, now))
    return {pid: until for pid, t in last.items() if (until := cooldown_until(t, settings, now)) is not None}


def friend_row_cooldowns(tx: GiftsTx, game: Game, sender: Player, now: datetime) -> dict[str, api.GiftRow]:
    """The friend rows' ``giftCooldownUntil``: the sender's cooldowns, as the gifts' part of the rows of the
    friends still on one (docs/reference/friends-and-presence.md#gift-cooldown-on-friend-rows)."""
    return {pid: api.GiftRow(until) for pid, until in cooldowns(tx, game, sender, now).items()}
