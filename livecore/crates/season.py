"""The crates' part of a simulated season (docs/simulation.md#playing-a-season): a crate's contents are
claimed as the crate opens, not as a pending grant."""

from __future__ import annotations

from livecore.crates.rules import CONTENTS_SOURCE_KIND
from livecore.simulation.part import SeasonPart

SEASON = SeasonPart(claimed=(CONTENTS_SOURCE_KIND,))
