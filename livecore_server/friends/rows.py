"""The friends area's rows: a friend request and a block are kept in the declared ``friend_requests`` and
``blocks`` tables (:data:`REQUEST`, :data:`BLOCK`: their inserts, the values they write and how a row is
read back, :class:`~livecore_server.storage.mapped.Mapped`)."""

from __future__ import annotations

from livecore.friends.rules import Block, FriendRequest
from livecore_server.friends.schema import SCHEMA
from livecore_server.storage.mapped import Mapped


def pair_key(a_id: str, b_id: str) -> str:
    return f"{min(a_id, b_id)}:{max(a_id, b_id)}"


REQUEST = Mapped(
    SCHEMA.table("friend_requests"),
    FriendRequest,
    alias="r",
    computed={"pair": lambda r: pair_key(r.from_player_id, r.to_player_id)},
)
REQUEST_COLUMNS = REQUEST.columns
BLOCK = Mapped(SCHEMA.table("blocks"), Block)
