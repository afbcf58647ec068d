"""The friends port in memory."""

from __future__ import annotations

from datetime import datetime, timedelta

import attrs

from livecore.friends.rules import Block, FirstFriend, FriendRequest, Friendship
from livecore.friends.store import FriendGraph
from livecore.memory.journal import AreaPort
from livecore.players.memory import PlayerTables
from livecore.players.rules import PlayerCard
from livecore.scope import Environment

_DAY = timedelta(days=1)


@attrs.define
class FriendTables:
    """The friends area's tables in memory."""

    requests: dict[str, FriendRequest] = attrs.field(factory=dict)
    friendships: dict[tuple[str, str], Friendship] = attrs.field(factory=dict)
    blocks: dict[tuple[str, str], Block] = attrs.field(factory=dict)
    # Each player's friends, and the request pending between two players (by their ids, ordered): a
    # simulation's thousands of players look them up on every friends call.
    friends_of: dict[str, dict[str, None]] = attrs.field(factory=dict)
    pairs: dict[tuple[str, str], str] = attrs.field(factory=dict)
    # When the request a friendship came from was sent, by (its sender, the friend).
    requested: dict[tuple[str, str], datetime] = attrs.field(factory=dict)


def _pair(a_id: str, b_id: str) -> tuple[str, str]:
    return (a_id, b_id) if a_id <= b_id else (b_id, a_id)


