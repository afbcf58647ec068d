"""Merging one player into another (docs/reference/player-tools.md#merge).

``merge from into to`` folds everything of ``from`` into ``to`` in one transaction, then keeps the
``from`` row under a ``__merged_<uuid>__`` placeholder external id (its original id is remembered, and
becomes free for a new player).

Refusals, in order: the same player twice is 422 ``invalid_merge``; a source that no longer exists but
was merged into this same target answers 200 ``no_op_already_merged`` (a replay); a source merged into
another player or erased is 422 ``invalid_merge``, a source that never existed 404 ``player_not_found``;
then a target merged away or erased is 422, one that never existed 404, a banned one 422. Players are
named by their original external ids; merge and erasure records remember those per environment.

What moves:
- grants, gifts (sent and received) and purchases: reassigned to the target;
- wallet and inventory: every ledger entry is reassigned; where both hold a key the balances are summed
  (so a resource's total across the two players never changes) and the target's item parameter
  overrides win over the source's (the economy's own merge step, ``livecore.economy.rules.fold_holdings``);
- friends: the source's friendships become the target's, except with the target itself (never a
  self-friendship), with players the target is already friends with (deduplicated), and with players
  either side blocked; pending requests move unless they involve the target or a player the target
  already has a tie with (friendship, request or block); blocks move, except between the two;
- lobby memberships and attempts: moved once those features exist (deduplicated).
The source row is retired like an erased one (``livecore.players.rules.tombstone``): its identity, context,
secret, friend code and presence are dropped (they now live on in the target, or nowhere).
"""

from __future__ import annotations

import enum
from datetime import datetime

import attrs

from livecore.errors import LivecoreError
from livecore.player_tools.errors import INVALID_MERGE
from livecore.players.rules import Lifecycle, Player
from livecore.scope import Environment

MERGED_PREFIX = "__merged_"
DELETED_PREFIX = "__deleted_"


class MergeStatus(enum.StrEnum):
    MERGED = "merged"
    NO_OP_ALREADY_MERGED = "no_op_already_merged"


@attrs.frozen
class MergeRecord:
    """Remembers a merge by the source's original external id (replays answer ``no_op``)."""

    game_id: str
    env: Environment
    from_external_id: str
    from_player_id: str
    to_player_id: str
    placeholder: str
    merged_at: datetime


def placeholder(prefix: str, uuid: str) -> str:
    return f"{prefix}{uuid}__"


def invalid(message: str) -> LivecoreError:
    return LivecoreError(INVALID_MERGE, message)


def check_target(target: Player) -> None:
    if target.lifecycle is Lifecycle.DELETED:
        raise invalid("The target player was erased.")
    if target.lifecycle is Lifecycle.MERGED:
        raise invalid("The target player was merged into another player.")
    if target.ban is not None:
        raise invalid("The target player is banned.")


def check_source(source: Player) -> None:
    if source.lifecycle is Lifecycle.DELETED:
        raise invalid("The source player was erased.")
    if source.lifecycle is Lifecycle.MERGED:
        raise invalid("The source player was already merged.")


def check_distinct(from_external_id: str, to_external_id: str) -> None:
    if from_external_id == to_external_id:
        raise invalid("A player cannot be merged into itself.")


def replay_of(record: MergeRecord | None, target: Player | None) -> bool:
    """A missing source whose original id was merged into this target: the merge already happened."""
    return record is not None and target is not None and record.to_player_id == target.id
