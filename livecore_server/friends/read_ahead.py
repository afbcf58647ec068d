"""What the friends area reads ahead of a friends list (:data:`READ_AHEAD`, its ``ServerArea``'s): the
player's friends' cards, on PostgreSQL in the one round trip of its reads ahead, with the player. SQLite
reads nothing ahead: its reads cost no round trip, and the port reads the cards in one statement either
way."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from livecore.clock import from_millis
from livecore.friends.reads import FriendsListReads
from livecore_server.players.rows import CARD_COLUMNS
from livecore_server.storage.postgres_prefetch import key_read, one
from livecore_server.storage.read_ahead import Prefetched, ReadAhead

#: The kind of what is read ahead, by the player's id: ``[(friends since, card), ...]`` in the port's order.
#: The cards show other players' rows: any player row written forgets them (``with_players``).
FRIEND_CARDS = "friend_cards"

CARDS = key_read(
    "game text, player text",
    "SELECT s.id, f.since, c.* FROM {keys} "
    + one("s", "id", "players", "game_id = k.game AND external_id = k.player")
    + " JOIN friendships f ON f.player_id = s.id "
    + one("c", CARD_COLUMNS.sql, "players p", "p.id = f.friend_id")
    + " ORDER BY s.id, f.since, f.friend_id",
)


def _postgres(
    declared: Sequence[Any],
) -> tuple[list[tuple[str, Sequence[Any]]], Callable[[Prefetched, Iterator[list[Any]]], None]]:
    keys = sorted({r.player for r in declared if isinstance(r, FriendsListReads)})

    def found_by(found: Prefetched, results: Iterator[list[Any]]) -> None:
        cards = found.of(FRIEND_CARDS)
        for key in keys:
            player = found.players.get(key)
            if player is not None:
                cards[player.id] = []
        for player_id, since, *card in next(results):
            cards[player_id].append((from_millis(since), CARD_COLUMNS.of(card)))

    return [(CARDS.sql, CARDS.keys(keys))], found_by


#: The friends area's reads ahead (its ``ServerArea.read_ahead``).
READ_AHEAD = ReadAhead(
    reads=(FriendsListReads,),
    tables=frozenset({"friendships"}),
    postgres=_postgres,
    with_players=frozenset({FRIEND_CARDS}),
)
