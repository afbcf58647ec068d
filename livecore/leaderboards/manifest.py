"""Shared leaderboards' section of a game's manifest: ``[games.<key>.leaderboards.<key>]``
(docs/leaderboards.md, docs/reference/manifest-and-cli.md#manifest)::

    .leaderboards.<key>   name (required), order = "desc" | "asc", period = "all_time" | "daily" |
                          "weekly" | "monthly", aggregation = "sum" | "best" | "latest",
                          divisions = { size, tiers, promote, relegate } (all required)
      [[.rank_rewards]]   from, to, rewards (all required)

Checked field by field:

- the board key matches the key pattern; ``name`` is not blank;
- ``divisions``: ``size`` from 2 to 10,000 (a rollover pays and moves a division in one step);
  ``tiers`` a non-empty list of keys (the key pattern), none twice, from the lowest to the highest;
  ``promote`` and ``relegate`` >= 0 and ``promote + relegate`` at most ``size``;
- rank bands and their rewards as for events (ranks within the board, or within each division).

A board left out of a later manifest takes no more scores (``leaderboard_not_found``); a period it had
open still rolls over at its end with the settings it opened with, and what it recorded stays. Events
feed boards by key (:mod:`livecore.live_events.manifest`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from livecore.games import Order, RankBand
from livecore.leaderboards.settings import (
    LEADERBOARD_SETTINGS,
    Aggregation,
    Divisions,
    LeaderboardSettings,
    Period,
)
from livecore.section import (
    Problems,
    Rules,
    Section,
    at_least,
    distinct,
    entry_references,
    is_int,
    key,
    no_overlap,
    not_blank,
    reward_lists,
)

# A rollover pays and moves each division in one step.
DIVISION_SIZE_MAX = 10_000


@attrs.frozen
class LeaderboardManifest:
    """``[games.<key>.leaderboards.<key>]``, with its ``[[...rank_rewards]]``; fields and defaults are
    :class:`livecore.leaderboards.settings.LeaderboardSettings`'."""

    name: str
    order: Order = Order.DESC
    period: Period = Period.ALL_TIME
    aggregation: Aggregation = Aggregation.SUM
    divisions: Divisions | None = None
    rank_rewards: tuple[RankBand, ...] = ()

    def to_settings(self, key: str) -> LeaderboardSettings:
        return LeaderboardSettings(key=key, **attrs.asdict(self, recurse=False))


def _division_size(value: Any, path: str, problems: Problems) -> None:
    if is_int(value) and not 2 <= value <= DIVISION_SIZE_MAX:
        problems[path] = f"must be from 2 to {DIVISION_SIZE_MAX} players"


def _tiers(value: Any, path: str, problems: Problems) -> None:
    if value == []:
        problems[path] = "must list at least one tier, from the lowest to the highest"
        return
    for tier, i in distinct(value, path, problems, "tier").items():
        key(tier, f"{path}[{i}]", problems)


def _divisions(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    size, promote, relegate = raw.get("size"), raw.get("promote"), raw.get("relegate")
    if not (is_int(size) and is_int(promote) and is_int(relegate)) or promote < 0 or relegate < 0:
        return
    if promote + relegate > size and f"{path}.size" not in problems:
        problems[f"{path}.promote"] = (
            f"promote + relegate ({promote} + {relegate}) must be at most the division size ({size})"
        )


def _references(game: Mapping[str, Any], path: str, problems: Problems, _: Mapping[str, Any]) -> None:
    """A board's rank rewards name the game's declared resources."""
    boards = game.get("leaderboards")
    for key_, board in boards.items() if isinstance(boards, dict) else ():
        if isinstance(board, dict):
            entry_references(reward_lists(board, f"{path}.leaderboards.{key_}"), game, problems)


def _settings(boards: dict[str, LeaderboardManifest]) -> dict[str, LeaderboardSettings]:
    return {key_: board.to_settings(key_) for key_, board in boards.items()}


LEADERBOARDS = Section(
    key="leaderboards",
    record=dict[str, LeaderboardManifest],
    default=dict,
    settings=_settings,
    holds=LEADERBOARD_SETTINGS,
    rules=Rules(
        fields={
            (LeaderboardManifest, "name"): not_blank,
            (Divisions, "size"): _division_size,
            (Divisions, "tiers"): _tiers,
            (Divisions, "promote"): at_least(0),
            (Divisions, "relegate"): at_least(0),
        },
        tables={LeaderboardManifest: no_overlap, Divisions: _divisions},
    ),
    key_rule=key,
    check=_references,
)
