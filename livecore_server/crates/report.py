"""The crates' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): what
the report calls a crate's contents as a source of resources, the crates still waiting to be opened at
the end, a count the grants' section holds (a crate is a pending grant until opened), and the crates the
studio's backend sent a day played by default (the population sets no ``[studio] crates``), which a
warning names."""

from __future__ import annotations

from typing import Any

from livecore.crates.season import SENT
from livecore.games import GameSettings
from livecore_server.grants.report import grants_of, pending_at_end
from livecore_server.simulate.section import Gathering, Label, ReportPart, Warning, warning


def gather(at: Gathering) -> dict[str, Any]:
    """The crates pending at the end; ``crates_by_default``: what the studio's backend sent of each
    crate a day played where the population sets no ``[studio] crates`` (None where it does)."""
    population = at.season.population
    by_default = None if SENT.name in population.studio.rates else population.sent(SENT, at.settings)
    return {
        "pending_crates": sum(g.kind == "crate" and pending_at_end(g, at) for g in grants_of(at).values()),
        "crates_by_default": by_default,
    }


def warnings(section: dict[str, Any], settings: GameSettings, label: Label) -> list[Warning]:
    """Crates sent by default: the population does not say what the studio's backend sends."""
    sent = section.get("crates_by_default")
    if not sent:
        return []
    each = ", ".join(f"{rate:g} {key}" for key, rate in sent.items())
    return [
        warning(
            "crates",
            "studio",
            f"The population sets no [studio] crates, so every player received {each} a day played by"
            " default: set what the studio's backend sends (crates = {} for none).",
        )
    ]


REPORT = ReportPart(labels={"crate": "crates"}, within="grants", gather=gather, warnings=warnings)
