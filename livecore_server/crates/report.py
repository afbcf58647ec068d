"""The crates' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): what
the report calls a crate's contents as a source of resources, and the crates still waiting to be opened
at the end, a count the grants' section holds (a crate is a pending grant until opened)."""

from __future__ import annotations

from typing import Any

from livecore_server.grants.report import grants_of, pending_at_end
from livecore_server.simulate.section import Gathering, ReportPart


def gather(at: Gathering) -> dict[str, Any]:
    return {
        "pending_crates": sum(g.kind == "crate" and pending_at_end(g, at) for g in grants_of(at).values())
    }


REPORT = ReportPart(labels={"crate": "crates"}, within="grants", gather=gather)
