"""The friend graph (docs/reference/friends-and-presence.md).

The relationship of a pair, seen from the acting player, is one of :class:`Relation`. The transitions of
docs/reference/friends-and-presence.md#requests-and-friendships are the table :data:`TRANSITIONS`: (relation,
trigger) -> (next relation, effect). A pair missing from the table is a refusal, with the error
:func:`refusal` gives.

Rules:
- Nobody befriends, requests, blocks or unblocks themself (400 ``cannot_friend_self``).
- Adding a player who already asked the caller makes them friends at once (200 ``accepted``,
  ``friend.request_accepted`` with ``reciprocal: true``, no ``friend.request_sent``). Adding a player
  the caller already asked answers the existing request (no second request, no second webhook).
- At most one pending request per unordered pair; friendship is symmetric; a blocked pair (either way)
  has no friendship and no request, and cannot add each other (403 ``player_blocked``).
- Only the target accepts or declines a request, only the sender cancels it; anyone else sees 404.
- ``max_friends`` (manifest, default 500) is checked for both players when a request is sent and when
  it is accepted (409 ``friend_limit_reached``).
- Friend codes: 6 characters of ``ABCDEFGHJKLMNPQRSTUVWXYZ23456789``, unique per game and environment,
  made on the player's first friends call and kept for life; matched case-insensitively.
- Search (``livecore.friends.commands.search``) matches display names in the caller's game and
  environment by the players' rule (:func:`livecore.players.rules.name_matches`), 1 to 50 hits in name
  order, never the caller nor a player blocked either way; a hidden player never shortens a full page.
- Suggestions (``livecore.friends.commands.suggestions``) draw 1 to 25 of the 200 most recently active
  players, weighted to the most recent, leaving out the caller, friends, pending requests either way and
  blocks either way before the draw.
"""

from __future__ import annotations

import enum
from datetime import datetime

import attrs

from livecore.errors import LivecoreError, invalid_request
from livecore.friends.errors import (
    ALREADY_FRIENDS,
    CANNOT_FRIEND_SELF,
    FRIEND_CODE_INVALID,
    FRIEND_LIMIT_REACHED,
    FRIEND_REQUEST_NOT_FOUND,
    NOT_BLOCKED,
    NOT_FRIENDS_YET,
    PLAYER_BLOCKED,
)
from livecore.limits import Count, Text
from livecore.players.rules import PlayerCard
from livecore.players.rules import name_matches as name_matches  # search's rule, named here by friends' docs
from livecore.rand import RandomSource

# The id prefixes of the area's records, claimed in its declaration (``Area.id_prefixes``).
FRIEND_REQUEST_ID_PREFIX = "frq"


CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


class Relation(enum.Enum):
    NONE = "none"
    OUTGOING = "request_outgoing"  # the caller asked the other
    INCOMING = "request_incoming"  # the other asked the caller
    FRIENDS = "friends"
    BLOCKING = "blocking"  # the caller blocked the other (the other may have blocked the caller too)
    BLOCKED_BY = "blocked_by"  # only the other blocked the caller


class Trigger(enum.Enum):
    ADD = "add"
    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"
    REMOVE = "remove"
    BLOCK = "block"
    UNBLOCK = "unblock"


class Effect(enum.Enum):
    SEND_REQUEST = "send_request"
    KEEP_REQUEST = "keep_request"  # add again while already asked: the existing request stands
    BEFRIEND = "befriend"  # accept, or the reciprocal add
    DROP_REQUEST = "drop_request"
    UNFRIEND = "unfriend"
    BLOCK = "block"
    KEEP_BLOCK = "keep_block"  # blocking again: the existing block stands
    UNBLOCK = "unblock"


TRANSITIONS: dict[tuple[Relation, Trigger], tuple[Relation, Effect]] = {
    (Relation.NONE, Trigger.ADD): (Relation.OUTGOING, Effect.SEND_REQUEST),
    (Relation.OUTGOING, Trigger.ADD): (Relation.OUTGOING, Effect.KEEP_REQUEST),
    (Relation.INCOMING, Trigger.ADD): (Relation.FRIENDS, Effect.BEFRIEND),
    (Relation.INCOMING, Trigger.ACCEPT): (Relation.FRIENDS, Effect.BEFRIEND),
    (Relation.INCOMING, Trigger.DECLINE): (Relation.NONE, Effect.DROP_REQUEST),
    (Relation.OUTGOING, Trigger.CANCEL): (Relation.NONE, Effect.DROP_REQUEST),
    (Relation.FRIENDS, Trigger.REMOVE): (Relation.NONE, Effect.UNFRIEND),
    (Relation.NONE, Trigger.BLOCK): (Relation.BLOCKING, Effect.BLOCK),
    (Relation.OUTGOING, Trigger.BLOCK): (Relation.BLOCKING, Effect.BLOCK),
    (Relation.INCOMING, Trigger.BLOCK): (Relation.BLOCKING, Effect.BLOCK),
    (Relation.FRIENDS, Trigger.BLOCK): (Relation.BLOCKING, Effect.BLOCK),
    (Relation.BLOCKED_BY, Trigger.BLOCK): (Relation.BLOCKING, Effect.BLOCK),
    (Relation.BLOCKING, Trigger.BLOCK): (Relation.BLOCKING, Effect.KEEP_BLOCK),
    # After an unblock the pair is NONE, or BLOCKED_BY when the other's own block remains.
    (Relation.BLOCKING, Trigger.UNBLOCK): (Relation.NONE, Effect.UNBLOCK),
}


