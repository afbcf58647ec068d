"""Reward grants (docs/reference/grants.md#lifecycle).

States, as a transition table: a grant is created ``pending``; a client claim, a server ack or an
operator force-claim makes it ``claimed``; the expiry sweep makes a pending grant past ``expiresAt``
``expired``. Claiming credits every entry to the player's ledger (in a studio-managed game this is the
platform's record of what it granted; the studio credits its own balances from ``grant.claimed``).

A crate grant (kind ``crate``, :mod:`livecore.crates.rules`) is claimed only by opening it, which draws its
contents into a second grant claimed at once; a reward grant cannot be opened.

Refusals, in this order: the wrong kind for the trigger (a claim or ack of a crate grant is 409
``crate_must_be_opened``, opening a reward grant 409 ``not_a_crate``); then claiming or opening a claimed
grant is 409 ``grant_already_claimed``, an expired one (or one past its ``expiresAt`` that the sweep has
not reached yet) 409 ``grant_expired``. A server ack of a grant that is already claimed answers the grant
as it is (acks are idempotent). An operator force-claim takes any status of a reward grant to claimed.

Entries: a reward grant's are ``{type, key, amount, parameters?}``; the key must be a resource of that
type in the game, ``amount`` 1 or more, ``parameters`` only on items, never a system item. A crate
grant's are crate entries ``{type: "crate", key, amount}``
(:func:`livecore.crates.rules.check_crate_entries`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from datetime import datetime
from typing import Any

import attrs
import cattrs

from livecore.api.convert import converter, response_converter
from livecore.crates.rules import CrateEntry, check_crate_entries
from livecore.economy.rules import check_amount, resource
from livecore.errors import ErrorCode, LivecoreError, invalid_request
from livecore.games import Entry, Game, ResourceType
from livecore.limits import FREE_FORM, Count

ENTRIES = Count(min_items=1, max_items=100)
#: The most pending grants a player's list shows, oldest first.
PENDING_LIMIT = 200

GrantEntry = Entry | CrateEntry
"""One entry of a grant: a reward (a reward grant's) or crates (a crate grant's)."""


def _structure_entry(converter: cattrs.Converter) -> Callable[[Any, Any], GrantEntry]:
    def structure(value: Any, _: Any) -> GrantEntry:
        crate = isinstance(value, dict) and value.get("type") == "crate"
        if crate:
            return converter.structure(value, CrateEntry)
        return converter.structure(value, Entry)

    return structure


# The wire converters read a grant entry by its ``type`` (a webhook's, when a client reads it back).
for _converter in (converter, response_converter):
    _converter.register_structure_hook_func(lambda t: t == GrantEntry, _structure_entry(_converter))


class EntryType(enum.StrEnum):
    """What a grant entry gives: a resource of one type, or crates to open."""

    CURRENCY = "currency"
    ITEM = "item"
    CRATE = "crate"


class GrantStatus(enum.StrEnum):
    PENDING = "pending"
    CLAIMED = "claimed"
    EXPIRED = "expired"


class GrantTrigger(enum.Enum):
    CLAIM = "claim"  # client claim
    ACK = "ack"  # server acknowledgement
    FORCE_CLAIM = "force_claim"  # operator override
    EXPIRE = "expire"  # the sweep
    OPEN = "open"  # the player opens a crate grant


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
    entries: tuple[GrantEntry, ...]  # crate entries in a crate grant, rewards in any other
    source_kind: str
    source_ref_id: str | None
    metadata: dict[str, Any]
    created_at: datetime
    expires_at: datetime | None = None
    claimed_at: datetime | None = None
    acked_by: AckedBy | None = None

    @property
    def rewards(self) -> tuple[Entry, ...]:
        """What claiming the grant credits: a reward grant's entries; a crate grant has none (opening it
        draws them)."""
        return tuple(e for e in self.entries if isinstance(e, Entry))


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
    (GrantStatus.PENDING, GrantTrigger.OPEN): GrantStatus.CLAIMED,
}

# The triggers each kind of grant accepts; any other is refused before its status is looked at.
TRIGGERS: dict[GrantKind, frozenset[GrantTrigger]] = {
    GrantKind.REWARD: frozenset(GrantTrigger) - {GrantTrigger.OPEN},
    GrantKind.CRATE: frozenset({GrantTrigger.OPEN, GrantTrigger.EXPIRE}),
}

_ACKED_BY = {
    GrantTrigger.CLAIM: AckedBy.CLIENT,
    GrantTrigger.OPEN: AckedBy.CLIENT,
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


def _wrong_kind(grant: Grant) -> LivecoreError:
    if grant.kind is GrantKind.CRATE:
        return LivecoreError(
            ErrorCode.CRATE_MUST_BE_OPENED, "A crate grant is claimed by opening it.", {"grantId": grant.id}
        )
    return LivecoreError(ErrorCode.NOT_A_CRATE, "This grant is not a crate.", {"grantId": grant.id})


def transition(grant: Grant, trigger: GrantTrigger, now: datetime) -> tuple[Grant, bool]:
    """The grant after ``trigger`` and whether it changed state (credit and webhook only then)."""
    if trigger not in TRIGGERS[grant.kind]:
        raise _wrong_kind(grant)
    status = effective_status(grant, now) if trigger is not GrantTrigger.EXPIRE else grant.status
    nxt = TRANSITIONS.get((status, trigger))
    if nxt is None:
        raise _refusal(status)
    if nxt is grant.status and status is grant.status:
        return grant, False
    if nxt is GrantStatus.CLAIMED:
        return attrs.evolve(grant, status=nxt, claimed_at=now, acked_by=_ACKED_BY[trigger]), True
    return attrs.evolve(grant, status=nxt), True


def validate_entries(game: Game, kind: GrantKind, entries: list[GrantEntry]) -> tuple[GrantEntry, ...]:
    """The entries of a new grant of ``kind``: crate entries in a crate grant, rewards in any other."""
    ENTRIES.check(entries, "entries")
    wanted = CrateEntry if kind is GrantKind.CRATE else Entry
    for i, any_entry in enumerate(entries):
        if not isinstance(any_entry, wanted):
            held = "crate entries" if kind is GrantKind.CRATE else "currency and item entries"
            raise invalid_request(f"A {kind} grant holds {held}.", {f"entries[{i}].type": f"{held} only"})
    if kind is GrantKind.CRATE:
        return check_crate_entries(game, [e for e in entries if isinstance(e, CrateEntry)])
    rewards = [e for e in entries if isinstance(e, Entry)]
    for i, entry in enumerate(rewards):
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
    return tuple(rewards)


def validate_expiry(expires_at: datetime | None, now: datetime) -> datetime | None:
    if expires_at is not None and expires_at <= now:
        raise invalid_request("expiresAt must be in the future.", {"expiresAt": "must be in the future"})
    return expires_at


def entry_payload(entry: GrantEntry) -> dict[str, Any]:
    if isinstance(entry, CrateEntry):
        return {"type": entry.type, "key": entry.key, "amount": entry.amount}
    out: dict[str, Any] = {"type": entry.type.value, "key": entry.key, "amount": entry.amount}
    if entry.parameters is not None:
        out["parameters"] = entry.parameters
    return out
