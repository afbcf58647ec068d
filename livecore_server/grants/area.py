"""The grants area's server side: the handler bound to each of its routes."""

from __future__ import annotations

from livecore.grants.area import AREA
from livecore_server.area import ServerArea
from livecore_server.grants import admin, sdk
from livecore_server.grants.report import REPORT

SERVER_AREA = ServerArea(AREA, report=REPORT, bindings=(*sdk.BINDINGS, *admin.BINDINGS))
