"""The quests area in the typed clients: ``game.quests.check_in(...)``, ``backend.quests.get(...)``.

Built the way the built-in resources are (docs/client.md#your-own-resources): each call is written once, as
a builder returning a :class:`~livecore_client.resources.Call` of the area's route, and made into the sync
and the async method by the same adapters; a subclass of each client binds the resource.
"""

from __future__ import annotations

from livecore_client import AsyncSdkClient, AsyncServerClient, SdkClient, ServerClient
from livecore_client.resources import (
    AsyncResource,
    Call,
    SdkCalls,
    ServerCalls,
    SyncResource,
    async_method,
    resource,
    sync_method,
)
from studio_quests.api import SDK_CHECK_IN, SDK_READ, SERVER_READ, CheckInResponse, QuestResponse


class _QuestCalls(SdkCalls):
    def _check_in(
        self, external_id: str, *, idempotency_key: str | None = None, player_secret: str | None = None
    ) -> Call[CheckInResponse]:
        """Check in for today (UTC): the streak moves on and the day's reward comes back as a pending
        grant. A second check-in the same day raises
        :class:`~livecore_client.errors.ConflictError` with code ``quest_already_checked_in``."""
        return Call(
            SDK_CHECK_IN,
            CheckInResponse,
            path={"externalId": external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _get(self, external_id: str, *, player_secret: str | None = None) -> Call[QuestResponse]:
        """The player's daily check-in: today's, the streak, the best streak."""
        return Call(
            SDK_READ,
            QuestResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )


class Quests(SyncResource["GameClient"], _QuestCalls):
    check_in = sync_method(_QuestCalls._check_in)
    get = sync_method(_QuestCalls._get)


class AsyncQuests(AsyncResource["AsyncGameClient"], _QuestCalls):
    check_in = async_method(_QuestCalls._check_in)
    get = async_method(_QuestCalls._get)


class _ServerQuestCalls(ServerCalls):
    def _get(self, external_id: str) -> Call[QuestResponse]:
        """A player's daily check-in, read by the studio backend."""
        return Call(SERVER_READ, QuestResponse, path={"externalId": external_id})


class ServerQuests(SyncResource["BackendClient"], _ServerQuestCalls):
    get = sync_method(_ServerQuestCalls._get)


class AsyncServerQuests(AsyncResource["AsyncBackendClient"], _ServerQuestCalls):
    get = async_method(_ServerQuestCalls._get)


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
