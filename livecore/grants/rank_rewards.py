"""Rank rewards: what a finished board pays its top ranks, the same for every board that pays them (an
event's boards, the shared leaderboards' periods, an event's team board), which call this.

A rank earns the rewards of the first band holding it (:func:`livecore.grants.bands.band_rewards`);
each player the rank pays gets them as one pending reward grant that never expires, and ``grant.created``
fires for it. What differs between the boards is said by the caller: the grant's ``sourceKind``, the
``sourceRefId`` and ``metadata`` each rank carries, and who a rank pays (a player; none for a lobby's bot;
each seated member of a team).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from livecore.commands import Runtime
from livecore.games import RankBand
from livecore.grants.bands import band_rewards
from livecore.grants.commands import GrantsTx, issue_grant
from livecore.grants.rules import GrantKind
from livecore.scope import Scope


@attrs.frozen
class Placing:
    """One rank of a finished board: the players it pays (by internal id, in the order their grants are
    issued) and what their grants record of it."""

    rank: int
    player_ids: tuple[str, ...]
    source_ref_id: str
    metadata: dict[str, Any]


def pay_rank_rewards(
    tx: GrantsTx,
    rt: Runtime,
    scope: Scope,
    bands: tuple[RankBand, ...],
    placings: Iterable[Placing],
    *,
    source_kind: str,
) -> None:
    """Pay each placing its band's rewards, in the placings' order. A rank no band holds pays nothing, and
    its players are not even looked up; a player no longer found is skipped."""
    for placing in placings:
        rewards = band_rewards(bands, placing.rank)
        if not rewards:
            continue
        for player_id in placing.player_ids:
            player = tx.players.by_id(player_id)
            if player is None:
                continue
            issue_grant(
                tx,
                rt,
                scope,
                player,
                kind=GrantKind.REWARD,
                entries=rewards,
                expires_at=None,
                source_kind=source_kind,
                source_ref_id=placing.source_ref_id,
                metadata=placing.metadata,
            )


__all__ = ["Placing", "pay_rank_rewards"]
