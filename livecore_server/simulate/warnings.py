"""The report's warnings (docs/simulation.md#warnings): plain sentences where a number looks wrong for a
live game, each read from the gathered report, so the JSON and the page say the same. Each area's part
says which its section calls for (``livecore_server/<area>/report.py``, where the thresholds are)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from livecore.games import GameSettings
from livecore_server.simulate.section import ReportPart, Warning, labeller


def warnings_of(report: dict[str, Any], settings: GameSettings, parts: Sequence[ReportPart]) -> list[Warning]:
    """Every warning the report's numbers call for: each part's on its section, in the parts' order,
    then each part's on the season's refusals."""
    label = labeller(parts)
    out: list[Warning] = []
    for part in parts:
        if part.key is not None and part.key in report:
            out += part.warnings(report[part.key], settings, label)
    for part in parts:
        out += part.refusal_warnings(report["refusals"])
    return out
