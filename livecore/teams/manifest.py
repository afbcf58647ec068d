"""The teams area's part of an event's section (docs/teams.md, docs/reference/manifest-and-cli.md#manifest)::

    .events.<key>
      .teams              formation = "external" | "partner", size (both required), goal,
                          on_leave = "keep_contribution" | "remove_contribution",
                          on_complete = "continue" | "stop_contributions", board = false
        [[.milestones]]     key, threshold, rewards (all required)
        [[.rank_rewards]]   from, to, rewards (all required)

- not on a lobby event (an event is played in lobbies or in teams), nor on an ``order = "asc"`` event (a
  team's score is a sum that grows towards its goal; where lower is better, a member's better score would
  pull the team away from it);
- ``size`` from 2 to 1,000 (a team milestone pays every seated member in the progress write that crosses
  it), and exactly 2 for ``formation = "partner"`` (a partner team is a pair);
- ``goal`` within +-(2^53 - 1) and > 0, required by ``on_complete = "stop_contributions"``;
- team milestones as an event's, with ``threshold`` > 0 (a team starts at 0) and, with
  ``stop_contributions``, at most the goal (the score freezes there); team rank bands as an event's, only
  with ``board = true`` (they pay the team board's ranks); their rewards name the game's resources as an
  event's do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from livecore.games import Order
from livecore.section import (
    Problems,
    Rules,
    Section,
    entry_references,
    is_int,
    is_number,
    items,
    no_overlap,
    positive,
    reward_lists,
    unique_keys,
)
from livecore.teams.rules import TEAM_SIZE_MAX
from livecore.teams.settings import TEAM_SETTINGS, Formation, OnComplete, TeamSettings


def _team_size(value: Any, path: str, problems: Problems) -> None:
    if is_int(value) and not 2 <= value <= TEAM_SIZE_MAX:
        problems[path] = f"must be from 2 to {TEAM_SIZE_MAX} members"


def _teams(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    size, goal = raw.get("size"), raw.get("goal")
    stops = raw.get("on_complete") == OnComplete.STOP_CONTRIBUTIONS.value
    if raw.get("formation") == Formation.PARTNER.value and is_int(size) and size != 2:
        problems.setdefault(f"{path}.size", 'must be 2 with formation = "partner": a partner team is a pair')
    if stops and "goal" not in raw:
        problems[f"{path}.goal"] = (
            'is required with on_complete = "stop_contributions": the team\'s score freezes at it'
        )
    for i, milestone in items(raw, "milestones"):
        where, threshold = f"{path}.milestones[{i}].threshold", milestone.get("threshold")
        positive(threshold, where, problems)  # a team's score starts at 0
        if stops and is_number(threshold) and is_number(goal) and threshold > goal and where not in problems:
            problems[where] = f"must be at most the goal ({goal}): the team's score freezes there"
    unique_keys(raw, "milestones", path, problems)
    no_overlap(raw, path, problems)
    if raw.get("rank_rewards") and raw.get("board") is not True:
        problems[f"{path}.rank_rewards"] = "pays the team board's ranks: needs board = true"


def _event(event: Mapping[str, Any], path: str, problems: Problems, game: Mapping[str, Any]) -> None:
    """Teams only where a team's score can grow towards a goal; their rewards name the game's resources."""
    if "teams" in event and "lobby" in event:
        problems[f"{path}.teams"] = "an event is played in lobbies or in teams, not both: remove one table"
    elif "teams" in event and event.get("order") == Order.ASC.value:
        problems[f"{path}.teams"] = (
            'only an order = "desc" event has teams: a team\'s score is a sum that grows towards its goal'
        )
    teams = event.get("teams")
    if isinstance(teams, dict):
        entry_references(reward_lists(teams, f"{path}.teams"), game, problems)


TEAMS = Section(
    key="teams",
    within="events",
    record=TeamSettings | None,
    holds=TEAM_SETTINGS,
    rules=Rules(
        fields={(TeamSettings, "size"): _team_size, (TeamSettings, "goal"): positive},
        tables={TeamSettings: _teams},
    ),
    check=_event,
)
