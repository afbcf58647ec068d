"""The friend graph's part of merging one player into another (docs/reference/player-tools.md#merge): the
source's friendships become the target's, except with the target itself (never a self-friendship), with
players the target is already friends with (deduplicated), and with players either side blocked; pending
requests and blocks move unless they involve the target or a player the target already has a tie with
(friendship, request or block)."""

from __future__ import annotations

from datetime import datetime

import attrs


@attrs.frozen
class GraphFacts:
    """The friend graph around the two players, as ids (what the fold needs to decide)."""

    source_friends: dict[str, datetime]  # friend id -> since
    target_friends: set[str]
    target_ties: set[str]  # everyone the target is friends with, has a request with, or a block with
    blocked_either_way_by_target: set[str]


def friends_to_move(source_id: str, target_id: str, facts: GraphFacts) -> dict[str, datetime]:
    """The source's friendships the target takes over (friend id -> since)."""
    return {
        fid: since
        for fid, since in facts.source_friends.items()
        if fid not in (source_id, target_id)
        and fid not in facts.target_friends
        and fid not in facts.blocked_either_way_by_target
    }


def tie_moves(other_id: str, source_id: str, target_id: str, facts: GraphFacts) -> bool:
    """Whether a pending request or block between the source and ``other_id`` moves to the target."""
    return other_id not in (source_id, target_id) and other_id not in facts.target_ties
