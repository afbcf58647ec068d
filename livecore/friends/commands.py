"""Friend commands: the transitions of docs/reference/friends-and-presence.md#requests-and-friendships with
their checks and webhooks, and friend codes."""

from __future__ import annotations

from typing import Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.errors import INTERNAL_ERROR, LivecoreError
from livecore.friends.errors import FRIEND_CODE_INVALID, FRIEND_REQUEST_NOT_FOUND
from livecore.friends.merge import GraphFacts, friends_to_move, tie_moves
from livecore.friends.rules import (
    FRIEND_REQUEST_ID_PREFIX,
    SEARCH_LIMIT_MAX,
    SEARCH_TEXT,
    SUGGESTION_LIMIT_MAX,
    SUGGESTION_POOL,
    Block,
    Effect,
    FriendRequest,
    Relation,
    Trigger,
    check_limit,
    check_not_self,
    clamp,
    new_friend_code,
    normalize_code,
    one_target,
    sample_suggestions,
    seen_relation,
    step,
    visible,
)
from livecore.friends.settings import FRIENDS_SETTINGS
from livecore.friends.store import HasFriends
from livecore.friends.webhooks import FriendRemoved, FriendRequestAccepted, FriendRequestSent
from livecore.games import Game
from livecore.ids import new_id
from livecore.players.commands import get_player
from livecore.players.rules import Player, PlayerCard
from livecore.players.store import HasPlayers
from livecore.scope import Scope
from livecore.store.outbox import HasOutbox


class FriendsTx(HasPlayers, HasFriends, HasOutbox, Protocol):
    """The ports these commands use."""


CODE_ATTEMPTS = 20


def ensure_friend_code(tx: FriendsTx, rt: Runtime, player: Player) -> Player:
    """Made on the player's first friends call, unique per game and environment, kept for life."""
    if player.friend_code is not None:
        return player
    for _ in range(CODE_ATTEMPTS):
        code = new_friend_code(rt.rng)
        if tx.players.by_friend_code(player.game_id, player.env, code) is None:
            updated = attrs.evolve(player, friend_code=code)
            tx.players.update(updated)
            return updated
    # 32^6 codes: twenty collisions in a row means the code space of this game is nearly full.
    raise LivecoreError(INTERNAL_ERROR, "Could not allocate a friend code.")


def resolve_target(tx: FriendsTx, scope: Scope, friend_code: str | None, external_id: str | None) -> Player:
    one_target(friend_code, external_id)
    if friend_code is not None:
        found = tx.players.by_friend_code(scope.game_id, scope.env, normalize_code(friend_code))
        if found is None:
            raise LivecoreError(FRIEND_CODE_INVALID, "No player has this friend code.")
        return found
    assert external_id is not None
    return get_player(tx, scope, external_id)


def relation(tx: FriendsTx, caller: Player, other: Player) -> tuple[Relation, FriendRequest | None]:
    if tx.friends.get_block(caller.id, other.id) is not None:
        return Relation.BLOCKING, None
    if tx.friends.get_block(other.id, caller.id) is not None:
        return Relation.BLOCKED_BY, None
    if tx.friends.get_friendship(caller.id, other.id) is not None:
        return Relation.FRIENDS, None
    request = tx.friends.request_between(caller.id, other.id)
    if request is None:
        return Relation.NONE, None
    return (Relation.OUTGOING if request.from_player_id == caller.id else Relation.INCOMING), request


@attrs.frozen
class Added:
    """The answer to an add: a pending request, or (reciprocal add) a friendship."""

    accepted: bool
    request: FriendRequest | None = None
    friend: Player | None = None


def add(tx: FriendsTx, rt: Runtime, scope: Scope, game: Game, caller: Player, target: Player) -> Added:
    check_not_self(caller.id, target.id)
    rel, request = relation(tx, caller, target)
    _, effect = step(rel, Trigger.ADD)
    if effect is Effect.KEEP_REQUEST:
        return Added(accepted=False, request=request)
    if effect is Effect.BEFRIEND:
        assert request is not None
        _befriend(tx, rt, scope, game, caller, target, request, reciprocal=True)
        return Added(accepted=True, friend=target)
    max_friends = game.settings.of(FRIENDS_SETTINGS).max_friends
    check_limit(tx.friends.count_friends(caller.id), max_friends, whose="You")
    check_limit(tx.friends.count_friends(target.id), max_friends, whose="That player")
    now = rt.clock.now()
    request = FriendRequest(
        id=new_id(FRIEND_REQUEST_ID_PREFIX, now, rt.rng),
        game_id=game.id,
        from_player_id=caller.id,
        to_player_id=target.id,
        created_at=now,
    )
    tx.friends.insert_request(request)
    emit(
        tx,
        rt,
        scope,
        FriendRequestSent(
            requester_player_id=caller.id,
            requester_external_player_id=caller.external_id,
            target_player_id=target.id,
            target_external_player_id=target.external_id,
            request_id=request.id,
            created_at=now,
        ),
    )
    return Added(accepted=False, request=request)


