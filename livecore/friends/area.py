"""The friends area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.friends import api, samples, webhooks
from livecore.friends import rules as friends
from livecore.friends.commands import merge_friends
from livecore.friends.errors import CODES, FRIEND_REQUEST_NOT_FOUND
from livecore.friends.handlers import HANDLERS
from livecore.friends.manifest import FRIENDS, PRESENCE
from livecore.friends.memory import FriendTables, MemoryFriendGraph
from livecore.friends.rules import FRIEND_REQUEST_ID_PREFIX
from livecore.friends.season import SEASON
from livecore.friends.settings import FriendsSettings, PresenceSettings
from livecore.friends.store import HasFriends
from livecore.hot_routes import HOT
from livecore.players import presence
from livecore.players.rules import Player
from livecore.scope import Scope


def _erase(tx: HasFriends, rt: Runtime, scope: Scope, player: Player, kept: Player) -> None:
    """An erased player keeps no friend, request or block."""
    tx.friends.remove_player(player.id)


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    return {
        "friends-and-presence": [
            ("Friend code", f"{friends.CODE_LENGTH} characters of `{friends.CODE_ALPHABET}`"),
            ("Friends per player (default, per game)", str(FriendsSettings().max_friends)),
            ("`progression` keys per request", f"at most {friends.MAX_PROGRESSION_KEYS}"),
            ("Search text `q`", friends.SEARCH_TEXT.describe()),
            ("Search `limit`", f"clamped to 1 to {friends.SEARCH_LIMIT_MAX}"),
            ("Presence time-to-live (default, per game)", f"{PresenceSettings().ttl_seconds} s"),
            ("Presence status label", presence.STATUS.describe()),
        ],
    }


AREA = Area(
    name="friends",
    manifest=(
        PRESENCE,
        FRIENDS,
    ),
    summary="Friends and presence: friend codes, requests, blocks, search, suggestions, heartbeats.",
    page="friends-and-presence",
    builds_on=("economy",),
    routes=api.ROUTES,
    handlers=HANDLERS,
    record_ids={"requestId": FRIEND_REQUEST_NOT_FOUND},
    merge=merge_friends,
    erase=_erase,
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    limits=_limits,
    id_prefixes=(FRIEND_REQUEST_ID_PREFIX,),
    tables=FriendTables,
    ports={"friends": MemoryFriendGraph},
    season=SEASON,
    # Heartbeats are by far the most frequent request.
    contributes=(HOT(api.PRESENCE_HEARTBEAT),),
    client=(
        ClientPart("sdk", "friends", "livecore_client.resources.friends", "Friends"),
        ClientPart("sdk", "presence", "livecore_client.resources.friends", "Presence"),
        ClientPart(
            "server", "friends", "livecore_client.resources.friends", "ServerFriends", simulated=False
        ),
    ),
)
