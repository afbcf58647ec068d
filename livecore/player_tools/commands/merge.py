"""The merge command: the rules of :mod:`livecore.player_tools.merge` applied through the store, in one
transaction.

Everything of the source's moves to the target: the friend graph (folded), ledgers (summed), grants,
gifts, purchases, event attempts, lobby seats (one per window: the target's kept), event-board entries
(the target keeps the better of two entries on one board,
:func:`livecore.live_events.commands.boards.merge_entries`),
and shared-leaderboard entries and tiers (:func:`livecore.leaderboards.commands.merge_entries`)."""

from __future__ import annotations

import attrs

from livecore.commands import Runtime, emit
from livecore.errors import ErrorCode, LivecoreError
from livecore.friends.rules import Block, FriendRequest
from livecore.guilds.commands import merge_guilds
from livecore.ids import new_uuid
from livecore.leaderboards import commands as leaderboards
from livecore.live_events.commands.boards import merge_entries
from livecore.player_tools.erasure import id_hash
from livecore.player_tools.merge import (
    MERGED_PREFIX,
    GraphFacts,
    MergeRecord,
    MergeStatus,
    check_distinct,
    check_source,
    check_target,
    fold_holdings,
    friends_to_move,
    invalid,
    placeholder,
    replay_of,
    tie_moves,
)
from livecore.players.commands import find_player, find_record
from livecore.players.rules import Lifecycle, Player, tombstone
from livecore.players.webhooks import PlayerMerged
from livecore.scope import Scope
from livecore.store import Transaction


@attrs.frozen
class Merged:
    status: MergeStatus
    record: MergeRecord
    target: Player


def _not_found(external_id: str) -> LivecoreError:
    return LivecoreError(ErrorCode.PLAYER_NOT_FOUND, "Player not found.", {"externalPlayerId": external_id})


def _retired(tx: Transaction, rt: Runtime, scope: Scope, external_id: str) -> str | None:
    """Why an id names no player although one was known by it, by its original id or its placeholder:
    "merged into another player" or "erased" (else None)."""
    row = find_record(tx, scope, external_id)
    if row is not None and row.lifecycle is not Lifecycle.ACTIVE:
        return "erased" if row.lifecycle is Lifecycle.DELETED else "merged into another player"
    if tx.merges.get(scope.game_id, scope.env, external_id) is not None:
        return "merged into another player"
    if tx.erasures.get(scope.game_id, id_hash(rt.hasher, scope.game_id, scope.env, external_id)) is not None:
        return "erased"
    return None


def merge(tx: Transaction, rt: Runtime, scope: Scope, from_external_id: str, to_external_id: str) -> Merged:
    check_distinct(from_external_id, to_external_id)
    source = find_player(tx, scope, from_external_id)
    target = find_player(tx, scope, to_external_id)
    if source is None:
        record = tx.merges.get(scope.game_id, scope.env, from_external_id)
        if replay_of(record, target):
            assert record is not None and target is not None
            return Merged(MergeStatus.NO_OP_ALREADY_MERGED, record, target)
        why = _retired(tx, rt, scope, from_external_id)
        if why is not None:
            raise invalid(f"The source player was {why}.")
        raise _not_found(from_external_id)
    if target is None:
        why = _retired(tx, rt, scope, to_external_id)
        if why is not None:
            raise invalid(f"The target player was {why}.")
        raise _not_found(to_external_id)
    check_source(source)
    check_target(target)
    now = rt.clock.now()
    record = MergeRecord(
        game_id=scope.game_id,
        env=scope.env,
        from_external_id=source.external_id,
        from_player_id=source.id,
        to_player_id=target.id,
        placeholder=placeholder(MERGED_PREFIX, new_uuid(now, rt.rng)),
        merged_at=now,
    )
    _fold_graph(tx, source, target)
    tx.ledger.move(
        source.id, target.id, fold_holdings(tx.ledger.holdings(source.id), tx.ledger.holdings(target.id))
    )
    tx.grants.reassign(source.id, target)
    tx.gifts.reassign(source.id, target)
    tx.purchases.reassign(source.id, target)
    # Attempts keep their ids, numbers and states; the target may so hold more attempts in a window than
    # max_attempts, or two in progress (its next start then waits for both to end).
    tx.attempts.reassign(source.id, target)
    # One seat per window: where both sat, the target keeps its own (its moved attempt and entry stay).
    tx.lobbies.reassign(source.id, target)
    # One team seat per window too: where both sit on a team, the target keeps its own.
    tx.teams.reassign(source.id, target)
    merge_guilds(tx, rt, scope, source, target)
    merge_entries(tx, source.id, target)
    leaderboards.merge_entries(tx, source.id, target)
    # The source row stays, retired under its placeholder, pointing at the target.
    tx.players.update(tombstone(source, record.placeholder, Lifecycle.MERGED, merged_into=target.id))
    tx.merges.insert(record)
    emit(tx, rt, scope, PlayerMerged.of(record, source, target, scope.actor.to_wire()))
    return Merged(MergeStatus.MERGED, record, target)


def _fold_graph(tx: Transaction, source: Player, target: Player) -> None:
    """Friendships, requests and blocks of the source become the target's (deduplicated)."""
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
