"""The erasure command: :mod:`livecore.erasure` applied through the store, in one transaction."""

from __future__ import annotations

import attrs

from livecore.commands import Runtime, emit
from livecore.commands.players import find_player
from livecore.erasure import (
    ErasureReason,
    ErasureRecord,
    ErasureStatus,
    anonymized,
    deleted_payload,
)
from livecore.ids import new_uuid
from livecore.merge import DELETED_PREFIX, placeholder
from livecore.players import Lifecycle
from livecore.scope import Scope
from livecore.store import Transaction


@attrs.frozen
class Erased:
    status: ErasureStatus
    placeholder: str | None = None


def erase(tx: Transaction, rt: Runtime, scope: Scope, external_id: str, reason: ErasureReason) -> Erased:
    id_hash = rt.hasher.hash(f"{scope.game_id}:{scope.env.value}:{external_id}")
    player = find_player(tx, scope, external_id)
    if player is None or player.lifecycle is not Lifecycle.ACTIVE:
        earlier = tx.get_erasure(scope.game_id, id_hash)
        if earlier is not None or (player is not None and player.lifecycle is Lifecycle.DELETED):
            return Erased(ErasureStatus.NO_OP_ALREADY_DELETED, earlier.placeholder if earlier else None)
        return Erased(ErasureStatus.NO_OP_NOT_FOUND)
    now = rt.clock.now()
    kept_as = placeholder(DELETED_PREFIX, new_uuid(now, rt.rng))
    # First, with the original id: the studio's systems can still find the player it names.
    emit(tx, rt, scope, "player.deleted", deleted_payload(player, reason, kept_as))
    tx.remove_from_graph(player.id)
    tx.clear_gift_messages(player.id)
    tx.update_player(anonymized(player, kept_as))
    tx.insert_erasure(ErasureRecord(scope.game_id, id_hash, player.id, kept_as, reason, now))
    return Erased(ErasureStatus.DELETED, kept_as)