def _befriend(
    tx: FriendsTx,
    rt: Runtime,
    scope: Scope,
    game: Game,
    caller: Player,
    other: Player,
    request: FriendRequest,
    *,
    reciprocal: bool,
) -> None:
    max_friends = game.settings.of(FRIENDS_SETTINGS).max_friends
    check_limit(tx.friends.count_friends(caller.id), max_friends, whose="You")
    check_limit(tx.friends.count_friends(other.id), max_friends, whose="That player")
    now = rt.clock.now()
    tx.friends.delete_request(request.id)
    tx.friends.insert_friendship(caller.id, other.id, now, request)
    emit(
        tx,
        rt,
        scope,
        FriendRequestAccepted(
            request_id=request.id,
            player_id=caller.id,
            external_player_id=caller.external_id,
            friend_player_id=other.id,
            friend_external_player_id=other.external_id,
            reciprocal=reciprocal,
            friends_since=now,
        ),
    )


def _request_for(
    tx: FriendsTx, scope: Scope, caller: Player, request_id: str
) -> tuple[FriendRequest, Player]:
    request = tx.friends.get_request(scope.game_id, request_id)
    if request is None or caller.id not in (request.from_player_id, request.to_player_id):
        raise LivecoreError(FRIEND_REQUEST_NOT_FOUND, "No such friend request for you.")
    other_id = request.to_player_id if request.from_player_id == caller.id else request.from_player_id
    other = tx.players.by_id(other_id)
    assert other is not None
    return request, other


def accept(tx: FriendsTx, rt: Runtime, scope: Scope, game: Game, caller: Player, request_id: str) -> Player:
    """Only the target accepts; returns the new friend."""
    request, other = _request_for(tx, scope, caller, request_id)
    rel = Relation.INCOMING if request.to_player_id == caller.id else Relation.OUTGOING
    step(rel, Trigger.ACCEPT)
    _befriend(tx, rt, scope, game, caller, other, request, reciprocal=False)
    return other


def decline(tx: FriendsTx, scope: Scope, caller: Player, request_id: str) -> FriendRequest:
    request, _ = _request_for(tx, scope, caller, request_id)
    step(Relation.INCOMING if request.to_player_id == caller.id else Relation.OUTGOING, Trigger.DECLINE)
    tx.friends.delete_request(request.id)
    return request


def cancel(tx: FriendsTx, scope: Scope, caller: Player, request_id: str) -> FriendRequest:
    request, _ = _request_for(tx, scope, caller, request_id)
    step(Relation.OUTGOING if request.from_player_id == caller.id else Relation.INCOMING, Trigger.CANCEL)
    tx.friends.delete_request(request.id)
    return request


def _removed(tx: FriendsTx, rt: Runtime, scope: Scope, caller: Player, other: Player, reason: str) -> None:
    tx.friends.delete_friendship(caller.id, other.id)
    emit(
        tx,
        rt,
        scope,
        FriendRemoved(
            player_id=caller.id,
            external_player_id=caller.external_id,
            friend_player_id=other.id,
            friend_external_player_id=other.external_id,
            reason=reason,
            removed_at=rt.clock.now(),
        ),
    )


def remove(tx: FriendsTx, rt: Runtime, scope: Scope, caller: Player, other: Player) -> None:
    check_not_self(caller.id, other.id)
    rel, _ = relation(tx, caller, other)
    step(rel, Trigger.REMOVE)
    _removed(tx, rt, scope, caller, other, "removed")


def block(tx: FriendsTx, rt: Runtime, scope: Scope, caller: Player, other: Player) -> Block:
    """Breaks a friendship (``friend.removed`` reason ``blocked``) and pending requests either way."""
    check_not_self(caller.id, other.id)
    rel, request = relation(tx, caller, other)
    _, effect = step(rel, Trigger.BLOCK)
    if effect is Effect.KEEP_BLOCK:
        existing = tx.friends.get_block(caller.id, other.id)
        assert existing is not None
        return existing
    if rel is Relation.FRIENDS:
        _removed(tx, rt, scope, caller, other, "blocked")
    if request is not None:
        tx.friends.delete_request(request.id)
    new = Block(blocker_id=caller.id, blocked_id=other.id, created_at=rt.clock.now())
    tx.friends.insert_block(new)
    return new


