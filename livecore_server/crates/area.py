"""The crates area's server side: the handler bound to each of its routes."""

from __future__ import annotations

from livecore.crates.area import AREA
from livecore_server.area import ServerArea
from livecore_server.crates import sdk
from livecore_server.crates.report import REPORT

SERVER_AREA = ServerArea(AREA, report=REPORT, bindings=tuple(sdk.BINDINGS))
