"""The merge command: the rules of :mod:`livecore.player_tools.merge` applied through the store, in one
transaction.

Everything of the source's moves to the target: the friend graph (folded), ledgers (summed), grants,
gifts, purchases, event attempts, lobby seats (one per window: the target's kept), event-board entries
(the target keeps the better of two entries on one board,
:func:`livecore.live_events.commands.boards.merge_entries`),
and shared-leaderboard entries and tiers (:func:`livecore.leaderboards.commands.merge_entries`)."""

from __future__ import annotations

from typing import Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.errors import LivecoreError
from livecore.ids import new_uuid
from livecore.player_tools.erasure import hashed_id
from livecore.player_tools.merge import (
    MERGED_PREFIX,
    MergeRecord,
    MergeStatus,
    check_distinct,
    check_source,
    check_target,
    invalid,
    placeholder,
    replay_of,
)
from livecore.player_tools.store.erasures import HasErasures
from livecore.player_tools.store.merges import HasMerges
from livecore.players.commands import find_player, find_record
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.rules import Lifecycle, Player, tombstone
from livecore.players.store import HasPlayers
from livecore.players.webhooks import PlayerMerged
from livecore.scope import Scope
from livecore.store.outbox import HasOutbox


class RetiringTx(HasPlayers, HasMerges, HasErasures, HasOutbox, Protocol):
    """The ports a merge and an erasure retire a player through; the areas' steps each reach their own
    in the same transaction."""


@attrs.frozen
class Merged:
    status: MergeStatus
    record: MergeRecord
    target: Player


def _not_found(external_id: str) -> LivecoreError:
    return LivecoreError(PLAYER_NOT_FOUND, "Player not found.", {"externalPlayerId": external_id})


def _retired(tx: RetiringTx, rt: Runtime, scope: Scope, external_id: str) -> str | None:
    """Why an id names no player although one was known by it, by its original id or its placeholder:
    "merged into another player" or "erased" (else None)."""
    row = find_record(tx, scope, external_id)
    if row is not None and row.lifecycle is not Lifecycle.ACTIVE:
        return "erased" if row.lifecycle is Lifecycle.DELETED else "merged into another player"
    if tx.merges.get(scope.game_id, scope.env, external_id) is not None:
        return "merged into another player"
    erased_as = hashed_id(scope.game_id, scope.env, external_id)
    if rt.hasher.find(erased_as, lambda d: tx.erasures.get(scope.game_id, d)) is not None:
        return "erased"
    return None


def merge(tx: RetiringTx, rt: Runtime, scope: Scope, from_external_id: str, to_external_id: str) -> Merged:
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
    # Each area of the runtime moves its own records (livecore.area.Area.merge), in the areas' order.
    for area in rt.contributions.areas:
        if area.merge is not None:
            area.merge(tx, rt, scope, source, target)
    # The source row stays, retired under its placeholder, pointing at the target.
    tx.players.update(tombstone(source, record.placeholder, Lifecycle.MERGED, merged_into=target.id))
    tx.merges.insert(record)
    emit(tx, rt, scope, PlayerMerged.of(record, source, target, scope.actor.to_wire()))
    return Merged(MergeStatus.MERGED, record, target)
