"""The friends port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from livecore.clock import from_millis, to_millis
from livecore.friends.rules import Block, FirstFriend, FriendRequest, Friendship
from livecore.players.rules import PlayerCard
from livecore.scope import Environment
from livecore_server.friends.rows import BLOCK, REQUEST, REQUEST_COLUMNS, pair_key
from livecore_server.players.rows import CARD_COLUMNS
from livecore_server.storage.read_ahead import MISSING
from livecore_server.storage.sqlport import SqlPort

_DAY_MS = 86_400_000


class SqlFriendGraph(SqlPort):
    __slots__ = ()

    def get_request(self, game_id: str, request_id: str) -> FriendRequest | None:
        row = self.db.read(
            f"SELECT {REQUEST_COLUMNS.sql} FROM friend_requests r WHERE r.id = ? AND r.game_id = ?",
            (request_id, game_id),
        ).fetchone()
        return None if row is None else REQUEST_COLUMNS.of(row)

    def request_between(self, a_id: str, b_id: str) -> FriendRequest | None:
        row = self.db.read(
            f"SELECT {REQUEST_COLUMNS.sql} FROM friend_requests r WHERE r.pair = ?",
            (pair_key(a_id, b_id),),
        ).fetchone()
        return None if row is None else REQUEST_COLUMNS.of(row)

    def insert_request(self, request: FriendRequest) -> None:
        self.db.change(REQUEST.table.name, REQUEST.insert.sql, REQUEST.params(request))

    def delete_request(self, request_id: str) -> None:
        self.db.change("friend_requests", "DELETE FROM friend_requests WHERE id = ?", (request_id,))

    def get_friendship(self, player_id: str, friend_id: str) -> Friendship | None:
        ahead = self.db.ahead("friendships", (player_id, friend_id))
        if ahead is not MISSING:
            return cast(Friendship | None, ahead)
        row = self.db.read(
            "SELECT since FROM friendships WHERE player_id = ? AND friend_id = ?", (player_id, friend_id)
        ).fetchone()
        return None if row is None else Friendship(player_id, friend_id, from_millis(row[0]))

    def insert_friendship(
        self, a_id: str, b_id: str, since: datetime, request: FriendRequest | None = None
    ) -> None:
        ms = to_millis(since)
        # Hand-written: a friendship's two rows differ in ``requested_at``, which Friendship does not hold.
        # The sender's row records when it asked; the other's, nothing.
        asked = {} if request is None else {request.from_player_id: to_millis(request.created_at)}
        self.db.executemany(
            "INSERT INTO friendships (player_id, friend_id, since, requested_at) VALUES (?, ?, ?, ?)",
            [(a_id, b_id, ms, asked.get(a_id)), (b_id, a_id, ms, asked.get(b_id))],
        )

    def delete_friendship(self, a_id: str, b_id: str) -> None:
        self.db.change(
            "friendships",
            "DELETE FROM friendships"
            " WHERE (player_id = ? AND friend_id = ?) OR (player_id = ? AND friend_id = ?)",
            (a_id, b_id, b_id, a_id),
        )

    def count_friends(self, player_id: str) -> int:
        row = self.db.read("SELECT count(*) FROM friendships WHERE player_id = ?", (player_id,)).fetchone()
        return int(row[0])

    def get_block(self, blocker_id: str, blocked_id: str) -> Block | None:
        row = self.db.read(
            "SELECT created_at FROM blocks WHERE blocker_id = ? AND blocked_id = ?", (blocker_id, blocked_id)
        ).fetchone()
        return None if row is None else Block(blocker_id, blocked_id, from_millis(row[0]))

    def insert_block(self, block: Block) -> None:
        self.db.change(BLOCK.table.name, BLOCK.insert.sql, BLOCK.params(block))

    def delete_block(self, blocker_id: str, blocked_id: str) -> None:
        self.db.change(
            "blocks", "DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", (blocker_id, blocked_id)
        )

    def friend_cards(self, player_id: str) -> list[tuple[datetime, PlayerCard]]:
        # The columns a friend row shows, not the whole player row: parsing whole players (their context
        # JSON, a dozen timestamps) was most of the friends list's time
        # (docs/decisions/0022-player-cards-for-lists.md).
        rows = self.db.read(
            f"SELECT f.since, {CARD_COLUMNS.sql} FROM friendships f JOIN players p ON p.id = f.friend_id"
            " WHERE f.player_id = ? ORDER BY f.since, f.friend_id",
            (player_id,),
        )
        return [(from_millis(since), CARD_COLUMNS.of(card)) for since, *card in rows]

    def list_requests(self, player_id: str) -> list[tuple[FriendRequest, PlayerCard]]:
        # A UNION is ordered by its output columns: the request's creation time, then its id.
        columns = f"r.created_at AS created, r.id AS request_id, {REQUEST_COLUMNS.sql}, {CARD_COLUMNS.sql}"
        rows = self.db.read(
            f"SELECT {columns} FROM friend_requests r JOIN players p ON p.id = r.from_player_id"
            f" WHERE r.to_player_id = ? UNION ALL SELECT {columns} FROM friend_requests r"
            " JOIN players p ON p.id = r.to_player_id WHERE r.from_player_id = ?"
            " ORDER BY created, request_id",
            (player_id, player_id),
        )
        return [_request_and_card(request_and_card) for _, _, *request_and_card in rows]

    def list_blocks(self, player_id: str) -> list[tuple[Block, PlayerCard]]:
        rows = self.db.read(
            f"SELECT b.created_at, {CARD_COLUMNS.sql} FROM blocks b JOIN players p ON p.id = b.blocked_id"
            " WHERE b.blocker_id = ? ORDER BY b.created_at, b.blocked_id",
            (player_id,),
        )
        return [_block_and_card(player_id, created_at, card) for created_at, *card in rows]

    def friend_ids(self, player_id: str) -> set[str]:
        rows = self.db.read("SELECT friend_id FROM friendships WHERE player_id = ?", (player_id,))
        return {friend_id for (friend_id,) in rows}

    def request_peers(self, player_id: str) -> dict[str, bool]:
        rows = self.db.read(
            "SELECT to_player_id, 1 FROM friend_requests WHERE from_player_id = ?"
            " UNION ALL SELECT from_player_id, 0 FROM friend_requests WHERE to_player_id = ?",
            (player_id, player_id),
        )
        return {peer: bool(sent) for peer, sent in rows}

    def blocked_either_way(self, player_id: str) -> set[str]:
        rows = self.db.read(
            "SELECT blocked_id FROM blocks WHERE blocker_id = ?"
            " UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?",
            (player_id, player_id),
        )
        return {other_id for (other_id,) in rows}

    def blocks_involving(self, player_id: str) -> list[Block]:
        columns = BLOCK.columns.sql
        rows = self.db.read(
            f"SELECT {columns} FROM blocks WHERE blocker_id = ?"
            f" UNION ALL SELECT {columns} FROM blocks WHERE blocked_id = ?",
            (player_id, player_id),
        )
        return [BLOCK.columns.of(r) for r in rows]

    def first_day_requests(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[str, int]:
        # A request sent is pending (its sender's), or accepted (on its sender's friendship row).
        rows = self.db.read(
            "WITH newcomers AS (SELECT id FROM players WHERE game_id = ? AND env = ?"
            " AND first_seen_at >= ? AND first_seen_at < ?),"
            " sent AS (SELECT n.id AS player_id, r.created_at AS at FROM newcomers n"
            " JOIN friend_requests r ON r.from_player_id = n.id WHERE r.created_at < ?"
            " UNION ALL SELECT n.id, f.requested_at FROM newcomers n"
            " JOIN friendships f ON f.player_id = n.id WHERE f.requested_at < ?),"
            " firsts AS (SELECT player_id, min(at) AS first_at FROM sent GROUP BY player_id)"
            " SELECT n.id, count(s.at) FROM newcomers n LEFT JOIN firsts f ON f.player_id = n.id"
            " LEFT JOIN sent s ON s.player_id = n.id AND s.at < f.first_at + ? GROUP BY n.id",
            (
                game_id,
                env.value,
                to_millis(since),
                to_millis(until) - _DAY_MS,
                to_millis(until),
                to_millis(until),
                _DAY_MS,
            ),
        )
        return {player_id: int(count) for player_id, count in rows}

    def first_friends(self, game_id: str, env: Environment, until: datetime) -> dict[str, FirstFriend]:
        # The first friendship the player answered (its row records no request of its) is its first.
        rows = self.db.read(
            "SELECT f.player_id, p.first_seen_at, min(f.since),"
            " min(CASE WHEN f.requested_at IS NULL THEN f.since END), count(*) FROM friendships f"
            " JOIN players p ON p.id = f.player_id WHERE p.game_id = ? AND p.env = ? AND f.since < ?"
            " GROUP BY f.player_id, p.first_seen_at",
            (game_id, env.value, to_millis(until)),
        )
        return {
            player_id: FirstFriend(from_millis(seen), from_millis(since), answered == since, int(friends))
            for player_id, seen, since, answered, friends in rows
        }

    def remove_player(self, player_id: str) -> None:
        for table, column in (
            ("friendships", "player_id"),
            ("friendships", "friend_id"),
            ("friend_requests", "from_player_id"),
            ("friend_requests", "to_player_id"),
            ("blocks", "blocker_id"),
            ("blocks", "blocked_id"),
        ):
            self.db.change(table, f"DELETE FROM {table} WHERE {column} = ?", (player_id,))


def _request_and_card(row: Sequence[Any]) -> tuple[FriendRequest, PlayerCard]:
    request, card = REQUEST_COLUMNS.split(row)
    return request, CARD_COLUMNS.of(card)


def _block_and_card(blocker_id: str, created_at: int, card_row: Sequence[Any]) -> tuple[Block, PlayerCard]:
    """A block, of the player the card columns show."""
    card = CARD_COLUMNS.of(card_row)
    return Block(blocker_id, card.id, from_millis(created_at)), card


SQL_PORTS = {"friends": SqlFriendGraph}
