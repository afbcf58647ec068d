"""The friends area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.commands import Runtime
from livecore.friends import api, samples
from livecore.friends.commands import merge_friends
from livecore.friends.webhooks import FriendRemoved, FriendRequestAccepted, FriendRequestSent
from livecore.players.rules import Player
from livecore.scope import Scope
from livecore.store import Transaction


def _erase(tx: Transaction, rt: Runtime, scope: Scope, player: Player, kept: Player) -> None:
    """An erased player keeps no friend, request or block."""
    tx.friends.remove_player(player.id)


AREA = Area(
    name="friends",
    summary="Friends and presence: friend codes, requests, blocks, search, suggestions, heartbeats.",
    page="friends-and-presence",
    routes=api.ROUTES,
    merge=merge_friends,
    erase=_erase,
    webhooks=(
        FriendRequestSent,
        FriendRequestAccepted,
        FriendRemoved,
    ),
    samples=samples.SAMPLES,
)
