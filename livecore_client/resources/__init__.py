"""The clients' resources, one module (or package) per area, and what a studio needs to add its own.

Each area module writes its builders once and makes a sync and an async resource class from them; the
clients bind them with :class:`resource` (``SdkClient.friends = resource(Friends)``). A studio's own
resource is built the same way (docs/client.md#your-own-resources)::

    class _QuestsCalls(SdkCalls):
        def _progress(self, external_id: str, *, player_secret: str | None = None) -> Call[QuestProgress]:
            \"\"\"The player's quest progress.\"\"\"
            return Call(QUEST_PROGRESS, QuestProgress, path={"externalId": external_id},
                        player_secret=self._secret(player_secret))

    class Quests(SyncResource["GameClient"], _QuestsCalls):
        progress = sync_method(_QuestsCalls._progress)

    class GameClient(SdkClient):
        quests = resource(Quests)

A resource kept in a module apart from its client may name the surface's base instead
(``SyncResource[SdkSurface]``; ``SyncResource[SyncClient]`` on the server surface), as the built-in ones
do, so that the module does not import the client that binds it. A studio's admin resource is built on
the operators' bases (:mod:`livecore_client.resources.operators`: ``AdminCalls``, ``AdminSurface``).
"""

from livecore.api.call import Call

from .._client import (
    AsyncClient,
    AsyncResource,
    SyncClient,
    SyncResource,
    async_method,
    resource,
    sync_method,
)
from .._surfaces import AsyncSdkSurface, SdkSurface
from ._base import SdkCalls, ServerCalls

__all__ = [
    "AsyncClient",
    "AsyncResource",
    "AsyncSdkSurface",
    "Call",
    "SdkCalls",
    "SdkSurface",
    "ServerCalls",
    "SyncClient",
    "SyncResource",
    "async_method",
    "resource",
    "sync_method",
]
