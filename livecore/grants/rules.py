"""Reward grants (docs/reference/grants.md#lifecycle).

States, as a transition table: a grant is created ``pending``; a client claim, a server ack or an
operator force-claim makes it ``claimed``; the expiry sweep makes a pending grant past ``expiresAt``
``expired``. Claiming credits every entry to the player's ledger (in a studio-managed game this is the
platform's record of what it granted; the studio credits its own balances from ``grant.claimed``).

Kinds: a grant of kind ``reward`` holds rewards. An area that builds on grants adds a kind of its own
(:class:`Kind`, declared with :func:`grant_kind`: the crates area's ``crate``, claimed only by opening
it): the kind's value, the entries its grants hold and their check, the triggers that settle or end it and
the refusal of any other.

Refusals, in this order: the wrong kind for the trigger (the refusal its kind declares); then claiming a
claimed grant is 409 ``grant_already_claimed``, an expired one (or one past its ``expiresAt`` that the
sweep has not reached yet) 409 ``grant_expired``. A server ack of a grant that is already claimed answers
the grant as it is (acks are idempotent). An operator force-claim takes any status of a reward grant to
claimed.

Entries: a reward grant's are ``{type, key, amount, parameters?}``; the key must be a resource of that
type in the game, ``amount`` 1 or more, ``parameters`` only on items, never a system item. A registered
kind's grant holds its own entries ``{type, key, amount}``, checked by the kind.
"""

from __future__ import annotations

import builtins
import enum
import json
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

import attrs
import cattrs

from livecore.api.convert import converter, response_converter
from livecore.contributions import Contribution, Point, served
from livecore.economy.rules import check_amount, resource
from livecore.enums import VALUES, Value, Values
from livecore.errors import LivecoreError, invalid_request
from livecore.games import Entry, Game, ResourceType
from livecore.grants.errors import GRANT_ALREADY_CLAIMED, GRANT_EXPIRED
from livecore.limits import FREE_FORM, Count

ENTRIES = Count(min_items=1, max_items=100)
#: The most pending grants a player's list shows, oldest first.
PENDING_LIMIT = 200


@attrs.frozen
class KindEntry:
    """One entry of a grant of a registered kind: ``amount`` of ``key``, of the entry ``type`` the kind
    names (its class narrows ``type`` to that value)."""

    key: str
    amount: int
    type: str

    @classmethod
    def registered_records(cls) -> tuple[builtins.type[KindEntry], ...]:  # ``type`` is the field here
        """The entry classes of the served areas' kinds (:func:`grant_kind`), by their ``type``: what the
        documents show for a kind's entry, rather than this base."""
        entries = _entries()
        return tuple(entries[entry_type] for entry_type in sorted(entries))


GrantEntry = Entry | KindEntry
"""One entry of a grant: a reward (a reward grant's) or a registered kind's entry."""


class EntryType(Values):
    """What a grant entry gives: a resource of one type, or the entry type of an area's kind
    (:func:`grant_kind`)."""

    CURRENCY = Value("currency")
    ITEM = Value("item")


class GrantStatus(enum.StrEnum):
    PENDING = "pending"
    CLAIMED = "claimed"
    EXPIRED = "expired"


class GrantTrigger(enum.Enum):
    CLAIM = "claim"  # client claim
    ACK = "ack"  # server acknowledgement
    FORCE_CLAIM = "force_claim"  # operator override
    EXPIRE = "expire"  # the sweep
    OPEN = "open"  # the player opens a grant of a kind that is opened rather than claimed


class GrantKind(Values):
    """A grant's kind: ``reward``, and the kinds the areas building on grants declare (:func:`grant_kind`)."""

    REWARD = Value("reward")


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
    entries: tuple[GrantEntry, ...]  # a registered kind's entries in its grants, rewards in a reward grant
    source_kind: str
    source_ref_id: str | None
    metadata: dict[str, Any]
    created_at: datetime
    expires_at: datetime | None = None
    claimed_at: datetime | None = None
    acked_by: AckedBy | None = None

    @property
    def rewards(self) -> tuple[Entry, ...]:
        """What claiming the grant credits: a reward grant's entries; a registered kind's grant has none."""
        return tuple(e for e in self.entries if isinstance(e, Entry))


@attrs.frozen
class GrantWaits:
    """A player's grants of one kind made in a period, in aggregate (:mod:`livecore.simulation.fitting`):
    how many were ``made``; how many ``taken`` (claimed, a crate opened) before the period's end, of
    which ``at_once`` at the instant they were made; and the days they waited, summed: each from its making
    to when it was taken, expired or the period ended, whichever came first."""

    made: int
    taken: int
    at_once: int
    waited_days: float


def latest_entries(
    found: Iterable[tuple[str, datetime, tuple[GrantEntry, ...]]],
) -> dict[str, tuple[GrantEntry, ...]]:
    """Source reference -> the entries of its latest grant, from ``(source_ref_id, made at, entries)``
    (:meth:`~livecore.grants.store.GrantStore.latest`); of grants made at the same instant, the one whose
    entries come last as JSON with sorted keys, so every store picks the same."""
    best: dict[str, tuple[datetime, str, tuple[GrantEntry, ...]]] = {}
    for source, at, entries in found:
        order = json.dumps([entry_payload(e) for e in entries], sort_keys=True)
        if source not in best or (at, order) > best[source][:2]:
            best[source] = (at, order, entries)
    return {source: entries for source, (_, _, entries) in sorted(best.items())}


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


