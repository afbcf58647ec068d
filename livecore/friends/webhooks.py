"""Friend webhooks: a request sent, a friendship made, a friendship ended."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

import attrs

from livecore.webhooks.payload import WebhookPayload


@attrs.frozen
class FriendRequestSent(WebhookPayload):
    """``friend.request_sent``: a pending request was created (never on a reciprocal add)."""

    KIND: ClassVar[str] = "friend.request_sent"

    requester_player_id: str
    requester_external_player_id: str
    target_player_id: str
    target_external_player_id: str
    request_id: str
    created_at: datetime


@attrs.frozen
class FriendRequestAccepted(WebhookPayload):
    """``friend.request_accepted``: once per new friendship. ``player_id``/``external_player_id`` is the
    player who accepted (on a reciprocal add, the one who added); ``reciprocal`` tells which it was."""

    KIND: ClassVar[str] = "friend.request_accepted"

    request_id: str
    player_id: str
    external_player_id: str
    friend_player_id: str
    friend_external_player_id: str
    reciprocal: bool
    friends_since: datetime


@attrs.frozen
class FriendRemoved(WebhookPayload):
    """``friend.removed``: a friendship ended; ``reason`` is ``removed`` or ``blocked``. ``player_id`` is
    the player who removed or blocked."""

    KIND: ClassVar[str] = "friend.removed"

    player_id: str
    external_player_id: str
    friend_player_id: str
    friend_external_player_id: str
    reason: str
    removed_at: datetime


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (
    FriendRequestSent,
    FriendRequestAccepted,
    FriendRemoved,
)
