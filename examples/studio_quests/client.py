"""The quests area in the typed clients: ``sdk.quests.check_in(...)``, ``server.quests.get(...)``.

Built the way the built-in resources are (docs/client.md#your-own-resources): each call is written once, as
a builder (``studio_quests.calls``), and made into the sync and the async method by the same adapters (and
into a simulated action, ``studio_quests.simulation``). The area declares them (``Area.client``), and the
generated ``studio_quests.typed`` binds them on its subclass of each client (docs/extending.md#typed-facades).
"""

from __future__ import annotations

from livecore_client.resources import (
    AsyncClient,
    AsyncResource,
    AsyncSdkSurface,
    SdkSurface,
    SyncClient,
    SyncResource,
    async_method,
    sync_method,
)
from studio_quests.calls import QuestCalls, ServerQuestCalls


class Quests(SyncResource[SdkSurface], QuestCalls):
    check_in = sync_method(QuestCalls._check_in)
    get = sync_method(QuestCalls._get)


class AsyncQuests(AsyncResource[AsyncSdkSurface], QuestCalls):
    check_in = async_method(QuestCalls._check_in)
    get = async_method(QuestCalls._get)


class ServerQuests(SyncResource[SyncClient], ServerQuestCalls):
    get = sync_method(ServerQuestCalls._get)


class AsyncServerQuests(AsyncResource[AsyncClient], ServerQuestCalls):
    get = async_method(ServerQuestCalls._get)
