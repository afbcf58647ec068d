"""The friends area's rows: each record's columns declared once (read by name) and the
values it writes, in the order of its declaration's ``names`` (:mod:`livecore_server.storage.rows`)."""

from __future__ import annotations

from typing import Any

from livecore.clock import from_millis
from livecore.friends.rules import FriendRequest
from livecore_server.storage.columns import Columns


def pair_key(a_id: str, b_id: str) -> str:
    return f"{min(a_id, b_id)}:{max(a_id, b_id)}"


def _request(id: Any, game_id: Any, from_player_id: Any, to_player_id: Any, created_at: Any) -> FriendRequest:
    return FriendRequest(
        id=id,
        game_id=game_id,
        from_player_id=from_player_id,
        to_player_id=to_player_id,
        created_at=from_millis(created_at),
    )


REQUEST_COLUMNS = Columns(_request, "r")
