"""Placeholder payloads of the friends area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from typing import Any

from livecore.friends.webhooks import FriendRemoved, FriendRequestAccepted, FriendRequestSent
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import FRIEND_EXTERNAL_ID, FRIEND_ID, PLAYER, SAMPLE_TS

_FRIEND: dict[str, Any] = {"friend_player_id": FRIEND_ID, "friend_external_player_id": FRIEND_EXTERNAL_ID}
_REQUEST_ID = "frq_sample000000000000000000"

SAMPLES: tuple[WebhookPayload, ...] = (
    FriendRequestSent(
        requester_player_id=PLAYER["player_id"],
        requester_external_player_id=PLAYER["external_player_id"],
        target_player_id=FRIEND_ID,
        target_external_player_id=FRIEND_EXTERNAL_ID,
        request_id=_REQUEST_ID,
        created_at=SAMPLE_TS,
    ),
    FriendRequestAccepted(
        request_id=_REQUEST_ID, **PLAYER, **_FRIEND, reciprocal=False, friends_since=SAMPLE_TS
    ),
    FriendRemoved(**PLAYER, **_FRIEND, reason="removed", removed_at=SAMPLE_TS),
)
