"""Wire models: request bodies and the objects inside ``data`` of responses.

snake_case here, camelCase on the wire (see :mod:`livecore.api.convert`). Field names and shapes follow
SPEC 2 and DECISIONS 2 and 7 exactly; fields beyond those are additive (SPEC 9 rule 2).
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.games import ResourceType
from livecore.grants import AckedBy, Entry, Grant, GrantKind, GrantStatus, effective_status
from livecore.identity import Identity
from livecore.players import Player

# --- Shared shapes --------------------------------------------------------------------------------


@attrs.frozen
class IdentityView:
    """``{name, avatar, country}`` (SPEC 2.2)."""

    name: str
    avatar: str | None
    country: str | None

    @classmethod
    def of(cls, identity: Identity, country: str | None) -> IdentityView:
        return cls(name=identity.name, avatar=identity.avatar, country=country)


def display_view(player: Player) -> IdentityView:
    """DECISIONS 7: always an object, the anonymized value when never set."""
    return IdentityView.of(player.display or player.anonymized, player.country)


def anonymized_view(player: Player) -> IdentityView:
    return IdentityView.of(player.anonymized, player.country)


# --- Admin ----------------------------------------------------------------------------------------


@attrs.frozen
class HealthResponse:
    status: str
    version: str
    time: datetime


# --- Server: ping and dev clock -------------------------------------------------------------------


@attrs.frozen
class ServerPingResponse:
    ok: bool
    studio_id: str
    game_id: str
    environment: str
    key_prefix: str
    time: datetime


@attrs.frozen
class ClockAdvanceRequest:
    seconds: float


@attrs.frozen
class ClockAdvanceResponse:
    now: datetime


# --- Players: register and identity ---------------------------------------------------------------


@attrs.frozen
class RegisterRequest:
    """Optional body of register. ``playerContext.country`` overrides the geo-resolved country."""

    player_context: dict[str, Any] | None = None


@attrs.frozen
class RegisterQuery:
    force: bool = False


@attrs.frozen
class RegisterResponse:
    player_id: str
    external_player_id: str
    player_secret: str
    country: str | None
    synthetic_identity: IdentityView
    display_identity: IdentityView
    anonymized_identity: IdentityView


@attrs.frozen
class SetIdentityRequest:
    name: str
    avatar: str | None = None


@attrs.frozen
class IdentityResponse:
    display_identity: IdentityView


# --- Economy and grants ---------------------------------------------------------------------------


class GrantSourceKind(enum.StrEnum):
    """What a server grant request may name (SPEC 2.13); other source kinds come from features."""

    API = "api"
    ADMIN = "admin"


@attrs.frozen
class RewardEntry:
    """DECISIONS 7: ``{type, key, amount, parameters?}``; ``parameters`` only for items."""

    type: ResourceType
    key: str
    amount: int
    parameters: dict[str, Any] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    def to_entry(self) -> Entry:
        return Entry(type=self.type, key=self.key, amount=self.amount, parameters=self.parameters)

    @classmethod
    def of(cls, entry: Entry) -> RewardEntry:
        return cls(type=entry.type, key=entry.key, amount=entry.amount, parameters=entry.parameters)


@attrs.frozen
class GrantView:
    """DECISIONS 7 grant record."""

    grant_id: str
    external_player_id: str
    kind: GrantKind
    status: GrantStatus
    entries: list[RewardEntry]
    source_kind: str
    source_ref_id: str | None
    metadata: dict[str, Any]
    created_at: datetime
    claimed_at: datetime | None
    expires_at: datetime | None
    acked_by: AckedBy | None

    @classmethod
    def of(cls, g: Grant, now: datetime | None = None) -> GrantView:
        return cls(
            grant_id=g.id,
            external_player_id=g.external_player_id,
            kind=g.kind,
            status=effective_status(g, now) if now is not None else g.status,
            entries=[RewardEntry.of(e) for e in g.entries],
            source_kind=g.source_kind,
            source_ref_id=g.source_ref_id,
            metadata=g.metadata,
            created_at=g.created_at,
            claimed_at=g.claimed_at,
            expires_at=g.expires_at,
            acked_by=g.acked_by,
        )


@attrs.frozen
class CreateGrantRequest:
    idempotency_key: str
    entries: list[RewardEntry]
    kind: GrantKind = GrantKind.REWARD
    expires_at: datetime | None = None
    source_kind: GrantSourceKind = GrantSourceKind.API
    source_ref_id: str | None = None
    metadata: dict[str, Any] | None = None


@attrs.frozen
class GrantResponse:
    grant: GrantView


@attrs.frozen
class GrantListResponse:
    grants: list[GrantView]


@attrs.frozen
class CurrencyBalance:
    key: str
    balance: int


@attrs.frozen
class WalletResponse:
    currencies: list[CurrencyBalance]


@attrs.frozen
class ItemHolding:
    key: str
    quantity: int
    parameters: dict[str, Any]
    # True for the read-only system progression items ``sessions`` and ``login_streak``.
    system: bool = False


@attrs.frozen
class InventoryResponse:
    items: list[ItemHolding]


@attrs.frozen
class AdjustWalletRequest:
    """Wallet credit/debit (SPEC 2.14). ``reason`` is free text recorded on the ledger entry."""

    amount: int
    reason: str | None = None
    source_ref_id: str | None = None
    idempotency_key: str | None = None


@attrs.frozen
class AdjustItemRequest:
    """Inventory grant/revoke/consume (SPEC 2.14); ``parameters`` only when granting."""

    quantity: int
    reason: str | None = None
    source_ref_id: str | None = None
    idempotency_key: str | None = None
    parameters: dict[str, Any] | None = None


@attrs.frozen
class WalletAdjustResponse:
    key: str
    balance: int
    delta: int
    entry_id: str


@attrs.frozen
class ItemAdjustResponse:
    key: str
    quantity: int
    delta: int
    parameters: dict[str, Any]
    entry_id: str


# --- Errors (OpenAPI only: the server renders the envelope directly) ------------------------------


@attrs.frozen
class ErrorBody:
    code: str
    message: str
    details: dict[str, Any] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class ErrorEnvelope:
    error: ErrorBody
