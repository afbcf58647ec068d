"""Grant commands: create (server), claim (client), ack (server), the expiry sweep.

A grant may deliver another area's record (a gift's grant is the gift): that area registers, for the
grants' ``sourceKind`` it issues, how to read the record a grant delivers (:data:`DELIVERIES`), and
the record is settled with its grant (:class:`Delivery`); grants name no such area."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol, Self, TypeVar

import attrs

from livecore.commands import Runtime, emit
from livecore.contributions import Point
from livecore.economy.commands import change
from livecore.economy.rules import Reason, resource
from livecore.economy.store import HasLedger
from livecore.errors import LivecoreError
from livecore.grants.errors import GRANT_NOT_FOUND
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
from livecore.grants.store import HasGrants
from livecore.grants.webhooks import GrantClaimed, GrantCreated, GrantExpired
from livecore.ids import new_uuid
from livecore.limits import FREE_FORM, FREE_TEXT
from livecore.players.actor import check_actor
from livecore.players.commands import first_contact, load_game
from livecore.players.rules import Player
from livecore.players.store import HasPlayers
from livecore.scope import SYSTEM, Environment, Scope
from livecore.store.games import HasGames
from livecore.store.outbox import HasOutbox


class GrantsTx(HasGames, HasPlayers, HasLedger, HasGrants, HasOutbox, Protocol):
    """The ports these commands use."""


class Delivery(Protocol):
    """A record a grant delivers, settled with it (a gift, by the gifts area)."""

    def check_claim(self, now: datetime) -> None:
        """Refuses a client claim of the grant that the record's own rule refuses."""
        ...

    def settled(self, tx: Any, rt: Runtime, scope: Scope, now: datetime) -> Self:
        """The record once its grant is claimed, written and its webhook fired (after the grant's credit,
        before ``grant.claimed``); unchanged if it was settled before."""
        ...


D = TypeVar("D", bound=Delivery)
#: Reads the record a grant delivers, ``(tx, grant) -> record``; None when there is none.
DeliveryReader = Callable[[Any, "Grant"], Delivery | None]


@attrs.frozen
class Delivers:
    """The grants of ``source_kind`` deliver a record of the declaring area's, read by ``read`` when a grant
    of theirs is settled by id (:func:`settle`): ``DELIVERIES(Delivers(...))`` in its declaration."""

    source_kind: str
    read: DeliveryReader


DELIVERIES: Point[Delivers] = Point("grants.deliveries")


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
        raise LivecoreError(GRANT_NOT_FOUND, "Grant not found.", {"grantId": grant_id})
    return grant


def settle(
    tx: GrantsTx, rt: Runtime, scope: Scope, player: Player, grant_id: str, trigger: GrantTrigger
) -> Grant:
    """Claim, ack or force-claim: the grant becomes claimed, its entries are credited and
    ``grant.claimed`` fires, once; repeating an ack answers the grant unchanged. A grant of a kind that
    refuses the trigger is refused (its kind's refusal).

    A grant that delivers a record (:data:`DELIVERIES`) is settled with it: a client claim runs the
    record's claim rule, and whatever claims the grant settles the record (its webhook fires before
    ``grant.claimed``)."""
    grant = get_grant(tx, scope, player, grant_id)
    reader = next(
        (d.read for d in rt.contributions.of(DELIVERIES) if d.source_kind == grant.source_kind), None
    )
    delivery = reader(tx, grant) if reader is not None else None
    return settle_loaded(tx, rt, scope, player, grant, delivery, trigger)[0]


def claim(tx: GrantsTx, rt: Runtime, scope: Scope, player: Player, grant_id: str) -> Grant:
    """The player claims one of its grants (the client's claim): :func:`settle` with the claim trigger
    (its route refuses a banned player before this runs: livecore.players.actor)."""
    claimed = settle(tx, rt, scope, player, grant_id, GrantTrigger.CLAIM)
    if rt.checks.active:
        rt.checks.hook.after_claim_grant(tx=tx, rt=rt, scope=scope, player=player, grant=claimed)
    return claimed


def settle_loaded(
    tx: GrantsTx,
    rt: Runtime,
    scope: Scope,
    player: Player,
    grant: Grant,
    delivery: D | None,
    trigger: GrantTrigger,
) -> tuple[Grant, D | None]:
    """:func:`settle` of a grant (and the record it delivers, if any) already read; returns both after."""
    if trigger is GrantTrigger.CLAIM:
        check_actor(player)  # a claim is the player's own write, however it was reached
    now = rt.clock.now()
    if delivery is not None and trigger is GrantTrigger.CLAIM:
        delivery.check_claim(now)
    settled, changed = transition(grant, trigger, now)
    if not changed:
        return settled, delivery
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
    if delivery is not None:
        delivery = delivery.settled(tx, rt, scope, now)
    emit(tx, rt, scope, GrantClaimed.of(settled))
    return settled, delivery


# Later than any grant expires.
_END_OF_TIME = datetime(9999, 1, 1, tzinfo=UTC)


def next_grant_expiry(tx: GrantsTx) -> datetime | None:
    """When the pending grant that expires first expires (None: none expires): the expiry sweep has
    nothing to do before then."""
    first = tx.grants.past_expiry(_END_OF_TIME, 1)
    return first[0].expires_at if first else None


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


__all__ = [
    "DELIVERIES",
    "Delivers",
    "Delivery",
    "claim",
    "create_grant",
    "expire_grants",
    "get_grant",
    "issue_grant",
    "next_grant_expiry",
    "settle",
    "settle_loaded",
]
