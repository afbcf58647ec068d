"""The friends port. The friend graph: a friendship is stored for both players; requests and blocks are
directed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.friends.rules import Block, FirstFriend, FriendRequest, Friendship
from livecore.players.rules import PlayerCard
from livecore.scope import Environment


class FriendGraph(Protocol):
    def get_request(self, game_id: str, request_id: str) -> FriendRequest | None: ...

    def request_between(self, a_id: str, b_id: str) -> FriendRequest | None:
        """The pending request between the two players, in either direction."""
        ...

    def insert_request(self, request: FriendRequest) -> None: ...

    def delete_request(self, request_id: str) -> None: ...

    def get_friendship(self, player_id: str, friend_id: str) -> Friendship | None: ...

    def insert_friendship(
        self, a_id: str, b_id: str, since: datetime, request: FriendRequest | None = None
    ) -> None:
        """The two players are friends from ``since``; ``request``, the request it came from, if one did:
        who sent it and when stay on record (:meth:`first_day_requests` counts them)."""
        ...

    def delete_friendship(self, a_id: str, b_id: str) -> None: ...

    def count_friends(self, player_id: str) -> int: ...

    def get_block(self, blocker_id: str, blocked_id: str) -> Block | None: ...

    def insert_block(self, block: Block) -> None: ...

    def delete_block(self, blocker_id: str, blocked_id: str) -> None: ...

    def friend_cards(self, player_id: str) -> list[tuple[datetime, PlayerCard]]:
        """The player's friends, oldest friendship first: since when, and the friend as a row shows it."""
        ...

    def list_requests(self, player_id: str) -> list[tuple[FriendRequest, PlayerCard]]:
        """Pending requests the player sent or received, oldest first, with the counterparty."""
        ...

    def list_blocks(self, player_id: str) -> list[tuple[Block, PlayerCard]]:
        """The players this player blocked, oldest block first."""
        ...

    def friend_ids(self, player_id: str) -> set[str]: ...

    def request_peers(self, player_id: str) -> dict[str, bool]:
        """The other player of each pending request of this player -> whether this player sent it."""
        ...

    def blocked_either_way(self, player_id: str) -> set[str]:
        """Ids of players this player blocked or was blocked by."""
        ...

    def blocks_involving(self, player_id: str) -> list[Block]:
        """Blocks the player made or received."""
        ...

    def first_day_requests(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[str, int]:
        """The players of a game and environment first seen from ``since`` to a day before ``until``, each
        with the friend requests it sent before ``until`` within a day of its first one: those pending and
        those accepted (a declined or cancelled request leaves no record), in one read."""
        ...

    def first_friends(self, game_id: str, env: Environment, until: datetime) -> dict[str, FirstFriend]:
        """The players of a game and environment with a friendship begun before ``until``, each with when
        it was first seen, when the first of its friendships still on record began and whether it answered
        that one (it recorded no request of the player's: a friendship made before who asked was recorded
        counts as answered), and how many it had begun by ``until`` (a friendship ended leaves no
        record), in one read."""
        ...

    def remove_player(self, player_id: str) -> None:
        """Delete the player's friendships, pending requests and blocks, either way."""
        ...


class HasFriends(Protocol):
    """A transaction that reaches the friends port."""

    @property
    def friends(self) -> FriendGraph: ...