def refusal(relation: Relation, trigger: Trigger) -> LivecoreError:
    if trigger is Trigger.UNBLOCK:
        return LivecoreError(NOT_BLOCKED, "You have not blocked this player.")
    if trigger is Trigger.REMOVE:
        return LivecoreError(NOT_FRIENDS_YET, "This player is not your friend.")
    if relation in (Relation.BLOCKING, Relation.BLOCKED_BY):
        return LivecoreError(PLAYER_BLOCKED, "A block exists between these players.")
    if trigger is Trigger.ADD:
        return LivecoreError(ALREADY_FRIENDS, "You are already friends.")
    return LivecoreError(FRIEND_REQUEST_NOT_FOUND, "No such friend request for you.")


def step(relation: Relation, trigger: Trigger) -> tuple[Relation, Effect]:
    found = TRANSITIONS.get((relation, trigger))
    if found is None:
        raise refusal(relation, trigger)
    return found


def seen_relation(other_id: str, friend_ids: set[str], request_peers: dict[str, bool]) -> Relation:
    """How a player relates to ``other_id`` on a search hit (blocked players are never shown):
    ``request_peers`` maps each pending request's other player to whether the caller sent it."""
    if other_id in friend_ids:
        return Relation.FRIENDS
    if other_id in request_peers:
        return Relation.OUTGOING if request_peers[other_id] else Relation.INCOMING
    return Relation.NONE


def check_not_self(caller_id: str, other_id: str) -> None:
    if caller_id == other_id:
        raise LivecoreError(CANNOT_FRIEND_SELF, "You cannot do that with yourself.")


def check_limit(count: int, max_friends: int, *, whose: str) -> None:
    if count >= max_friends:
        raise LivecoreError(
            FRIEND_LIMIT_REACHED,
            f"{whose} already has the most friends a player can have ({max_friends}).",
            {"maxFriends": max_friends},
        )


def new_friend_code(rng: RandomSource) -> str:
    raw = rng.token_bytes(CODE_LENGTH)
    return "".join(CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in raw)


#: What a friend code looks like on the wire (:func:`normalize_code` says whether it is one).
CODE = Text(min_length=CODE_LENGTH, max_length=CODE_LENGTH, trim=True, plain=True)


def normalize_code(code: str) -> str:
    """Friend codes match case-insensitively; anything not of the alphabet cannot be a code."""
    upper = code.strip().upper()
    if len(upper) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in upper):
        raise LivecoreError(FRIEND_CODE_INVALID, "No player has this friend code.")
    return upper


def one_target(friend_code: str | None, external_player_id: str | None) -> None:
    """docs/reference/friends-and-presence.md: exactly one of ``friendCode`` and ``externalPlayerId``."""
    if (friend_code is None) == (external_player_id is None):
        raise invalid_request(
            "Send exactly one of friendCode and externalPlayerId.",
            {
                "friendCode": "exactly one of friendCode and externalPlayerId",
                "externalPlayerId": "exactly one",
            },
        )


@attrs.frozen
class FriendRequest:
    id: str
    game_id: str
    from_player_id: str
    to_player_id: str
    created_at: datetime


@attrs.frozen
class Friendship:
    player_id: str
    friend_id: str
    since: datetime


@attrs.frozen
class FirstFriend:
    """A player's friendships as a fit reads them (:meth:`~livecore.friends.store.FriendGraph.first_friends`):
    when the player was first seen, when its first friendship on record began, whether the player
    answered it (it did not ask for it, so it began at a session of the player's, as it accepted), and
    how many friends it had made by the end of the period read."""

    seen: datetime
    since: datetime
    answered: bool
    friends: int


@attrs.frozen
class Block:
    blocker_id: str
    blocked_id: str
    created_at: datetime


SUGGESTION_POOL = 200  # most recently active candidates a draw picks from
SUGGESTION_LIMIT_MAX = 25
SEARCH_LIMIT_MAX = 50
SEARCH_TEXT = Text(min_length=1, max_length=32, trim=True)
MAX_PROGRESSION_KEYS = 8
PROGRESSION_KEYS = Count(max_items=MAX_PROGRESSION_KEYS)


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def visible(players: list[PlayerCard], hidden: set[str], limit: int) -> list[PlayerCard]:
    """The first ``limit`` of ``players`` (in their order) whose id is not ``hidden``."""
    return [p for p in players if p.id not in hidden][:limit]


def sample_suggestions(candidates: list[str], limit: int, rng: RandomSource) -> list[str]:
    """A weighted random sample without replacement, biased to the most recently active: the candidate of rank
    r (0 = most recent) weighs 1 / (r + 1). Re-drawn on every call
    (docs/reference/friends-and-presence.md#finding-each-other)."""
    pool = list(enumerate(candidates))
    picked: list[str] = []
    while pool and len(picked) < limit:
        total = sum(1.0 / (rank + 1) for rank, _ in pool)
        point = rng.random() * total
        for i, (rank, candidate) in enumerate(pool):
            point -= 1.0 / (rank + 1)
            if point <= 0 or i == len(pool) - 1:
                picked.append(candidate)
                del pool[i]
                break
    return picked


def check_progression_keys(keys: list[str] | None, known: set[str]) -> list[str]:
    if not keys:
        return []
    unique = list(dict.fromkeys(keys))
    if len(unique) > MAX_PROGRESSION_KEYS:
        raise invalid_request(
            "At most 8 progression keys.", {"progression": f"at most {MAX_PROGRESSION_KEYS} keys"}
        )
    unknown = [k for k in unique if k not in known]
    if unknown:
        raise invalid_request(
            f"Unknown progression keys: {', '.join(unknown)}.",
            {"progression": f"unknown keys: {', '.join(unknown)}"},
        )
    return unique
