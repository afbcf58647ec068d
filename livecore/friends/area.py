"""The friends area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.friends import api
from livecore.friends.webhooks import FriendRemoved, FriendRequestAccepted, FriendRequestSent

AREA = Area(
    name="friends",
    summary="Friends and presence: friend codes, requests, blocks, search, suggestions, heartbeats.",
    page="friends-and-presence",
    routes=api.ROUTES,
    webhooks=(
        FriendRequestSent,
        FriendRequestAccepted,
        FriendRemoved,
    ),
)