class MemoryFriendGraph(AreaPort[FriendTables]):
    __slots__ = ()
    TABLES = FriendTables

    def get_request(self, game_id: str, request_id: str) -> FriendRequest | None:
        found = self._t.requests.get(request_id)
        return found if found is not None and found.game_id == game_id else None

    def request_between(self, a_id: str, b_id: str) -> FriendRequest | None:
        found = self._t.pairs.get(_pair(a_id, b_id))
        return None if found is None else self._t.requests.get(found)

    def insert_request(self, request: FriendRequest) -> None:
        self._tx.put(self._t.requests, request.id, request)
        self._tx.put(self._t.pairs, _pair(request.from_player_id, request.to_player_id), request.id)

    def delete_request(self, request_id: str) -> None:
        found = self._t.requests.get(request_id)
        if found is not None:
            pair = _pair(found.from_player_id, found.to_player_id)
            if self._t.pairs.get(pair) == request_id:
                self._tx.drop(self._t.pairs, pair)
        self._tx.drop(self._t.requests, request_id)

    def get_friendship(self, player_id: str, friend_id: str) -> Friendship | None:
        return self._t.friendships.get((player_id, friend_id))

    def insert_friendship(
        self, a_id: str, b_id: str, since: datetime, request: FriendRequest | None = None
    ) -> None:
        if request is not None:
            sent = (request.from_player_id, request.to_player_id)
            self._tx.put(self._t.requested, sent, request.created_at)
        self._tx.put(self._t.friendships, (a_id, b_id), Friendship(a_id, b_id, since))
        self._tx.put(self._t.friendships, (b_id, a_id), Friendship(b_id, a_id, since))
        self._tx.put(self._t.friends_of.setdefault(a_id, {}), b_id, None)
        self._tx.put(self._t.friends_of.setdefault(b_id, {}), a_id, None)

    def delete_friendship(self, a_id: str, b_id: str) -> None:
        self._drop_friendship((a_id, b_id))
        self._drop_friendship((b_id, a_id))

    def _drop_friendship(self, key: tuple[str, str]) -> None:
        self._tx.drop(self._t.friendships, key)
        self._tx.drop(self._t.requested, key)
        self._tx.drop(self._t.friends_of.get(key[0], {}), key[1])

    def count_friends(self, player_id: str) -> int:
        return len(self._t.friends_of.get(player_id, {}))

    def get_block(self, blocker_id: str, blocked_id: str) -> Block | None:
        return self._t.blocks.get((blocker_id, blocked_id))

    def insert_block(self, block: Block) -> None:
        self._tx.put(self._t.blocks, (block.blocker_id, block.blocked_id), block)

    def delete_block(self, blocker_id: str, blocked_id: str) -> None:
        self._tx.drop(self._t.blocks, (blocker_id, blocked_id))

    def friend_cards(self, player_id: str) -> list[tuple[datetime, PlayerCard]]:
        friendships = self._t.friendships
        rows = [friendships[(player_id, b)] for b in self._t.friends_of.get(player_id, {})]
        players = self._s.tables_of(PlayerTables)
        return [
            (f.since, PlayerCard.of(p))
            for f in sorted(rows, key=lambda f: (f.since, f.friend_id))
            if (p := players.by_id(f.friend_id))
        ]

    def list_requests(self, player_id: str) -> list[tuple[FriendRequest, PlayerCard]]:
        out = []
        players = self._s.tables_of(PlayerTables)
        for r in sorted(self._t.requests.values(), key=lambda r: r.created_at):
            if player_id in (r.from_player_id, r.to_player_id):
                other = players.by_id(r.to_player_id if r.from_player_id == player_id else r.from_player_id)
                if other is not None:
                    out.append((r, PlayerCard.of(other)))
        return out

    def list_blocks(self, player_id: str) -> list[tuple[Block, PlayerCard]]:
        rows = [b for (a, _), b in self._t.blocks.items() if a == player_id]
        players = self._s.tables_of(PlayerTables)
        return [
            (b, PlayerCard.of(p))
            for b in sorted(rows, key=lambda b: b.created_at)
            if (p := players.by_id(b.blocked_id))
        ]

    def friend_ids(self, player_id: str) -> set[str]:
        return set(self._t.friends_of.get(player_id, {}))

    def request_peers(self, player_id: str) -> dict[str, bool]:
        peers = {}
        for r in self._t.requests.values():
            if r.from_player_id == player_id:
                peers[r.to_player_id] = True
            elif r.to_player_id == player_id:
                peers[r.from_player_id] = False
        return peers

    def blocked_either_way(self, player_id: str) -> set[str]:
        return {b if a == player_id else a for (a, b) in self._t.blocks if player_id in (a, b)}

    def blocks_involving(self, player_id: str) -> list[Block]:
        return [b for (a, c), b in self._t.blocks.items() if player_id in (a, c)]

    def first_day_requests(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[str, int]:
        players = self._s.tables_of(PlayerTables).players.values()
        sent: dict[str, list[datetime]] = {
            p.id: []
            for p in players
            if p.game_id == game_id and p.env is env and since <= p.first_seen_at < until - _DAY
        }
        asked = [(r.from_player_id, r.created_at) for r in self._t.requests.values()]
        asked += [(sender, at) for (sender, _), at in self._t.requested.items()]
        for sender, at in asked:
            if sender in sent and at < until:
                sent[sender].append(at)
        return {p: _within_a_day(ats) for p, ats in sent.items()}

    def first_friends(self, game_id: str, env: Environment, until: datetime) -> dict[str, FirstFriend]:
        players = self._s.tables_of(PlayerTables)
        found: dict[str, FirstFriend] = {}
        for key, f in self._t.friendships.items():
            if f.since >= until:
                continue
            answered = key not in self._t.requested
            had = found.get(f.player_id)
            if had is None:
                p = players.by_id(f.player_id)
                if p is None or p.game_id != game_id or p.env is not env:
                    continue
                found[f.player_id] = FirstFriend(p.first_seen_at, f.since, answered, 1)
            elif f.since < had.since:
                found[f.player_id] = FirstFriend(had.seen, f.since, answered, had.friends + 1)
            else:
                either = had.answered or (answered and f.since == had.since)
                found[f.player_id] = FirstFriend(had.seen, had.since, either, had.friends + 1)
        return found

    def remove_player(self, player_id: str) -> None:
        for key in [k for k in self._t.friendships if player_id in k]:
            self._drop_friendship(key)
        for rid in [
            r.id for r in self._t.requests.values() if player_id in (r.from_player_id, r.to_player_id)
        ]:
            self.delete_request(rid)
        for key in [k for k in self._t.blocks if player_id in k]:
            self._tx.drop(self._t.blocks, key)


def _within_a_day(times: list[datetime]) -> int:
    """How many of ``times`` are less than a day after the first of them."""
    first = min(times, default=None)
    return 0 if first is None else sum(at < first + _DAY for at in times)


def _implements_the_port(port: MemoryFriendGraph) -> FriendGraph:
    return port  # mypy checks the class against the area's port here
