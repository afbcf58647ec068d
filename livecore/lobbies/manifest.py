"""The lobbies area's part of an event's section (docs/lobbies.md,
docs/reference/manifest-and-cli.md#manifest)::

    .events.<key>
      .lobby              capacity, fill_seconds (both required), fill_bots = false,
                          bot_score = { min, max } (both required)
      [[.sudden_death]]   label, type = "score_reached" | "completed_count", threshold,
                          resolution = "freeze" | "close" (all required)

- ``capacity`` from 2 to 10,000 (bots fill a lobby in one transaction), ``fill_seconds`` from 1 to
  315,360,000; ``bot_score`` ``min`` and ``max`` within +-(2^53 - 1), not negative (a bot's score grows
  from 0), ``min`` at most ``max``; ``fill_bots = true`` needs a ``bot_score``;
- ``sudden_death`` only on a lobby event; labels match the key pattern, none twice; ``threshold`` within
  +-(2^53 - 1) and > 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from livecore.limits import BOARD_NUMBER, board_number_problem
from livecore.lobbies.rules import CAPACITY_MAX
from livecore.lobbies.settings import (
    LOBBY_SETTINGS,
    SUDDEN_DEATH_SETTINGS,
    BotScore,
    LobbySettings,
    SuddenDeath,
)
from livecore.section import Problems, Rules, Section, is_int, is_number, key, positive, seconds, unique_keys


def _capacity(value: Any, path: str, problems: Problems) -> None:
    if is_int(value) and not 2 <= value <= CAPACITY_MAX:
        problems[path] = f"must be from 2 to {CAPACITY_MAX} seats"


def _bot_bound(value: Any, path: str, problems: Problems) -> None:
    if is_number(value) and (board_number_problem(value) is not None or value < 0):
        problems[path] = (
            "must be a finite number, not negative (a bot's score grows from 0), "
            f"at most {BOARD_NUMBER.maximum:,}"
        )


def _bot_score(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    low: Any = raw.get("min")
    high: Any = raw.get("max")
    if is_number(low) and is_number(high) and low > high and f"{path}.max" not in problems:
        problems[f"{path}.max"] = f"must be at least min ({low})"


def _lobby(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    if raw.get("fill_bots") is True and "bot_score" not in raw:
        problems[f"{path}.bot_score"] = (
            "is required when fill_bots = true: each bot's final score is drawn from it"
        )


def _sudden_death(event: Mapping[str, Any], path: str, problems: Problems, _: Mapping[str, Any]) -> None:
    unique_keys(event, "sudden_death", path, problems, by="label")
    if event.get("sudden_death") and "lobby" not in event:
        problems[f"{path}.sudden_death"] = "only a lobby event (a [...lobby] table) has sudden-death triggers"


LOBBY = Section(
    key="lobby",
    within="events",
    record=LobbySettings | None,
    holds=LOBBY_SETTINGS,
    rules=Rules(
        fields={
            (LobbySettings, "capacity"): _capacity,
            (LobbySettings, "fill_seconds"): seconds(1),
            (BotScore, "min"): _bot_bound,
            (BotScore, "max"): _bot_bound,
            (SuddenDeath, "label"): key,
            (SuddenDeath, "threshold"): positive,
        },
        tables={LobbySettings: _lobby, BotScore: _bot_score},
    ),
    check=_sudden_death,
)

SUDDEN_DEATH = Section(
    key="sudden_death", within="events", record=tuple[SuddenDeath, ...], holds=SUDDEN_DEATH_SETTINGS
)
