"""The grants area's server side: the handler bound to each of its routes."""

from __future__ import annotations

from livecore.grants.area import AREA
from livecore_server.area import ServerArea
from livecore_server.grants import admin, sdk

SERVER_AREA = ServerArea(AREA, bindings=(*sdk.BINDINGS, *admin.BINDINGS))
