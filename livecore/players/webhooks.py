"""Player webhooks: registration and secrets, moderation, merge and erasure."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Protocol

import attrs

from livecore.players.rules import Player
from livecore.webhooks.payload import WebhookPayload


@attrs.frozen
class PlayerRegistered(WebhookPayload):
    """``player.registered``: the player row was first created."""

    KIND: ClassVar[str] = "player.registered"

    player_id: str
    external_player_id: str
    first_seen_at: datetime
    context_snapshot: dict[str, Any]


@attrs.frozen
class PlayerSecretChange(WebhookPayload):
    """The fields shared by ``player.secret_set`` and ``player.secret_rotated``."""

    player_id: str
    external_player_id: str
    secret_prefix: str
    registered_at: datetime
    secret_rotated_at: datetime | None
    via: str


@attrs.frozen
class PlayerSecretSet(PlayerSecretChange):
    """``player.secret_set``: the first secret was minted (``via`` ``sdk_register``)."""

    KIND: ClassVar[str] = "player.secret_set"


@attrs.frozen
class PlayerSecretRotated(PlayerSecretChange):
    """``player.secret_rotated``: the secret was replaced (``via``: ``force_rotate`` or
    ``admin_rotate``)."""

    KIND: ClassVar[str] = "player.secret_rotated"


@attrs.frozen
class PlayerBanned(WebhookPayload):
    """``player.banned``: the player went from not banned to banned (a re-ban fires nothing).
    ``actor`` is ``{"kind": "api_key", "prefix": ...}`` or ``{"kind": "member", "memberId": ...}``."""

    KIND: ClassVar[str] = "player.banned"

    player_id: str
    external_player_id: str
    reason: str
    banned_at: datetime
    actor: dict[str, Any]


@attrs.frozen
class PlayerUnbanned(WebhookPayload):
    """``player.unbanned``: a banned player was unbanned (unbanning a player who is not banned fires
    nothing). ``actor`` as in :class:`PlayerBanned`."""

    KIND: ClassVar[str] = "player.unbanned"

    player_id: str
    external_player_id: str
    unbanned_at: datetime
    actor: dict[str, Any]


class MergeFacts(Protocol):
    """What ``player.merged`` tells of a merge beyond its two players: the player tools' merge record
    (``livecore.player_tools.merge.MergeRecord``) is one, read by its shape because the player tools build
    on players, not the other way."""

    @property
    def from_external_id(self) -> str: ...
    @property
    def placeholder(self) -> str: ...
    @property
    def merged_at(self) -> datetime: ...


@attrs.frozen
class PlayerMerged(WebhookPayload):
    """``player.merged``: player ``from_*`` was folded into ``to_*``. The source's row now carries
    ``anonymized_external_player_id`` (a ``__merged_<uuid>__`` placeholder) and its original id is
    free again. ``actor`` is ``{"kind": "api_key", "prefix": ...}``."""

    KIND: ClassVar[str] = "player.merged"

    from_player_id: str
    from_external_player_id: str
    to_player_id: str
    to_external_player_id: str
    anonymized_external_player_id: str
    merged_at: datetime
    actor: dict[str, Any]

    @classmethod
    def of(cls, record: MergeFacts, source: Player, target: Player, actor: dict[str, Any]) -> PlayerMerged:
        return cls(
            from_player_id=source.id,
            from_external_player_id=record.from_external_id,
            to_player_id=target.id,
            to_external_player_id=target.external_id,
            anonymized_external_player_id=record.placeholder,
            merged_at=record.merged_at,
            actor=actor,
        )


@attrs.frozen
class PlayerDeleted(WebhookPayload):
    """``player.deleted``: sent before the player is anonymized, with the original
    ``external_player_id``; the row then carries ``anonymized_external_id`` (``__deleted_<uuid>__``).
    ``reason`` is ``gdpr_erasure``, ``studio_request`` or ``test``. Erase your own copy of the player."""

    KIND: ClassVar[str] = "player.deleted"

    player_id: str
    external_player_id: str
    reason: str
    anonymized_external_id: str

    @classmethod
    def of(cls, player: Player, reason: str, placeholder: str) -> PlayerDeleted:
        """``reason`` may be the player tools' ``ErasureReason`` (a str enum): the payload keeps its value."""
        return cls(
            player_id=player.id,
            external_player_id=player.external_id,
            reason=str(reason),
            anonymized_external_id=placeholder,
        )


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (
    PlayerRegistered,
    PlayerSecretSet,
    PlayerSecretRotated,
    PlayerBanned,
    PlayerUnbanned,
    PlayerMerged,
    PlayerDeleted,
)
