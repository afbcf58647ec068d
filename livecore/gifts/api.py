"""Gifts: send, claim, the catalog, inbox and sent lists, and the server's gift history."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import ClassVar

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.api.route import Route, Surface
from livecore.api.views import Counterparty, Direction
from livecore.errors import IDEMPOTENCY_CONFLICT
from livecore.friends.errors import FRIEND_CODE_INVALID, NOT_FRIENDS
from livecore.friends.rules import CODE
from livecore.games import ResourceType
from livecore.gifts.errors import (
    GIFT_ALREADY_CLAIMED,
    GIFT_AMOUNT_INVALID,
    GIFT_COOLDOWN,
    GIFT_EXPIRED,
    GIFT_INSUFFICIENT_BALANCE,
    GIFT_LIMIT_REACHED,
    GIFT_NOT_ALLOWED,
    GIFT_NOT_FOUND,
    GIFTING_DISABLED,
)
from livecore.gifts.rules import MESSAGE, Gift, GiftStatus
from livecore.grants.rules import GrantStatus
from livecore.idempotency import KEY
from livecore.limits import AMOUNT, ID, PAGE, limited
from livecore.parts import PartKey
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.routes import PLAYER_PATH, PLAYER_READ_ERRORS, PLAYER_WRITE_ERRORS, player_route
from livecore.players.rules import Player, PlayerCard
from livecore.players.views import display_view


@attrs.frozen
class SendGiftRequest:
    """The send-gift body (docs/reference/gifts.md); the target is exactly one of ``externalPlayerId`` and
    ``friendCode``."""

    EXACTLY_ONE_OF: ClassVar[tuple[str, ...]] = ("external_player_id", "friend_code")

    type: ResourceType
    resource_key: str = attrs.field(metadata=limited(ID))
    amount: int = attrs.field(metadata=limited(AMOUNT))
    external_player_id: str | None = attrs.field(default=None, metadata=limited(ID))
    friend_code: str | None = attrs.field(default=None, metadata=limited(CODE))
    message: str | None = attrs.field(default=None, metadata=limited(MESSAGE))
    idempotency_key: str | None = attrs.field(default=None, metadata=limited(KEY))


@attrs.frozen
class GiftView:
    """A gift (docs/reference/gifts.md), seen by one of its two players (``direction`` and ``player`` are
    relative to them). The server gift history adds ``grantStatus``, the delivering grant's status."""

    gift_id: str
    grant_id: str
    direction: Direction
    player: Counterparty
    type: ResourceType
    resource_key: str
    amount: int
    message: str | None
    status: GiftStatus
    sent_at: datetime
    claimed_at: datetime | None
    expires_at: datetime | None
    grant_status: GrantStatus | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    @classmethod
    def of(
        cls,
        gift: Gift,
        viewer_id: str,
        counterparty: Player | PlayerCard,
        grant_status: GrantStatus | None = None,
    ) -> GiftView:
        return cls(
            gift_id=gift.id,
            grant_id=gift.grant_id,
            direction=Direction.OUTGOING if gift.sender_id == viewer_id else Direction.INCOMING,
            player=Counterparty(
                external_player_id=counterparty.external_id, display_identity=display_view(counterparty)
            ),
            type=gift.type,
            resource_key=gift.resource_key,
            amount=gift.amount,
            message=gift.message,
            status=gift.status,
            sent_at=gift.sent_at,
            claimed_at=gift.claimed_at,
            expires_at=gift.expires_at,
            grant_status=grant_status,
        )


@attrs.frozen
class GiftRow:
    """The gifts' fields of a friend row (:class:`livecore.friends.api.FriendRow`, read with
    ``row.of(GIFT_ROW)``): while the viewer may not gift that friend yet, when it may again
    (docs/reference/friends-and-presence.md#gift-cooldown-on-friend-rows)."""

    gift_cooldown_until: datetime | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


GIFT_ROW: PartKey[GiftRow] = PartKey("gift", GiftRow, GiftRow())


@attrs.frozen
class GiftResponse:
    gift: GiftView


