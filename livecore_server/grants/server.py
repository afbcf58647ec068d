"""What the server adds to the grant routes' handlers (:mod:`livecore.grants.handlers`): a grant's
creation reads ahead the player its path names, whom it creates on first contact."""

from __future__ import annotations

from livecore.commands.reads import Reads
from livecore.grants import handlers
from livecore.grants.api import SERVER_CREATE_GRANT, CreateGrantRequest
from livecore.grants.commands import GrantsTx
from livecore_server.http.endpoint import Binding, Call, bind, path_player
from livecore_server.storage.concurrency import Concurrency


def create_reads(call: Call[CreateGrantRequest, None], tx: GrantsTx) -> Reads:
    return path_player(call)


BINDINGS: list[Binding] = [
    bind(SERVER_CREATE_GRANT, handlers.create, reads=create_reads, concurrency=Concurrency.SHARED)
]
