"""The system area's server side: its routes' bindings (:mod:`livecore_server.system.bindings`); it keeps
nothing in the database."""

from __future__ import annotations

from livecore.system.area import AREA
from livecore_server.area import ServerArea
from livecore_server.system.bindings import BINDINGS

SERVER_AREA = ServerArea(AREA, bindings=BINDINGS)