@attrs.frozen
class GiftCatalogResource:
    type: ResourceType
    key: str
    max_amount: int
    costs_sender: bool


@attrs.frozen
class GiftCatalogResponse:
    """The gift catalog (docs/reference/gifts.md#catalog), with ``enabled`` (additive): the game's gifting
    switch."""

    enabled: bool
    cooldown_seconds: int
    daily_send_limit: int | None
    sent_today: int
    resources: list[GiftCatalogResource]


#: The longest inbox or sent list; a larger ``limit`` is read as this one, a smaller than 1 as 1.
LIST_LIMIT_MAX = 200


@attrs.frozen
class GiftListQuery:
    """Inbox and sent lists: ``pending=true`` keeps gifts still claimable; ``limit`` 1 to 200."""

    pending: bool = False
    limit: int = 100

    def rows(self) -> int:
        """How many rows the list shows."""
        return min(max(self.limit, 1), LIST_LIMIT_MAX)


class GiftHistoryDirection(enum.StrEnum):
    RECEIVED = "received"
    SENT = "sent"


@attrs.frozen
class ServerGiftsQuery:
    direction: GiftHistoryDirection = GiftHistoryDirection.RECEIVED
    limit: int = attrs.field(default=50, metadata=limited(PAGE))


@attrs.frozen
class ServerGiftsResponse:
    direction: GiftHistoryDirection
    gifts: list[GiftView]


GIFT_SEND = player_route(
    "gifts.send",
    "POST",
    "/friends/gifts",
    "Send a gift to a friend (by external id or friend code); the friend claims it later.",
    GiftResponse,
    status=201,
    request=SendGiftRequest,
    body_idempotency_field=True,
    errors=(
        *PLAYER_WRITE_ERRORS,
        FRIEND_CODE_INVALID,
        GIFTING_DISABLED,
        NOT_FRIENDS,
        GIFT_NOT_ALLOWED,
        GIFT_AMOUNT_INVALID,
        GIFT_COOLDOWN,
        GIFT_LIMIT_REACHED,
        GIFT_INSUFFICIENT_BALANCE,
        IDEMPOTENCY_CONFLICT,
    ),
)


GIFT_CLAIM = player_route(
    "gifts.claim",
    "POST",
    "/friends/gifts/{giftId}/claim",
    "Claim a gift you received: its contents are credited now.",
    GiftResponse,
    errors=(
        *PLAYER_WRITE_ERRORS,
        GIFT_NOT_FOUND,
        GIFT_ALREADY_CLAIMED,
        GIFT_EXPIRED,
    ),
)


GIFT_CATALOG = player_route(
    "gifts.catalog",
    "GET",
    "/friends/gifts/catalog",
    "What can be gifted, the cooldown and daily limit, and how many gifts you sent today (UTC).",
    GiftCatalogResponse,
    errors=PLAYER_READ_ERRORS,
)


GIFT_INBOX = player_route(
    "gifts.inbox",
    "GET",
    "/friends/gifts/inbox",
    "Gifts you received, newest first (pending=true: only those you can still claim).",
    list[GiftView],
    query=GiftListQuery,
    errors=PLAYER_READ_ERRORS,
)


GIFT_SENT = player_route(
    "gifts.sent",
    "GET",
    "/friends/gifts/sent",
    "Gifts you sent, newest first (pending=true: only those not yet claimed nor expired).",
    list[GiftView],
    query=GiftListQuery,
    errors=PLAYER_READ_ERRORS,
)


SERVER_GIFTS = Route(
    name="server.gifts.list",
    surface=Surface.SERVER,
    method="GET",
    path=f"{PLAYER_PATH}/gifts",
    summary="A player's gift history with counterparties and the delivering grants' status.",
    response=ServerGiftsResponse,
    query=ServerGiftsQuery,
    errors=(GIFTING_DISABLED, PLAYER_NOT_FOUND),
)


ROUTES = (GIFT_SEND, GIFT_CLAIM, GIFT_CATALOG, GIFT_INBOX, GIFT_SENT, SERVER_GIFTS)
