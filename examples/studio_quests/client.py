"""The quests area in the typed clients: ``game.quests.check_in(...)``, ``backend.quests.get(...)``.

Built the way the built-in resources are (docs/client.md#your-own-resources): each call is written once, as
a builder (``studio_quests.calls``), and made into the sync and the async method by the same adapters (and
into a simulated action, ``studio_quests.simulation``); a subclass of each client binds the resource.
"""

from __future__ import annotations

from livecore_client import AsyncSdkClient, AsyncServerClient, SdkClient, ServerClient
from livecore_client.resources import (
    AsyncResource,
    SyncResource,
    async_method,
    resource,
    sync_method,
)
from studio_quests.calls import QuestCalls, ServerQuestCalls


class Quests(SyncResource["GameClient"], QuestCalls):
    check_in = sync_method(QuestCalls._check_in)
    get = sync_method(QuestCalls._get)


class AsyncQuests(AsyncResource["AsyncGameClient"], QuestCalls):
    check_in = async_method(QuestCalls._check_in)
    get = async_method(QuestCalls._get)


class ServerQuests(SyncResource["BackendClient"], ServerQuestCalls):
    get = sync_method(ServerQuestCalls._get)


class AsyncServerQuests(AsyncResource["AsyncBackendClient"], ServerQuestCalls):
    get = async_method(ServerQuestCalls._get)


class GameClient(SdkClient):
    """The SDK client with the quests resource."""

    quests = resource(Quests)


class AsyncGameClient(AsyncSdkClient):
    quests = resource(AsyncQuests)


class BackendClient(ServerClient):
    """The server client with the quests resource."""

    quests = resource(ServerQuests)


class AsyncBackendClient(AsyncServerClient):
    quests = resource(AsyncServerQuests)
