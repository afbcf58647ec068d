"""What opening a crate reads, declared ahead of running (:class:`livecore.commands.reads.Reads`'s
``areas``): the crates area's server side reads it ahead (``livecore_server/crates/read_ahead.py``)."""

from __future__ import annotations

import attrs

from livecore.commands.reads import PlayerKey
from livecore.crates.settings import CRATE_SETTINGS
from livecore.games import Game


@attrs.frozen
class CrateOpenReads:
    """What an open reads (:func:`livecore.crates.commands.open_crate`): the crate grant, and the opener's
    holdings of what the game's crates may give (``keys``; none where nothing is deposited)."""

    game_id: str
    grant_id: str
    opener: PlayerKey
    keys: tuple[str, ...]

    @property
    def players(self) -> tuple[PlayerKey, ...]:
        return ()


def reward_keys(game: Game) -> tuple[str, ...]:
    """Every resource a crate of ``game`` may give: the draw is not known ahead, what it may be is."""
    crates = game.settings.of(CRATE_SETTINGS).values()
    return tuple(sorted({reward.key for c in crates for row in c.table for reward in row.rewards}))
