"""Grants: reward grants waiting to be claimed, their entries, claim and acknowledgement."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.api.route import Auth, Idempotency, Route, Surface
from livecore.economy.errors import RESOURCE_NOT_FOUND, SYSTEM_RESOURCE_LOCKED
from livecore.errors import invalid_request
from livecore.games import Entry, ResourceType
from livecore.grants.errors import GRANT_ALREADY_CLAIMED, GRANT_EXPIRED, GRANT_NOT_FOUND
from livecore.grants.rules import (
    ENTRIES,
    AckedBy,
    EntryType,
    Grant,
    GrantEntry,
    GrantKind,
    GrantStatus,
    KindEntry,
    effective_status,
    kind_entry,
)
from livecore.idempotency import KEY
from livecore.limits import AMOUNT, FREE_FORM, FREE_TEXT, ID, limited
from livecore.players.errors import PLAYER_NOT_FOUND, PLAYER_SECRET_INVALID
from livecore.players.routes import PLAYER_WRITE_ERRORS


class GrantSourceKind(enum.StrEnum):
    """What a server grant request may name (docs/reference/grants.md); other source kinds come from
    features."""

    API = "api"
    ADMIN = "admin"


def _entry_type(value: str) -> EntryType:
    return EntryType(value)


@attrs.frozen
class RewardEntry:
    """A grant entry (docs/reference/grants.md#the-record): a reward ``{type, key, amount, parameters?}``,
    ``parameters`` only for items; or, in a grant of a registered kind, its entries ``{type, key, amount}``
    (crates ``{type: "crate", key, amount}``). ``type`` takes a :class:`~livecore.games.ResourceType` as
    well."""

    type: EntryType = attrs.field(converter=_entry_type)
    key: str = attrs.field(metadata=limited(ID))
    amount: int = attrs.field(metadata=limited(AMOUNT))
    parameters: dict[str, Any] | None = attrs.field(
        default=None, metadata={**limited(FREE_FORM), **OMIT_IF_NONE}
    )

    def to_entry(self, at: str = "parameters") -> GrantEntry:
        """The core's entry; ``at`` names this entry's ``parameters`` in an error."""
        registered = kind_entry(self.type)
        if registered is None:
            return Entry(
                type=ResourceType(self.type), key=self.key, amount=self.amount, parameters=self.parameters
            )
        if self.parameters is not None:
            raise invalid_request("Only item entries carry parameters.", {at: "items only"})
        return registered(key=self.key, amount=self.amount)  # type: ignore[call-arg]

    @classmethod
    def of(cls, entry: GrantEntry) -> RewardEntry:
        if isinstance(entry, KindEntry):
            return cls(type=EntryType(entry.type), key=entry.key, amount=entry.amount)
        return cls(type=entry.type, key=entry.key, amount=entry.amount, parameters=entry.parameters)


@attrs.frozen
class GrantView:
    """The grant record (docs/reference/grants.md#the-record)."""

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
    idempotency_key: str = attrs.field(metadata=limited(KEY))
    entries: list[RewardEntry] = attrs.field(metadata=limited(count=ENTRIES))
    kind: GrantKind = GrantKind.REWARD
    expires_at: datetime | None = None
    source_kind: GrantSourceKind = GrantSourceKind.API
    source_ref_id: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))
    metadata: dict[str, Any] | None = attrs.field(default=None, metadata=limited(FREE_FORM))


@attrs.frozen
class GrantResponse:
    grant: GrantView


@attrs.frozen
class GrantListResponse:
    grants: list[GrantView]


SDK_PENDING_GRANTS = Route(
    name="grants.pending",
    surface=Surface.SDK,
    method="GET",
    path="/players/{externalId}/pending-grants",
    summary="Grants waiting to be claimed, oldest first.",
    auth=Auth.PLAYER,
    response=GrantListResponse,
    errors=(PLAYER_SECRET_INVALID, PLAYER_NOT_FOUND),
)


SDK_CLAIM_GRANT = Route(
    name="grants.claim",
    surface=Surface.SDK,
    method="POST",
    path="/players/{externalId}/grants/{grantId}/claim",
    summary="Claim a pending grant: its entries are credited now.",
    auth=Auth.PLAYER,
    response=GrantResponse,
    idempotency=Idempotency.OPTIONAL,
    errors=(
        *PLAYER_WRITE_ERRORS,
        GRANT_NOT_FOUND,
        GRANT_ALREADY_CLAIMED,
        GRANT_EXPIRED,
        # And what the areas building on grants add (REFUSALS, read with refusals): a kind that
        # is not claimed, the claim rule of a record a grant delivers.
    ),
)


SERVER_CREATE_GRANT = Route(
    name="server.grants.create",
    surface=Surface.SERVER,
    method="POST",
    path="/players/{externalId}/grants",
    summary="Create a pending reward or crate grant (the player is created on first contact).",
    status=201,
    request=CreateGrantRequest,
    response=GrantResponse,
    idempotency=Idempotency.REQUIRED,
    body_idempotency_field=True,
    errors=(RESOURCE_NOT_FOUND, SYSTEM_RESOURCE_LOCKED, PLAYER_NOT_FOUND),
)


SERVER_ACK_GRANT = Route(
    name="server.grants.ack",
    surface=Surface.SERVER,
    method="POST",
    path="/players/{externalId}/grants/{grantId}/ack",
    summary="Mark a grant claimed by the studio backend (ackedBy=server_api); idempotent.",
    response=GrantResponse,
    idempotency=Idempotency.REQUIRED,
    errors=(
        PLAYER_NOT_FOUND,
        GRANT_NOT_FOUND,
        GRANT_EXPIRED,
        # And what the areas building on grants add (REFUSALS, read with refusals): a kind that
        # is not acknowledged.
    ),
)

ROUTES = (SDK_PENDING_GRANTS, SDK_CLAIM_GRANT, SERVER_CREATE_GRANT, SERVER_ACK_GRANT)
