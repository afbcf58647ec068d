"""Reward grants (docs/reference/grants.md#lifecycle).

States, as a transition table: a grant is created ``pending``; a client claim, a server ack or an
operator force-claim makes it ``claimed``; the expiry sweep makes a pending grant past ``expiresAt``
``expired``. Claiming credits every entry to the player's ledger (in a studio-managed game this is the
platform's record of what it granted; the studio credits its own balances from ``grant.claimed``).

Refusals: claiming a claimed grant is 409 ``grant_already_claimed``; an expired one (or one past its
``expiresAt`` that the sweep has not reached yet) is 409 ``grant_expired``; a server ack of a grant that
is already claimed answers the grant as it is (acks are idempotent). An operator force-claim takes any
status to claimed.

Entries: ``{type, key, amount, parameters?}``; the key must be a resource of that type in the game,
``amount`` 1 or more, ``parameters`` only on items, never a system item.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

import attrs

from livecore.economy import check_amount, resource
from livecore.errors import ErrorCode, LivecoreError, invalid_request
from livecore.games import Entry, Game, ResourceType
from livecore.limits import FREE_FORM, Count

ENTRIES = Count(min_items=1, max_items=100)


class GrantStatus(enum.StrEnum):
    PENDING = "pending"
    CLAIMED = "claimed"
    EXPIRED = "expired"


class GrantTrigger(enum.Enum):
    CLAIM = "claim"  # client claim
    ACK = "ack"  # server acknowledgement
    FORCE_CLAIM = "force_claim"  # operator override
    EXPIRE = "expire"  # the sweep


class GrantKind(enum.StrEnum):
    REWARD = "reward"
    CRATE = "crate"


class AckedBy(enum.StrEnum):
    CLIENT = "client"
    SERVER_API = "server_api"
    OPERATOR = "operator"


@attrs.frozen
class Grant:
    id: str
    player_id: str
    external_player_id: str
    game_id: str
    kind: GrantKind
    status: GrantStatus
    entries: tuple[Entry, ...]
    source_kind: str
    source_ref_id: str | None
    metadata: dict[str, Any]
    created_at: datetime
    expires_at: datetime | None = None
    claimed_at: datetime | None = None
    acked_by: AckedBy | None = None


# (status, trigger) -> next status. A missing pair is a refusal (see ``_refusal``); an ack of a claimed
# grant is allowed and changes nothing.
TRANSITIONS: dict[tuple[GrantStatus, GrantTrigger], GrantStatus] = {
    (GrantStatus.PENDING, GrantTrigger.CLAIM): GrantStatus.CLAIMED,
    (GrantStatus.PENDING, GrantTrigger.ACK): GrantStatus.CLAIMED,
    (GrantStatus.CLAIMED, GrantTrigger.ACK): GrantStatus.CLAIMED,
    (GrantStatus.PENDING, GrantTrigger.FORCE_CLAIM): GrantStatus.CLAIMED,
    (GrantStatus.EXPIRED, GrantTrigger.FORCE_CLAIM): GrantStatus.CLAIMED,
    (GrantStatus.CLAIMED, GrantTrigger.FORCE_CLAIM): GrantStatus.CLAIMED,
    (GrantStatus.PENDING, GrantTrigger.EXPIRE): GrantStatus.EXPIRED,
}

_ACKED_BY = {
    GrantTrigger.CLAIM: AckedBy.CLIENT,
    GrantTrigger.ACK: AckedBy.SERVER_API,
    GrantTrigger.FORCE_CLAIM: AckedBy.OPERATOR,
}


def effective_status(grant: Grant, now: datetime) -> GrantStatus:
    """A pending grant past its expiry is expired even before the sweep marks it."""
    if grant.status is GrantStatus.PENDING and grant.expires_at is not None and now >= grant.expires_at:
        return GrantStatus.EXPIRED
    return grant.status


def _refusal(status: GrantStatus) -> LivecoreError:
    if status is GrantStatus.CLAIMED:
        return LivecoreError(ErrorCode.GRANT_ALREADY_CLAIMED, "This grant was already claimed.")
    return LivecoreError(ErrorCode.GRANT_EXPIRED, "This grant expired before it was claimed.")


def transition(grant: Grant, trigger: GrantTrigger, now: datetime) -> tuple[Grant, bool]:
    """The grant after ``trigger`` and whether it changed state (credit and webhook only then)."""
    status = effective_status(grant, now) if trigger is not GrantTrigger.EXPIRE else grant.status
    nxt = TRANSITIONS.get((status, trigger))
    if nxt is None:
        raise _refusal(status)
    if nxt is grant.status and status is grant.status:
        return grant, False
    if nxt is GrantStatus.CLAIMED:
        return attrs.evolve(grant, status=nxt, claimed_at=now, acked_by=_ACKED_BY[trigger]), True
    return attrs.evolve(grant, status=nxt), True


def validate_entries(game: Game, entries: list[Entry]) -> tuple[Entry, ...]:
    ENTRIES.check(entries, "entries")
    for i, entry in enumerate(entries):
        try:
            resource(game, entry.key, entry.type)
            check_amount(entry.amount, f"entries[{i}].amount")
        except LivecoreError as exc:
            if exc.details is not None and "resourceKey" in exc.details:
                exc.details = {**exc.details, "entry": i}
            raise
        if entry.parameters is not None and entry.type is not ResourceType.ITEM:
            raise invalid_request(
                "Only item entries carry parameters.", {f"entries[{i}].parameters": "items only"}
            )
        FREE_FORM.check(entry.parameters, f"entries[{i}].parameters")
    return tuple(entries)


def validate_expiry(expires_at: datetime | None, now: datetime) -> datetime | None:
    if expires_at is not None and expires_at <= now:
        raise invalid_request("expiresAt must be in the future.", {"expiresAt": "must be in the future"})
    return expires_at


def entry_payload(entry: Entry) -> dict[str, Any]:
    out: dict[str, Any] = {"type": entry.type.value, "key": entry.key, "amount": entry.amount}
    if entry.parameters is not None:
        out["parameters"] = entry.parameters
    return out
