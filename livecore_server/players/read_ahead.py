"""How every write's players are read ahead (:mod:`livecore_server.storage.read_ahead`): the caller and the
other players a write names, by ``(game_id, external_id)``, with the players' columns."""

from __future__ import annotations

from livecore_server.players.rows import PLAYER_COLUMNS
from livecore_server.storage.postgres_prefetch import key_read, one
from livecore_server.storage.read_ahead import PlayerRows, ReadAhead

#: The statement that reads them on PostgreSQL, in the one round trip of a write's reads ahead.
PLAYERS = key_read(
    "game_id text, external_id text",
    "SELECT p.* FROM {keys} "
    + one("p", PLAYER_COLUMNS.sql, "players", "game_id = k.game_id AND external_id = k.external_id"),
)

#: The players area's reads ahead (its ``ServerArea.read_ahead``).
READ_AHEAD = ReadAhead(players=PlayerRows(PLAYER_COLUMNS, PLAYERS))
