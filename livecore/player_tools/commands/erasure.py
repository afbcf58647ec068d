"""The erasure command: :mod:`livecore.player_tools.erasure` applied through the store, in one transaction."""

from __future__ import annotations

import attrs

from livecore.commands import Runtime, emit
from livecore.ids import new_uuid
from livecore.player_tools.commands.merge import RetiringTx
from livecore.player_tools.erasure import (
    ErasureReason,
    ErasureRecord,
    ErasureStatus,
    anonymized,
    hashed_id,
    id_hash,
)
from livecore.player_tools.merge import DELETED_PREFIX, placeholder
from livecore.players.commands import find_player, find_record
from livecore.players.rules import Lifecycle
from livecore.players.webhooks import PlayerDeleted
from livecore.scope import Scope


@attrs.frozen
class Erased:
    status: ErasureStatus
    placeholder: str | None = None


def erase(tx: RetiringTx, rt: Runtime, scope: Scope, external_id: str, reason: ErasureReason) -> Erased:
    key = id_hash(rt.hasher, scope.game_id, scope.env, external_id)
    player = find_player(tx, scope, external_id)
    if player is None:
        earlier = rt.hasher.find(
            hashed_id(scope.game_id, scope.env, external_id), lambda d: tx.erasures.get(scope.game_id, d)
        )
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
    kept = anonymized(player, kept_as)
    tx.players.update(kept)
    # Each area of the runtime has its records name the placeholder from now on (livecore.area.Area.erase),
    # in the areas' order; an event such as guild.member_left names the original id, as player.deleted.
    for area in rt.contributions.areas:
        if area.erase is not None:
            area.erase(tx, rt, scope, player, kept)
    tx.merges.forget_into(player.id)  # their records hold the original ids of the accounts it absorbed
    tx.erasures.insert(ErasureRecord(scope.game_id, key, player.id, kept_as, reason, now))
    return Erased(ErasureStatus.DELETED, kept_as)
