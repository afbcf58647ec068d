"""Grant commands: create (server), claim (client), ack (server), the expiry sweep."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from livecore.commands import Runtime, emit
from livecore.commands.actor import check_actor, player_write
from livecore.economy.commands import change
from livecore.economy.rules import Reason, resource
from livecore.errors import ErrorCode, LivecoreError
from livecore.gifts.rules import GIFT_SOURCE_KIND, Gift, GiftStatus, check_claim, claimed
from livecore.gifts.webhooks import GiftClaimed
from livecore.grants.rules import (
    Grant,
    GrantEntry,
    GrantKind,
    GrantStatus,
    GrantTrigger,
    transition,
    validate_entries,
    validate_expiry,
)
from livecore.grants.webhooks import GrantClaimed, GrantCreated, GrantExpired
from livecore.ids import new_uuid
from livecore.limits import FREE_FORM, FREE_TEXT
from livecore.players.commands import first_contact, load_game
from livecore.players.rules import Player
from livecore.scope import SYSTEM, Environment, Scope
from livecore.store import HasGames, HasGifts, HasGrants, HasLedger, HasOutbox, HasPlayers


class GrantsTx(HasGames, HasPlayers, HasLedger, HasGrants, HasGifts, HasOutbox, Protocol):
    """The ports these commands use."""


SWEEP_BATCH = 500


def create_grant(
    tx: GrantsTx,
    rt: Runtime,
    scope: Scope,
    external_id: str,
    *,
    kind: GrantKind,
    entries: list[GrantEntry],
    expires_at: datetime | None,
    source_kind: str,
    source_ref_id: str | None,
    metadata: dict[str, Any] | None,
) -> Grant:
    """A pending grant for the player, created on first contact if needed; fires ``grant.created``."""
    game = load_game(tx, scope)
    checked = validate_entries(game, kind, entries)
    validate_expiry(expires_at, rt.clock.now())
    FREE_TEXT.check_optional(source_ref_id, "sourceRefId")
    FREE_FORM.check(metadata, "metadata")
    player = first_contact(tx, rt, scope, external_id)
    return issue_grant(
        tx,
        rt,
        scope,
        player,
        kind=kind,
        entries=checked,
        expires_at=expires_at,
        source_kind=source_kind,
        source_ref_id=source_ref_id,
        metadata=metadata,
    )


def issue_grant(
    tx: GrantsTx,
    rt: Runtime,
    scope: Scope,
    player: Player,
    *,
    kind: GrantKind,
    entries: tuple[GrantEntry, ...],
    expires_at: datetime | None,
    source_kind: str,
    source_ref_id: str | None,
    metadata: dict[str, Any] | None = None,
    grant_id: str | None = None,
) -> Grant:
    """Insert a pending grant of already-checked entries and fire ``grant.created``."""
    now = rt.clock.now()
    grant = Grant(
        id=grant_id or new_uuid(now, rt.rng),
        player_id=player.id,
        external_player_id=player.external_id,
        game_id=player.game_id,
        kind=kind,
        status=GrantStatus.PENDING,
        entries=entries,
        source_kind=source_kind,
        source_ref_id=source_ref_id,
        metadata=dict(metadata or {}),
        created_at=now,
        expires_at=expires_at,
    )
    tx.grants.insert(grant)
    emit(tx, rt, scope, GrantCreated.of(grant))
    return grant


def get_grant(tx: GrantsTx, scope: Scope, player: Player, grant_id: str) -> Grant:
    grant = tx.grants.get(scope.game_id, grant_id)
    if grant is None or grant.player_id != player.id:
        raise LivecoreError(ErrorCode.GRANT_NOT_FOUND, "Grant not found.", {"grantId": grant_id})
    return grant


def settle(
    tx: GrantsTx, rt: Runtime, scope: Scope, player: Player, grant_id: str, trigger: GrantTrigger
) -> Grant:
    """Claim, ack or force-claim: the grant becomes claimed, its entries are credited and
    ``grant.claimed`` fires, once; repeating an ack answers the grant unchanged. A crate grant is
    refused (409 ``crate_must_be_opened``): :func:`livecore.crates.commands.open_crate` claims it.

    A gift's grant is the gift: a client claim of it runs the gift's claim rule (410 ``gift_expired``,
    409 ``gift_already_claimed``), and whatever claims the grant claims the gift with it
    (``gift.claimed`` fires before ``grant.claimed``)."""
    grant = get_grant(tx, scope, player, grant_id)
    gift = (
        tx.gifts.get(grant.game_id, grant.source_ref_id or "")
        if grant.source_kind == GIFT_SOURCE_KIND
        else None
    )
    return settle_loaded(tx, rt, scope, player, grant, gift, trigger)[0]


@player_write("player")
def claim(tx: GrantsTx, rt: Runtime, scope: Scope, player: Player, grant_id: str) -> Grant:
    """The player claims one of its grants (the client's claim): :func:`settle` with the claim trigger,
    its ban refused before the grant is looked up."""
    return settle(tx, rt, scope, player, grant_id, GrantTrigger.CLAIM)


def settle_loaded(
    tx: GrantsTx,
    rt: Runtime,
    scope: Scope,
    player: Player,
    grant: Grant,
    gift: Gift | None,
    trigger: GrantTrigger,
) -> tuple[Grant, Gift | None]:
    """:func:`settle` of a grant (and the gift it delivers, if any) already read; returns both after."""
    if trigger is GrantTrigger.CLAIM:
        check_actor(player)  # a claim is the player's own write, however it was reached
    now = rt.clock.now()
    if gift is not None and trigger is GrantTrigger.CLAIM:
        check_claim(gift, now)
    settled, changed = transition(grant, trigger, now)
    if not changed:
        return settled, gift
    game = load_game(tx, scope)
    for entry in settled.rewards:
        change(
            tx,
            rt,
            scope,
            game,
            player,
            resource(game, entry.key, entry.type),
            entry.amount,
            Reason.GRANT,
            source_ref_id=settled.id,
            parameters=entry.parameters,
        )
    tx.grants.update(settled)
    if gift is not None and gift.status is not GiftStatus.CLAIMED:
        gift = claimed(gift, now)
        tx.gifts.update(gift)
        emit(tx, rt, scope, GiftClaimed.of(gift))
    emit(tx, rt, scope, GrantClaimed.of(settled))
    return settled, gift


def expire_grants(tx: GrantsTx, rt: Runtime) -> int:
    """The expiry sweep: pending grants past ``expiresAt`` become expired; ``grant.expired`` is
    worker-driven and fires live (docs/reference/grants.md)."""
    now = rt.clock.now()
    due = tx.grants.past_expiry(now, SWEEP_BATCH)
    for grant in due:
        expired, _ = transition(grant, GrantTrigger.EXPIRE, now)
        tx.grants.update(expired)
        game = tx.games.get(grant.game_id)
        studio_id = game.studio_id if game is not None else ""
        scope = Scope(studio_id=studio_id, game_id=grant.game_id, env=Environment.LIVE, actor=SYSTEM)
        emit(tx, rt, scope, GrantExpired.of(expired))
    return len(due)


__all__ = ["claim", "create_grant", "expire_grants", "get_grant", "issue_grant", "settle", "settle_loaded"]
