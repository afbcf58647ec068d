"""Rank bands: which rewards a rank of a finished board earns, whatever the board (an event's, a shared
leaderboard's period, an event's team board). Paid as grants by :mod:`livecore.grants.rank_rewards`."""

from __future__ import annotations

from livecore.games import Entry, RankBand


def band_rewards(bands: tuple[RankBand, ...], rank: int) -> tuple[Entry, ...]:
    """The rewards of the first band holding ``rank`` (bands do not overlap: the manifest refuses it)."""
    return next((b.rewards for b in bands if b.first <= rank <= b.last), ())


def paid_ranks(bands: tuple[RankBand, ...]) -> int:
    """How many of the top ranks any band pays."""
    return max((b.last for b in bands), default=0)


__all__ = ["band_rewards", "paid_ranks"]