@attrs.frozen
class Kind:
    """A kind of grant: ``reward``, or an area's (:func:`grant_kind`)."""

    kind: GrantKind
    #: The entries its grants hold, and their check as a grant is created (``(game, entries) -> entries``).
    entry: type[Entry] | type[KindEntry]
    check: Callable[[Game, Sequence[Any]], tuple[GrantEntry, ...]]
    #: How its grants' entries are named in a refusal (``"crate entries"``).
    holds: str
    #: The triggers it accepts; any other is refused with ``refusal(grant)`` before its status is looked at.
    triggers: frozenset[GrantTrigger]
    refusal: Callable[[Grant], LivecoreError]
    #: A trigger only its grants take (opening), with the refusal of it on a grant of another kind.
    own_trigger: tuple[GrantTrigger, Callable[[Grant], LivecoreError]] | None = None

    @property
    def entry_type(self) -> str:
        """The ``type`` its entries name on the wire."""
        return str(attrs.fields(self.entry).type.default)


def _check_rewards(game: Game, rewards: Sequence[Entry]) -> tuple[GrantEntry, ...]:
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


REWARD_KIND = Kind(
    kind=GrantKind.REWARD,
    entry=Entry,
    check=_check_rewards,
    holds="currency and item entries",
    # Opening is the trigger of a kind that is opened instead of claimed (an area's :attr:`Kind.own_trigger`).
    triggers=frozenset(GrantTrigger) - {GrantTrigger.OPEN},
    refusal=lambda grant: _foreign(grant, GrantTrigger.OPEN),
)

KINDS: Point[Kind] = Point("grants.kind")
"""The kinds of grant the areas building on grants add, declared with :func:`grant_kind`."""


def grant_kind(kind: Kind) -> tuple[Contribution[Any], ...]:
    """What an area declares to add the kind ``kind`` (``Area(contributes=grant_kind(...))``): the kind,
    and its value and its entries' type among the wire values (:class:`GrantKind`, :class:`EntryType`)."""
    return (KINDS(kind), VALUES(kind.kind), VALUES(EntryType.own(kind.entry_type)))


def _kinds() -> dict[GrantKind, Kind]:
    return {GrantKind.REWARD: REWARD_KIND, **{kind.kind: kind for kind in served().of(KINDS)}}


def _entries() -> dict[str, type[KindEntry]]:
    return {kind.entry_type: kind.entry for kind in served().of(KINDS) if issubclass(kind.entry, KindEntry)}


def _foreign(grant: Grant, trigger: GrantTrigger) -> LivecoreError:
    for kind in served().of(KINDS):
        if kind.own_trigger is not None and kind.own_trigger[0] is trigger:
            return kind.own_trigger[1](grant)
    # no served kind takes the trigger: no command gives it
    raise AssertionError(f"a {grant.kind} grant does not take {trigger}")


def kind_of(kind: GrantKind) -> Kind:
    """What the kind of grant ``kind`` holds and takes."""
    return _kinds()[kind]


def kind_entry(entry_type: str) -> type[KindEntry] | None:
    """The entry class of the served kind whose entries' ``type`` is ``entry_type``; None for a reward's."""
    if entry_type in _REWARD_TYPES:  # read without resolving the served areas (docs/client.md)
        return None
    return _entries().get(entry_type)


_REWARD_TYPES = frozenset(t.value for t in ResourceType)


def kind_holding(entry_type: str) -> GrantKind | None:
    """The kind of grant whose entries are of ``entry_type`` (a reward's for a resource type); None for
    a type no served kind holds."""
    if entry_type in _REWARD_TYPES:
        return GrantKind.REWARD
    return next((k.kind for k in served().of(KINDS) if k.entry_type == entry_type), None)


def _structure_entry(converter: cattrs.Converter) -> Callable[[Any, Any], GrantEntry]:
    def structure(value: Any, _: Any) -> GrantEntry:
        registered = kind_entry(str(value.get("type"))) if isinstance(value, dict) else None
        if registered is not None:
            return converter.structure(value, registered)
        return converter.structure(value, Entry)

    return structure


# The wire converters read a grant entry by its ``type`` (a webhook's, when a client reads it back).
for _converter in (converter, response_converter):
    _converter.register_structure_hook_func(lambda t: t == GrantEntry, _structure_entry(_converter))


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
        return LivecoreError(GRANT_ALREADY_CLAIMED, "This grant was already claimed.")
    return LivecoreError(GRANT_EXPIRED, "This grant expired before it was claimed.")


def transition(grant: Grant, trigger: GrantTrigger, now: datetime) -> tuple[Grant, bool]:
    """The grant after ``trigger`` and whether it changed state (credit and webhook only then)."""
    kind = kind_of(grant.kind)
    if trigger not in kind.triggers:
        raise kind.refusal(grant)
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
    """The entries of a new grant of ``kind``: the kind's own entries, checked by it."""
    ENTRIES.check(entries, "entries")
    rules = kind_of(kind)
    for i, any_entry in enumerate(entries):
        if not isinstance(any_entry, rules.entry):
            raise invalid_request(
                f"A {kind} grant holds {rules.holds}.", {f"entries[{i}].type": f"{rules.holds} only"}
            )
    return rules.check(game, entries)


def validate_expiry(expires_at: datetime | None, now: datetime) -> datetime | None:
    if expires_at is not None and expires_at <= now:
        raise invalid_request("expiresAt must be in the future.", {"expiresAt": "must be in the future"})
    return expires_at


def entry_payload(entry: GrantEntry) -> dict[str, Any]:
    if isinstance(entry, KindEntry):
        return {"type": entry.type, "key": entry.key, "amount": entry.amount}
    out: dict[str, Any] = {"type": entry.type.value, "key": entry.key, "amount": entry.amount}
    if entry.parameters is not None:
        out["parameters"] = entry.parameters
    return out
