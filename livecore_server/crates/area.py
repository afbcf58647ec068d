"""The crates area's server side: its report part (its route's handler is the core's,
:mod:`livecore.crates.handlers`)."""

from __future__ import annotations

from livecore.crates.area import AREA
from livecore_server.area import ServerArea
from livecore_server.crates.report import REPORT

SERVER_AREA = ServerArea(AREA, report=REPORT)
