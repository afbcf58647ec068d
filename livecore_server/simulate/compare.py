"""Two reports side by side (``livecore-server simulate --compare``): the same seeded population played on
two manifests, the headline numbers of each and how they differ, each area's part giving its rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from livecore_server.simulate.section import ReportPart, Row, row


def differences(base: dict[str, Any], other: dict[str, Any], parts: Sequence[ReportPart]) -> list[Row]:
    """The headline numbers of both reports, row by row (``base``, ``other``, ``change`` = other - base;
    None where one configuration has no such thing): each part's, in the parts' order, then the warnings."""
    rows: list[Row] = []
    for part in parts:
        if part.key is not None and (part.key in base or part.key in other):
            rows += part.compare(base.get(part.key), other.get(part.key))
    rows.append(row("warnings", "", "warnings", len(base["warnings"]), len(other["warnings"])))
    return rows


def comparison(base: dict[str, Any], other: dict[str, Any], parts: Sequence[ReportPart]) -> dict[str, Any]:
    """The comparison report: both reports whole, and their differences."""
    return {"compare": True, "base": base, "other": other, "differences": differences(base, other, parts)}
