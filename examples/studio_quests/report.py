"""The quests area's part of a simulated season's report (docs/extending.md#your-area-in-a-simulated-season):
the players who checked in, the check-ins in all and the streaks, a warning when few came back, the rows
a comparison of two manifests shows, and the check-ins per player of each segment. The report's page shows
the section as its JSON (the part brings no template of its own)."""

from __future__ import annotations

from typing import Any

from livecore.games import GameSettings
from livecore_server.simulate.section import (
    Figures,
    Gathering,
    Label,
    ReportPart,
    Row,
    Warning,
    pct,
    percentiles,
    row,
    warning,
)
from studio_quests.commands import SOURCE_KIND
from studio_quests.memory import TABLE
from studio_quests.rules import QuestState

#: Players who checked in more than once: fewer than this share of those who checked in is named.
CAME_BACK = 0.2


def gather(at: Gathering) -> dict[str, Any]:
    """Players who checked in, check-ins in all, and the best streaks' percentiles."""
    rows: dict[str, QuestState] = at.sim.store.tables[TABLE]
    states = [s for s in rows.values() if s.game_id == at.game_id]
    return {
        "players": len(states),
        "check_ins": sum(s.total for s in states),
        "came_back": sum(1 for s in states if s.total > 1),
        "best_streaks": percentiles([s.best_streak for s in states], ps=(50, 90)),
    }


def by_segment(at: Gathering) -> Figures:
    """Check-ins per player of each segment (the report's ``segments`` section)."""
    rows: dict[str, QuestState] = at.sim.store.tables[TABLE]
    check_ins: dict[str, float] = {}
    for state in rows.values():
        segment = at.segment(state.player_id)
        if state.game_id == at.game_id and segment is not None:
            check_ins[segment] = check_ins.get(segment, 0) + state.total
    return {"check-ins per player": at.per_player(check_ins)}


def warnings(section: dict[str, Any], settings: GameSettings, label: Label) -> list[Warning]:
    players = section["players"]
    if players and section["came_back"] / players < CAME_BACK:
        share = pct(section["came_back"] / players)
        return [warning("quests", "came_back", f"Only {share} of the players who checked in came back.")]
    return []


def compare(base: dict[str, Any] | None, other: dict[str, Any] | None) -> list[Row]:
    return [
        row(
            "quests",
            "",
            metric,
            None if base is None else base[metric],
            None if other is None else other[metric],
        )
        for metric in ("players", "check_ins")
    ]


REPORT = ReportPart(
    key="quests",
    gather=gather,
    warnings=warnings,
    compare=compare,
    by_segment=by_segment,
    labels={SOURCE_KIND: "daily check-ins"},
)