def unblock(tx: FriendsTx, caller: Player, other: Player) -> None:
    check_not_self(caller.id, other.id)
    rel, _ = relation(tx, caller, other)
    step(rel, Trigger.UNBLOCK)
    tx.friends.delete_block(caller.id, other.id)


# --- Query views --------------------------------------------------------------------------------


@attrs.frozen
class SearchHit:
    player: PlayerCard
    relation: Relation  # never a block: blocked players are not found


def search(tx: FriendsTx, scope: Scope, caller: Player, text: str, limit: int) -> list[SearchHit]:
    """Players of the caller's game and environment whose display name matches ``text``, in name
    order: never the caller, nor a player blocked either way. ``limit`` is clamped to 1-50; the store is
    asked for as many more as it could hide, so hiding never shortens a full page."""
    text = SEARCH_TEXT.check(text, "q")
    limit = clamp(limit, 1, SEARCH_LIMIT_MAX)
    hidden = tx.friends.blocked_either_way(caller.id) | {caller.id}
    found = visible(
        tx.players.search_by_name(scope.game_id, scope.env, text, limit + len(hidden)), hidden, limit
    )
    friend_ids = tx.friends.friend_ids(caller.id)
    peers = tx.friends.request_peers(caller.id)
    return [SearchHit(p, seen_relation(p.id, friend_ids, peers)) for p in found]


def suggestions(tx: FriendsTx, rt: Runtime, scope: Scope, caller: Player, limit: int) -> list[PlayerCard]:
    """A weighted-random draw from the game's most recently active players, redrawn on every call:
    never the caller, a friend, a player with a pending request either way, or a player blocked either
    way. Those are taken out of the candidates before the draw, so the draw fills the page from whoever
    remains. ``limit`` is clamped to 1-25."""
    limit = clamp(limit, 1, SUGGESTION_LIMIT_MAX)
    excluded = tx.friends.blocked_either_way(caller.id) | {caller.id}
    excluded |= tx.friends.friend_ids(caller.id) | set(tx.friends.request_peers(caller.id))
    pool = visible(
        tx.players.recently_active(scope.game_id, scope.env, SUGGESTION_POOL), excluded, SUGGESTION_POOL
    )
    by_id = {p.id: p for p in pool}
    return [by_id[i] for i in sample_suggestions([p.id for p in pool], limit, rt.rng)]


def merge_friends(tx: FriendsTx, rt: Runtime, scope: Scope, source: Player, target: Player) -> None:
    """A merge: friendships, requests and blocks of the source become the target's (deduplicated,
    :func:`livecore.friends.merge.friends_to_move`)."""
    requests = tx.friends.list_requests(source.id)
    blocks = tx.friends.blocks_involving(source.id)
    target_friends = tx.friends.friend_ids(target.id)
    blocked_by_target = tx.friends.blocked_either_way(target.id)
    facts = GraphFacts(
        source_friends={card.id: since for since, card in tx.friends.friend_cards(source.id)},
        target_friends=target_friends,
        target_ties=target_friends | set(tx.friends.request_peers(target.id)) | blocked_by_target,
        blocked_either_way_by_target=blocked_by_target,
    )
    moving = friends_to_move(source.id, target.id, facts)
    for friend_id in facts.source_friends:
        tx.friends.delete_friendship(source.id, friend_id)
    for friend_id, since in moving.items():
        tx.friends.insert_friendship(target.id, friend_id, since)
    for request, _ in requests:
        tx.friends.delete_request(request.id)
    for block in blocks:
        tx.friends.delete_block(block.blocker_id, block.blocked_id)
    for request, other in requests:
        if tie_moves(other.id, source.id, target.id, facts):
            outgoing = request.from_player_id == source.id
            tx.friends.insert_request(
                FriendRequest(
                    id=request.id,  # the same request, now the target's: clients keep its id
                    game_id=request.game_id,
                    from_player_id=target.id if outgoing else other.id,
                    to_player_id=other.id if outgoing else target.id,
                    created_at=request.created_at,
                )
            )
    moved_blocks: set[tuple[str, str]] = set()
    for block in blocks:
        other_id = block.blocked_id if block.blocker_id == source.id else block.blocker_id
        if tie_moves(other_id, source.id, target.id, facts):
            pair = (target.id, other_id) if block.blocker_id == source.id else (other_id, target.id)
            if pair not in moved_blocks:  # the source and the other may have blocked each other
                moved_blocks.add(pair)
                tx.friends.insert_block(
                    Block(blocker_id=pair[0], blocked_id=pair[1], created_at=block.created_at)
                )
