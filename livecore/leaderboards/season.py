"""The shared boards' part of a simulated season (docs/simulation.md#playing-a-season): the population's
``[leaderboards]`` score ranges, and the studio's backend submitting a score for a player on each shared
board no event feeds, by the player's segment's ``events`` chance at each session (after its events)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from livecore.games import GameSettings, Order
from livecore.leaderboards.settings import LEADERBOARD_SETTINGS, LeaderboardSettings
from livecore.live_events.season import EVENTS, score
from livecore.live_events.settings import EVENT_SETTINGS
from livecore.simulation.fields import Problems, Scale, check_scales, scales
from livecore.simulation.part import Driver, Member, Play, PopulationTable, SeasonPart


def default_scale(board: LeaderboardSettings) -> Scale:
    """A board's score range when the population sets none: 0 to 1,000 (1,000 to 0 when ``asc``)."""
    return Scale(1000.0, 0.0) if board.order is Order.ASC else Scale(0.0, 1000.0)


def _parse(raw: Any, problems: Problems) -> dict[str, Scale]:
    return scales(raw, "leaderboards", problems)


def _check(found: dict[str, Scale], settings: GameSettings, problems: Problems) -> None:
    boards = settings.of(LEADERBOARD_SETTINGS)
    check_scales(
        found, boards, "leaderboards", problems, one="a shared leaderboard", listed="boards", own="board"
    )


def _pin(
    found: dict[str, Scale] | None, base: GameSettings, other: GameSettings, parts: Sequence[Any]
) -> dict[str, Scale]:
    """The base's range of each board the other has too (of the same order), the population's first."""
    found = found or {}
    theirs = other.of(LEADERBOARD_SETTINGS)
    pinned = {
        key: found.get(key) or default_scale(board)
        for key, board in base.of(LEADERBOARD_SETTINGS).items()
        if key in theirs and theirs[key].order is board.order
    }
    return {**pinned, **found}


#: ``[leaderboards.<key>]``: a shared board's score range (``worst``, ``best``).
RANGES = PopulationTable("leaderboards", _parse, _check, _pin)


class _Leaderboards(Driver):
    """The shared boards no event feeds, with their score ranges."""

    def __init__(self, play: Play) -> None:
        self.play = play
        settings = play.settings
        fed = {board for e in settings.of(EVENT_SETTINGS).values() for board in e.feeds}
        self.boards = [b for key, b in settings.of(LEADERBOARD_SETTINGS).items() if key not in fed]
        ranges: dict[str, Scale] = play.table(RANGES) or {}
        self.scales = {b.key: ranges.get(b.key) or default_scale(b) for b in self.boards}

    def compete(self, member: Member) -> None:
        play = self.play
        rng = play.rng
        for board in self.boards:
            if rng.random() < member.segment.rate(EVENTS):
                found = score(play, member, self.scales[board.key])
                submit = play.server.leaderboards.submit_score
                play.act("leaderboards.submit", submit, board.key, member.handle, found)


SEASON = SeasonPart(tables=(RANGES,), driver=_Leaderboards)
