"""The report's warnings (docs/simulation.md#warnings): plain sentences where a number looks wrong for a
live game, each read from the gathered report, so the JSON and the page say the same. Each area's part
says which its section calls for (``livecore_server/<area>/report.py``, where the thresholds are)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from livecore.games import GameSettings
from livecore_server.simulate.section import ReportPart, Warning, labeller


def warnings_of(report: dict[str, Any], settings: GameSettings, parts: Sequence[ReportPart]) -> list[Warning]:
    """Every warning the report's numbers call for: each part's on its section (the section it adds its
    fields to, for a part within another's), in the parts' order, then each part's on the season's
    refusals."""
    label = labeller(parts)
    out: list[Warning] = []
    for part in parts:
        section = part.key or part.within  # a part within another's section warns on that section
        if section is not None and section in report:
            out += part.warnings(report[section], settings, label)
    for part in parts:
        out += part.refusal_warnings(report["refusals"])
    return out
