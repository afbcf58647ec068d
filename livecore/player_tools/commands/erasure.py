"""The erasure command: :mod:`livecore.player_tools.erasure` applied through the store, in one transaction."""

from __future__ import annotations

import attrs

from livecore.commands import Runtime, emit
from livecore.guilds.commands import erase_guilds
from livecore.ids import new_uuid
from livecore.player_tools.erasure import (
    ErasureReason,
    ErasureRecord,
    ErasureStatus,
    anonymized,
    id_hash,
)
from livecore.player_tools.merge import DELETED_PREFIX, placeholder
from livecore.players.commands import find_player, find_record
from livecore.players.rules import Lifecycle
from livecore.players.webhooks import PlayerDeleted
from livecore.scope import Scope
from livecore.store import Transaction


@attrs.frozen
class Erased:
    status: ErasureStatus
    placeholder: str | None = None


def erase(tx: Transaction, rt: Runtime, scope: Scope, external_id: str, reason: ErasureReason) -> Erased:
    key = id_hash(rt.hasher, scope.game_id, scope.env, external_id)
    player = find_player(tx, scope, external_id)
    if player is None:
        earlier = tx.erasures.get(scope.game_id, key)
        if earlier is not None:
            return Erased(ErasureStatus.NO_OP_ALREADY_DELETED, earlier.placeholder)
        row = find_record(tx, scope, external_id)  # named by its placeholder
        if row is not None and row.lifecycle is Lifecycle.DELETED:
            return Erased(ErasureStatus.NO_OP_ALREADY_DELETED, row.external_id)
        return Erased(ErasureStatus.NO_OP_NOT_FOUND)
    now = rt.clock.now()
    kept_as = placeholder(DELETED_PREFIX, new_uuid(now, rt.rng))
    # First, with the original id: the studio's systems can still find the player it names.
    emit(tx, rt, scope, PlayerDeleted.of(player, reason, kept_as))
    tx.friends.remove_player(player.id)
    tx.gifts.clear_messages(player.id)
    kept = anonymized(player, kept_as)
    tx.players.update(kept)
    # Grants, gifts, purchases, attempts, lobby and team seats and partner invites name the placeholder
    # from now on. Event-board entries name the row, so they stay on their boards and show its anonymized
    # identity.
    tx.grants.reassign(player.id, kept)
    tx.gifts.reassign(player.id, kept)
    tx.purchases.reassign(player.id, kept)
    tx.attempts.reassign(player.id, kept)
    tx.lobbies.reassign(player.id, kept)
    tx.teams.reassign(player.id, kept)
    erase_guilds(tx, rt, scope, player, kept)  # member_left names the original id, as player.deleted
    tx.merges.forget_into(player.id)  # their records hold the original ids of the accounts it absorbed
    tx.erasures.insert(ErasureRecord(scope.game_id, key, player.id, kept_as, reason, now))
    return Erased(ErasureStatus.DELETED, kept_as)
