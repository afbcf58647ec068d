"""The crates' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): what
the report calls a crate's contents as a source of resources. A crate waiting to be opened is a pending
grant (the grants' section counts them)."""

from __future__ import annotations

from livecore_server.simulate.section import ReportPart

REPORT = ReportPart(labels={"crate": "crates"})
