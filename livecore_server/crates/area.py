"""The crates area's server side: its report part, and what it reads ahead of an open (its binding
declares the reads, :data:`~livecore_server.crates.read_ahead.READ_AHEAD` reads them). Its route's
handler is the core's (:mod:`livecore.crates.handlers`)."""

from __future__ import annotations

from livecore.crates.api import SDK_OPEN_CRATE
from livecore.crates.area import AREA
from livecore.crates.handlers import open_crate, open_crate_reads
from livecore_server.area import ServerArea
from livecore_server.crates.read_ahead import READ_AHEAD
from livecore_server.crates.report import REPORT
from livecore_server.http.endpoint import bind
from livecore_server.storage.concurrency import Concurrency

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    bindings=(bind(SDK_OPEN_CRATE, open_crate, reads=open_crate_reads, concurrency=Concurrency.PLAYERS),),
    read_ahead=READ_AHEAD,
)
