"""The operators' ports: the audit log, the studio's members and their personal keys, the games' API keys,
webhook endpoints and deliveries, and the studios and games ``apply`` declared. Only a server keeps them
(``livecore_server.storage.sql``); its records are read here by the fields the operator routes show."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

import attrs

from livecore.economy.store import HasLedger
from livecore.events import DomainEvent
from livecore.friends.store import HasFriends
from livecore.grants.store import HasGrants
from livecore.live_events.store.attempts import HasAttempts
from livecore.live_events.store.boards import HasBoards
from livecore.live_events.store.windows import HasWindows
from livecore.lobbies.store import HasLobbies
from livecore.operators.rules import AuditEntry
from livecore.player_tools.store.erasures import HasErasures
from livecore.player_tools.store.merges import HasMerges
from livecore.players.store import HasPlayers
from livecore.purchases.store import HasPurchases
from livecore.roles import Role
from livecore.scope import Environment, Permission
from livecore.store.games import HasGames
from livecore.store.outbox import Outbox
from livecore.webhooks.delivery import Delivery, DeliveryStatus, Endpoint


@attrs.frozen
class AuditFilter:
    """What the log is narrowed to; every field is optional."""

    game_id: str | None = None
    action: str | None = None
    target: str | None = None
    member_id: str | None = None
    before_seq: int | None = None  # the keyset: entries older than this one


class AuditLog(Protocol):
    def insert(self, entry: AuditEntry) -> None: ...

    def page(self, studio_id: str, where: AuditFilter, limit: int) -> list[tuple[int, AuditEntry]]:
        """The studio's entries ``where`` says, newest first, each with its sequence number (the keyset)."""
        ...


class MemberRecord(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def studio_id(self) -> str: ...
    @property
    def key(self) -> str: ...
    @property
    def email(self) -> str: ...
    @property
    def role(self) -> Role: ...


class PersonalKeyRecord(Protocol):
    """A personal key as the portal lists it (never its secret)."""

    @property
    def id(self) -> str: ...
    @property
    def member_id(self) -> str: ...
    @property
    def prefix(self) -> str: ...
    @property
    def role(self) -> Role | None: ...
    @property
    def read_only(self) -> bool: ...
    @property
    def created_at_ms(self) -> int: ...
    @property
    def expires_at_ms(self) -> int: ...
    @property
    def revoked_at_ms(self) -> int | None: ...
    @property
    def last_used_at_ms(self) -> int | None: ...


@attrs.frozen
class NewPersonalKey:
    """A personal key being made (:meth:`Members.insert_key`)."""

    id: str
    member_id: str
    prefix: str
    role: Role | None
    read_only: bool
    created_at_ms: int
    expires_at_ms: int
    revoked_at_ms: int | None = None
    last_used_at_ms: int | None = None


class Members(Protocol):
    def get(self, member_id: str) -> MemberRecord | None: ...

    def of_studio(self, studio_id: str) -> Sequence[MemberRecord]: ...

    def key(self, key_id: str) -> PersonalKeyRecord | None: ...

    def keys_of_studio(self, studio_id: str) -> Sequence[tuple[PersonalKeyRecord, MemberRecord]]: ...

    def insert_key(self, key: NewPersonalKey, secret_hash: str) -> None:
        """A member's new key; the key it had before is revoked (one per member)."""
        ...

    def revoke_key(self, key_id: str, now_ms: int) -> bool: ...


class ApiKeyRecord(Protocol):
    """An API key as operators list it (never its secret); times in milliseconds."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def env(self) -> Environment: ...
    @property
    def permission(self) -> Permission: ...
    @property
    def prefix(self) -> str: ...
    @property
    def created_at(self) -> int: ...
    @property
    def revoked_at(self) -> int | None: ...
    @property
    def retires_at(self) -> int | None: ...
    @property
    def last_used_at(self) -> int | None: ...
    @property
    def last_operation(self) -> str | None: ...


class ActiveApiKey(Protocol):
    """A game's active key of a name, as a rotation reads it."""

    @property
    def id(self) -> str: ...
    @property
    def env(self) -> Environment: ...
    @property
    def permission(self) -> Permission: ...
    @property
    def rate_limits(self) -> str: ...  # JSON text, as stored


class ApiKeys(Protocol):
    def active(self, game_id: str, name: str) -> ActiveApiKey | None:
        """The game's active key of that name: not revoked, not rotated."""
        ...

    def insert(
        self,
        key_id: str,
        game_id: str,
        name: str,
        env: Environment,
        permission: Permission,
        secret_hash: str,
        prefix: str,
        rate_limits: str,
        now_ms: int,
    ) -> None: ...

    def retire(self, key_id: str, retires_at_ms: int) -> None:
        """The key was rotated: it works until ``retires_at_ms``, and a successor is the active key."""
        ...

    def of_game(self, game_id: str) -> Sequence[ApiKeyRecord]: ...

    def listing(self, game_id: str, key_id: str) -> ApiKeyRecord | None: ...

    def revoke(self, key_id: str, now_ms: int) -> None: ...


class Webhooks(Protocol):
    def endpoints_of_game(self, game_id: str) -> list[Endpoint]: ...

    def get_endpoint(self, endpoint_id: str, *, lock: bool = False) -> Endpoint | None: ...

    def get_delivery(self, delivery_id: str, *, lock: bool = False) -> Delivery | None: ...

    def insert_delivery_like(self, source_id: str, delivery: Delivery) -> None:
        """A new delivery of the same event to the same endpoint as ``source_id``'s."""
        ...

    def list_deliveries(
        self, endpoint_id: str, *, status: DeliveryStatus | None = None, limit: int = 100
    ) -> list[tuple[Delivery, str]]:
        """Newest first, with each delivery's event kind."""
        ...

    def event_kind(self, delivery_id: str) -> str | None: ...

    def resume(self, endpoint: Endpoint, now: datetime) -> None: ...

    def game_deliveries(self, game_id: str, limit: int) -> list[tuple[Delivery, str, bytes | str]]:
        """The game's newest deliveries, with each one's event kind and data as stored (JSON)."""
        ...


class Studios(Protocol):
    def studio_id(self, key: str) -> str | None: ...

    def studio_key(self, studio_id: str) -> str | None: ...

    def games_of(self, studio_id: str) -> list[tuple[str, str, str]]:
        """The studio's games: id, key and name."""
        ...

    def game_id(self, studio_id: str, key: str) -> str | None: ...


class SampleOutbox(Outbox, Protocol):
    def insert_sample(self, event: DomainEvent, endpoint_id: str) -> None:
        """A sample event for one endpoint only."""
        ...


class OperatorsTx(
    HasGames,
    HasPlayers,
    HasLedger,
    HasGrants,
    HasFriends,
    HasPurchases,
    HasWindows,
    HasAttempts,
    HasBoards,
    HasLobbies,
    HasMerges,
    HasErasures,
    Protocol,
):
    """What the operator routes reach: the ports of the areas they build on, and the operators' own."""

    @property
    def audit(self) -> AuditLog: ...
    @property
    def members(self) -> Members: ...
    @property
    def keys(self) -> ApiKeys: ...
    @property
    def webhooks(self) -> Webhooks: ...
    @property
    def manifest(self) -> Studios: ...
    @property
    def outbox(self) -> SampleOutbox: ...
