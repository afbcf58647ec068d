"""Erasing a player (docs/reference/player-tools.md#erasure; GDPR).

``player.deleted`` fires first, with the original external id; then the row is anonymized in place under
a ``__deleted_<uuid>__`` placeholder: display and synthetic identity, country, player context, secret,
friend code, presence, activity, platform and app version, and ban reason are removed (a debug flag
stays: it keeps the retained purchases out of revenue reporting); friendships, requests and blocks either
way are deleted; gift messages the player wrote or received are cleared. Financial records stay: the
wallet and inventory ledgers, grants, gifts (without messages) and purchases, now attached to the
anonymous row.

Idempotent: erasing again answers ``no_op_already_deleted`` and a never-seen player ``no_op_not_found``.
The service remembers erasures by a keyed hash of the original id, never the id itself.
"""

from __future__ import annotations

import enum
from datetime import datetime

import attrs

from livecore.hashing import KeyedHasher
from livecore.players.rules import Lifecycle, Player, tombstone
from livecore.scope import Environment


class ErasureReason(enum.StrEnum):
    GDPR_ERASURE = "gdpr_erasure"
    STUDIO_REQUEST = "studio_request"
    TEST = "test"


def id_hash(hasher: KeyedHasher, game_id: str, env: Environment, external_id: str) -> str:
    """How erasures are remembered: never the id itself."""
    return hasher.hash(hashed_id(game_id, env, external_id))


def hashed_id(game_id: str, env: Environment, external_id: str) -> str:
    """What :func:`id_hash` hashes: an erasure is looked up by it under each server key
    (``KeyedHasher.find``), since one kept before a rotation keeps its hash."""
    return f"{game_id}:{env.value}:{external_id}"


class ErasureStatus(enum.StrEnum):
    DELETED = "deleted"
    NO_OP_ALREADY_DELETED = "no_op_already_deleted"
    NO_OP_NOT_FOUND = "no_op_not_found"


@attrs.frozen
class ErasureRecord:
    game_id: str
    external_id_hash: str  # keyed hash of the game, environment and original external id
    player_id: str
    placeholder: str
    reason: ErasureReason
    erased_at: datetime


def anonymized(player: Player, placeholder: str) -> Player:
    """The row as it is kept after an erasure."""
    return tombstone(player, placeholder, Lifecycle.DELETED)
